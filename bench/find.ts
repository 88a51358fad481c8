/**
 * `find` on the generated 50,000-file tree (bench/tree.ts, 2,500 folders of 20 files), in one run:
 *  - in process, as the extension host runs it (modules loaded): cold — a fresh runtime, so an
 *    empty listing cache and no prepared index — and warm — a new query with both kept — with the
 *    warm time split into the walk, finding the prepared index and the ranking, for several
 *    kinds of query;
 *  - whole process, as a script runs it: `magi tool find` (dist/cli.js; `npm run build` first);
 *  - the reference: `fdfind` whole process for a comparable name search (what a tool that spawns
 *    fd pays), and `node -e 0` for Node's own start-up.
 * Every figure is a median. Numbers are reported, never asserted. Run with `npx tsx bench/find.ts`.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { createDefaultRegistry } from '../src/core/tools';
import { dispatchTool } from '../src/core/tools/dispatch';
import { findIndexCache } from '../src/core/tools/find';
import { rankPage } from '../src/core/tools/find/rank';
import { parseQuery } from '../src/core/tools/find/scorer';
import { ToolRuntime } from '../src/core/tools/runtime';
import { median, processTime as processTimeOf, timed } from './measure';
import { generatedTree } from './tree';

const RUNS = Number(process.env.MAGI_BENCH_RUNS ?? 7);
const CLI = path.resolve(__dirname, '..', 'dist', 'cli.js');
const processTime = (command: string, args: string[], cwd: string) => processTimeOf(RUNS, command, args, cwd);

/** Queries of different shapes; the fd pattern is the closest regex over the same paths. */
const QUERIES: { query: string; fd: string[] }[] = [
  { query: 'file7', fd: ['file7'] },
  { query: 'unit1234 file7', fd: ['--full-path', 'unit1234.*file7'] },
  { query: 'mod3/unit1', fd: ['--full-path', 'mod3/unit1'] },
  { query: 'u12f3', fd: ['--full-path', 'u.*1.*2.*f.*3'] },
  { query: 'ts', fd: ['ts'] },
];

async function main(): Promise<void> {
  const tree = await generatedTree(2500, 20);
  const registry = createDefaultRegistry();
  const find = async (runtime: ToolRuntime, query: string) => {
    const { result } = await dispatchTool(registry, runtime, 'find', { query });
    if (result.status !== 'success') throw new Error(`find: ${result.content.slice(0, 300)}`);
    return result;
  };

  // Load and JIT everything once on another runtime, as a running extension host would have.
  const warmup = await ToolRuntime.create({ root: tree.root });
  for (const { query } of QUERIES) await find(warmup, query);

  const rows: Record<string, string | number>[] = [];
  for (const { query, fd } of QUERIES) {
    const cold: number[] = [];
    const warm: number[] = [];
    const walkWarm: number[] = [];
    const lookupWarm: number[] = [];
    const rankWarm: number[] = [];
    let matched = 0;
    for (let i = 0; i < RUNS; i++) {
      const runtime = await ToolRuntime.create({ root: tree.root });
      const [coldMs] = await timed(() => find(runtime, query));
      cold.push(coldMs);
      // A different query first, so the warm figure is a new query on a warm tree, not a repeat.
      await find(runtime, 'warm');
      const [warmMs, result] = await timed(() => find(runtime, query));
      warm.push(warmMs);
      matched = result.metadata.total_matched as number;
      const [walkMs, walk] = await timed(() => runtime.walk(runtime.root));
      walkWarm.push(walkMs);
      const [lookupMs, { index }] = await timed(async () => findIndexCache(runtime).get(walk, walk.files, walk.dirs));
      lookupWarm.push(lookupMs);
      const [rankMs] = await timed(async () => rankPage(index, parseQuery(query), 'files', 0, 50));
      rankWarm.push(rankMs);
      if (findIndexCache(runtime).builds !== 1) throw new Error('the warm query rebuilt the index');
    }
    const fdMs = processTime('fdfind', ['--type', 'f', ...fd], tree.root);
    const cliMs = existsSync(CLI) ? processTime('node', [CLI, 'tool', 'find', JSON.stringify({ query }), '--cwd', tree.root], tree.root) : NaN;
    const ms = (v: number) => +v.toFixed(1);
    rows.push({
      query,
      matched,
      'cold (ms)': ms(median(cold)),
      'warm (ms)': ms(median(warm)),
      'warm walk (ms)': ms(median(walkWarm)),
      'warm index lookup (ms)': ms(median(lookupWarm)),
      'warm rank (ms)': ms(median(rankWarm)),
      [`fdfind ${fd.join(' ')} (ms)`]: ms(fdMs),
      'warm / fdfind': +(median(warm) / fdMs).toFixed(2),
      'magi tool find, whole process (ms)': ms(cliMs),
    });
  }
  console.log(`find on ${tree.files.toLocaleString('en-US')} files (${tree.root}), medians of ${RUNS}`);
  for (const row of rows) console.log(JSON.stringify(row));
  console.log(JSON.stringify({ 'node -e 0, whole process (ms)': +processTime('node', ['-e', '0'], tree.root).toFixed(1) }));
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
