import assert from 'node:assert/strict';
import * as path from 'node:path';
import { CATEGORIES } from './corpus/attempt';
import { QUICK_COUNTS, buildCorpus, seedFrom } from './corpus/corpus';
import { inProcessDriver } from './corpus/inProcess';
import { failureExamples, rowLabel, summarizeChecks } from './corpus/report';
import { runCorpus, type CorpusRun, type Outcome, type Verdict } from './corpus/run';

/**
 * A seeded ~250-attempt slice of the issue-15 corpus (bench/hashEditCorpus.ts runs the full one
 * through the CLI), in-process with the real read. Each attempt is byte-compared with an
 * independent oracle of what the model meant; see corpus/*.ts. MAGI_CORPUS_SEED picks another seed.
 */

const seed = seedFrom(process.env, 15);
const ROOT = path.resolve(__dirname, '../../../../..');

describe(`hash_edit corpus (seed ${seed}, in-process)`, function () {
  this.timeout(60_000);
  let run: CorpusRun;

  before(async () => {
    const corpus = buildCorpus(seed, QUICK_COUNTS, ROOT);
    const driver = await inProcessDriver();
    try {
      run = await runCorpus(corpus.attempts, driver);
    } finally {
      await driver.close();
    }
  });

  const failing = (rows: readonly string[] | 'all', verdicts: readonly Verdict[]): Outcome[] =>
    run.outcomes.filter((o) => (rows === 'all' || rows.includes(rowLabel(o))) && verdicts.includes(o.verdict));
  const explain = (list: readonly Outcome[]): string => `${list.length} attempt(s), e.g.:\n${failureExamples(list, 3)}`;

  it('is seeded and deterministic, and covers every category', () => {
    assert.equal(buildCorpus(seed, QUICK_COUNTS, ROOT).digest, buildCorpus(seed, QUICK_COUNTS, ROOT).digest);
    assert.ok(run.outcomes.length >= 240, `only ${run.outcomes.length} attempts`);
    for (const category of CATEGORIES) assert.ok(run.outcomes.some((o) => o.attempt.category === category), `no ${category} attempt`);
  });

  it("the oracle's intent for the issue's a.md repro is NEW after old line 4, not after old line 2", () => {
    const repro = buildCorpus(seed, QUICK_COUNTS, ROOT).attempts.find((a) => a.path === 'a.md');
    assert.equal(repro?.outside, '# Notes\n\none\n\ntwo\n\nthree\n');
    assert.equal(repro?.intended, '# Notes\n\none\n\ntwo\n\nNEW\nthree\n');
  });

  it('never changes a file while refusing, and never crashes', () => {
    const list = failing('all', ['partial', 'crash']);
    assert.equal(list.length, 0, explain(list));
  });

  it('never applies a stale, copied-prefix, detectably miscounted or else-block edit wrongly', () => {
    const list = failing(['stale_outside', 'stale_session', 'copied_prefix', 'miscount (detectable)', 'else_block'], ['wrong']);
    assert.equal(list.length, 0, explain(list));
  });

  it('applies every valid fresh edit, and a refused suspect edit when it is sent again', () => {
    const list = failing(['valid_fresh', 'confirm_resend'], ['over_refused']);
    assert.equal(list.length, 0, explain(list));
  });

  it('passes every message check', () => {
    const failed = summarizeChecks(run.checks).filter((c) => c.fail > 0);
    assert.deepEqual(
      failed.map((c) => `${c.name}: ${c.fail} of ${c.pass + c.fail} failed, e.g. ${c.example?.attemptId}: ${c.example?.detail.split('\n')[0]}`),
      [],
    );
  });
});
