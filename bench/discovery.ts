/**
 * Discovery benchmarks of issue 3, side by side in one run, on two trees: the generated
 * 100,000-file tree (bench/tree.ts) and this project's node_modules.
 *  - in process, as the extension host runs them (warm runtime, modules loaded): a walk with an
 *    empty listing cache and with a warm one, the empty-cache walk also without the git index
 *    (the rules alone, as before the walker read it) and the index read on its own, grep for a
 *    common literal, a regex and a rare string, find cold and warm;
 *  - whole process, as a script runs them: `magi files` and `magi tool grep`;
 *  - the references: ripgrep (`rg --files`, `rg -n`) and fd (`fdfind --type f`), whole process.
 * Every figure is a median; ratios are against ripgrep's whole-process time for the same work.
 * Numbers are reported, never asserted. Run with `npm run bench` (it builds first).
 */
import * as path from 'node:path';
import { BUILTIN_TOOLS } from '../src/core/tools';
import { createGrepTool } from '../src/core/tools/grep';
import { ToolRegistry } from '../src/core/tools/registry';
import { dispatchTool } from '../src/core/tools/dispatch';
import { ToolRuntime } from '../src/core/tools/runtime';
import { findRepo } from '../src/core/workspace/gitConfig';
import { readIndex } from '../src/core/workspace/gitIndex';
import { ListingCache } from '../src/core/workspace/listingCache';
import { walkWorkspace } from '../src/core/workspace/walker';
import { median, processTime as processTimeOf, timed } from './measure';
import { generatedTree } from './tree';

const ROOT = path.resolve(__dirname, '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const RUNS = Number(process.env.MAGI_BENCH_RUNS ?? 5);
/** The 100k-file tree has 105,551 entries with its folders: lift the walker's 100,000-entry default so every walk is whole. */
const WALK_LIMITS = { maxEntries: 1_000_000 };
const processTime = (command: string, args: string[], cwd: string, check?: (stdout: string) => void) => processTimeOf(RUNS, command, args, cwd, check);
const elapsed = async (work: () => Promise<unknown>) => (await timed(work))[0];

function lineCount(text: string): number {
  return text === '' ? 0 : text.trimEnd().split('\n').length;
}

interface TreeCase {
  name: string;
  dir: string;
  /** Flags that make ripgrep and fd use the same ignore rules as our walker rooted at `dir`. */
  rgFlags: string[];
  fdFlags: string[];
  literal: string;
  regex: string;
  rare: string;
  /** Lines that hold the rare string, when known: a check that ripgrep did the search. */
  rareLines?: number;
  findQuery: string;
}

async function benchTree(tree: TreeCase): Promise<Record<string, number | string>> {
  // In process, grep searches the whole tree as `rg -n` does: the seed's 10,000-file cap is lifted.
  const wholeTreeGrep = createGrepTool({ maxFiles: 1_000_000, walkMaxEntries: WALK_LIMITS.maxEntries, callReadCap: 1 << 30 });
  const registry = new ToolRegistry(BUILTIN_TOOLS.map((tool) => (tool.name === 'grep' ? wholeTreeGrep : tool)));
  const grep = async (runtime: ToolRuntime, pattern: string) => {
    const { result } = await dispatchTool(registry, runtime, 'grep', { patterns: [pattern] });
    if (result.status !== 'success') throw new Error(`grep ${pattern}: ${result.content.slice(0, 300)}`);
  };
  const find = async (runtime: ToolRuntime) => {
    const { result } = await dispatchTool(registry, runtime, 'find', { query: tree.findQuery });
    if (result.status !== 'success') throw new Error(`find: ${result.content.slice(0, 300)}`);
  };

  // Warm-up: module loading, worker start-up and the OS page cache are not what we measure.
  const warm = await ToolRuntime.create({ root: tree.dir });
  const walked = await warm.walk(tree.dir, undefined, WALK_LIMITS);
  if (!walked.facts.scan_complete) throw new Error(`the walk of ${tree.name} was cut: ${JSON.stringify(walked.facts)}`);
  await grep(warm, tree.rare);

  const withoutIndex = await walkWorkspace({ root: tree.dir, dir: tree.dir, environment: warm.walkEnvironment, ...WALK_LIMITS, gitIndex: false }, new ListingCache());
  const repo = findRepo(tree.dir, new ListingCache());
  const walkCold: number[] = [];
  const walkColdNoIndex: number[] = [];
  const indexRead: number[] = [];
  const walkWarm: number[] = [];
  const findCold: number[] = [];
  const findWarm: number[] = [];
  const grepTimes: Record<string, number[]> = { literal: [], regex: [], rare: [] };
  for (let i = 0; i < RUNS; i++) {
    const fresh = await ToolRuntime.create({ root: tree.dir });
    // With and without the index, each with an empty cache, taking turns at going first.
    const noIndex = () => walkWorkspace({ root: tree.dir, dir: tree.dir, environment: fresh.walkEnvironment, ...WALK_LIMITS, gitIndex: false }, new ListingCache());
    if (i % 2 === 1) walkColdNoIndex.push(await elapsed(noIndex));
    walkCold.push(await elapsed(() => fresh.walk(tree.dir, undefined, WALK_LIMITS)));
    if (i % 2 === 0) walkColdNoIndex.push(await elapsed(noIndex));
    walkWarm.push(await elapsed(() => fresh.walk(tree.dir, undefined, WALK_LIMITS)));
    if (repo) indexRead.push(await elapsed(async () => readIndex(repo, new ListingCache())));
    const forFind = await ToolRuntime.create({ root: tree.dir });
    findCold.push(await elapsed(() => find(forFind)));
    findWarm.push(await elapsed(() => find(forFind)));
    for (const kind of ['literal', 'regex', 'rare'] as const) grepTimes[kind]?.push(await elapsed(() => grep(warm, tree[kind])));
  }

  const files = walked.files.length;
  const rgFiles = processTime('rg', ['--files', ...tree.rgFlags], tree.dir, (out) => {
    if (lineCount(out) !== files) console.warn(`  note: rg --files lists ${lineCount(out)} files, the walker ${files}`);
  });
  const fdFiles = processTime('fdfind', ['--type', 'f', ...tree.fdFlags], tree.dir, () => undefined);
  const magiFiles = processTime('node', [CLI, 'files', '--cwd', tree.dir, '--max-entries', String(WALK_LIMITS.maxEntries)], tree.dir, (out) => {
    if (lineCount(out) !== files) throw new Error(`magi files printed ${lineCount(out)} lines for ${files} files`);
  });
  const rgGrep: Record<string, number> = {};
  for (const kind of ['literal', 'regex', 'rare'] as const) {
    // The path argument matters: without one, ripgrep reads stdin when it is not a terminal.
    rgGrep[kind] = processTime('rg', ['-n', '--no-heading', ...tree.rgFlags, '-g', '!target', '-e', tree[kind], '.'], tree.dir, (out) => {
      if (kind === 'rare' && tree.rareLines !== undefined && lineCount(out) !== tree.rareLines) throw new Error(`rg found ${lineCount(out)} lines of ${tree.rare} in ${tree.name}, not ${tree.rareLines}`);
    });
  }
  const magiGrep = processTime('node', [CLI, 'tool', 'grep', JSON.stringify({ patterns: [tree.rare] }), '--cwd', tree.dir], tree.dir, (out) => {
    if (!out.startsWith('STATUS: success')) throw new Error(`magi tool grep: ${out.slice(0, 300)}`);
  });
  const nodeStart = processTime('node', ['-e', '0'], tree.dir, () => undefined);

  const ms = (v: number) => +v.toFixed(1);
  const ratio = (v: number, ref: number) => +(v / ref).toFixed(2);
  return {
    tree: tree.name,
    files,
    'rg --files (ms)': ms(rgFiles),
    'fdfind --type f (ms)': ms(fdFiles),
    'files without the git index (the rules alone)': withoutIndex.files.length,
    'walk, in process, empty cache (ms / × rg --files)': `${ms(median(walkCold))} / ${ratio(median(walkCold), rgFiles)}×`,
    'walk, in process, empty cache, without the git index (ms / with it ÷ without)': `${ms(median(walkColdNoIndex))} / ${ratio(median(walkCold), median(walkColdNoIndex))}×`,
    'git index read and parsed alone (ms)': repo ? ms(median(indexRead)) : 'no repository',
    'walk, in process, warm cache (ms / × rg --files)': `${ms(median(walkWarm))} / ${ratio(median(walkWarm), rgFiles)}×`,
    'magi files, whole process (ms / × rg --files / × fdfind)': `${ms(magiFiles)} / ${ratio(magiFiles, rgFiles)}× / ${ratio(magiFiles, fdFiles)}×`,
    ...Object.fromEntries(
      (['literal', 'regex', 'rare'] as const).map((kind) => [
        `grep ${kind} ${JSON.stringify(tree[kind])}, in process (ms / × rg -n ${ms(rgGrep[kind] ?? NaN)} ms)`,
        `${ms(median(grepTimes[kind] ?? []))} / ${ratio(median(grepTimes[kind] ?? []), rgGrep[kind] ?? NaN)}×`,
      ]),
    ),
    'magi tool grep rare, whole process, seed caps (≤ 10,000 files) (ms / × rg -n)': `${ms(magiGrep)} / ${ratio(magiGrep, rgGrep.rare ?? NaN)}×`,
    [`find ${JSON.stringify(tree.findQuery)} cold / warm, in process (ms)`]: `${ms(median(findCold))} / ${ms(median(findWarm))}`,
    'node -e 0, whole process (ms)': ms(nodeStart),
  };
}

async function main(): Promise<void> {
  const generated = await generatedTree();
  const cases: TreeCase[] = [
    { name: 'generated', dir: generated.root, rgFlags: [], fdFlags: [], literal: 'helper', regex: 'depth \\* \\d+', rare: generated.rare, rareLines: generated.rareCount, findQuery: 'unit4242 file7' },
    // Walked as its own root. The project's `node_modules/` rule still applies below it (nested
    // node_modules folders are ignored) for the walker, ripgrep and fd alike: the same 9,077 files.
    { name: 'node_modules', dir: path.join(ROOT, 'node_modules'), rgFlags: [], fdFlags: [], literal: 'function', regex: 'export (default )?class \\w+', rare: 'zq_needle_7f3a', findQuery: 'typescript lib.dom' },
  ];
  for (const tree of cases) console.log(JSON.stringify(await benchTree(tree), null, 2));
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
