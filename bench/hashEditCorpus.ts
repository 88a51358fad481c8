/**
 * The hash_edit corpus of issue 15, through the CLI: 1,290 seeded attempts (fresh valid edits,
 * outside and in-session stale tags, copied `N:` prefixes, miscounted ranges and their resends,
 * else/catch blocks, error messages) over generated TS/JS/JSON/Markdown/Python/CSS/YAML files and
 * three of the project's own, all in ONE long-lived `magi tools` session, each attempt
 * byte-compared with an independent oracle of what the model meant.
 *
 * Run with `npx tsx bench/hashEditCorpus.ts` after `npm run build`. Environment:
 *   MAGI_CLI            the CLI to drive (default dist/cli.js of this checkout)
 *   MAGI_CORPUS_SEED    the seed (default 15)
 *   MAGI_CORPUS_FILES   where the project files come from (default this checkout)
 *   MAGI_CORPUS_EXAMPLES failing examples shown per category (default 3)
 * It reports and never asserts; it exits non-zero only when the harness itself fails.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { FULL_COUNTS, buildCorpus, seedFrom } from '../test/unit/core/tools/hashEdit/corpus/corpus';
import { ProcessDriver } from '../test/unit/core/tools/hashEdit/corpus/driver';
import { failureExamples, formatChecks, formatTable, recoverableRefusals, summarizeChecks, tally } from '../test/unit/core/tools/hashEdit/corpus/report';
import { runCorpus } from '../test/unit/core/tools/hashEdit/corpus/run';

const ROOT = path.resolve(__dirname, '..');

async function main(): Promise<void> {
  const cli = path.resolve(process.env.MAGI_CLI ?? path.join(ROOT, 'dist', 'cli.js'));
  if (!existsSync(cli)) throw new Error(`${cli} does not exist; run npm run build first (or set MAGI_CLI)`);
  const seed = seedFrom(process.env, 15);
  const files = path.resolve(process.env.MAGI_CORPUS_FILES ?? ROOT);
  const examples = Number(process.env.MAGI_CORPUS_EXAMPLES ?? 3);
  const started = Date.now();
  const corpus = buildCorpus(seed, FULL_COUNTS, files);
  console.log(`hash_edit corpus: seed ${seed}, ${corpus.attempts.length} attempts, digest ${corpus.digest}, project files from ${files}`);
  console.log(`driver: one \`magi tools\` session of ${cli}`);
  const driver = await ProcessDriver.start(cli);
  try {
    const run = await runCorpus(corpus.attempts, driver, (done) => {
      if (done % 200 === 0) process.stderr.write(`  ${done}/${corpus.attempts.length}\n`);
    });
    console.log('');
    console.log(formatTable(tally(run.outcomes)));
    console.log('');
    console.log('refused = acceptable refusal (file unchanged); over-refused = a valid edit refused; retry ok = scripted retry from the error text ended with the meant file.');
    console.log('miscount (undetectable): the addressed lines look like the meant ones (similarity >= 0.5); a wrong application there is not a failure.');
    console.log('');
    console.log('message checks:');
    console.log(formatChecks(summarizeChecks(run.checks)));
    const failing = summarizeChecks(run.checks).filter((c) => c.example);
    for (const c of failing) console.log(`  e.g. ${c.name} (${c.example?.attemptId}): ${c.example?.detail.split('\n')[0]?.slice(0, 240)}`);
    console.log('');
    console.log(recoverableRefusals(run.outcomes, examples));
    console.log('');
    if (examples > 0) console.log(failureExamples(run.outcomes, examples));
    console.log('');
    console.log(`session restarts: ${driver.restarts}; corpus time ${(run.ms / 1000).toFixed(1)} s, wall time ${((Date.now() - started) / 1000).toFixed(1)} s; seed ${seed}`);
  } finally {
    await driver.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
