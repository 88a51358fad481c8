/**
 * `repo_map` on real trees found on this machine (never generated): this repository (TypeScript),
 * CPython's standard library (Python, about 1,800 files) and the Google Cloud SDK's Python library
 * (over the 2,000-file limit), whichever exist, or the folders given as arguments. For each: the
 * whole call cold (a fresh runtime: the walk's listing cache and the outlines of a previous call are
 * empty) and warm (the same runtime again, nothing changed: no file is parsed again), one cold call
 * split into its phases — walk + read + parse + outline, reference counting, ranking, rendering —
 * and files per second of the whole call. The machine has no large
 * Rust or Go tree, so those grammars are measured only through the unit tests' fixtures.
 * Every figure is a median. Numbers are reported, never asserted. Run with `npx tsx bench/repoMap.ts [folder …]`.
 */
import { existsSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import * as path from 'node:path';
import { Checkpoint } from '../src/core/tools/astGrep/targets';
import type { ToolContext } from '../src/core/tools/definition';
import { repoMapTool } from '../src/core/tools/repoMap';
import { collectSources, DEFAULT_COLLECT_LIMITS } from '../src/core/tools/repoMap/collect';
import * as L from '../src/core/tools/repoMap/limits';
import { rankFiles } from '../src/core/tools/repoMap/rank';
import { countReferences, definersOf } from '../src/core/tools/repoMap/references';
import { renderMap } from '../src/core/tools/repoMap/render';
import { ToolRuntime } from '../src/core/tools/runtime';
import { median, timed } from './measure';

const RUNS = Number(process.env.MAGI_BENCH_RUNS ?? 5);
const DEFAULT_TREES = [path.resolve(__dirname, '..'), '/root/.pyenv/versions/3.11.7/lib/python3.11', '/usr/lib/python3.11', '/usr/lib/google-cloud-sdk/lib'];

const contextOf = (runtime: ToolRuntime): ToolContext => ({ runtime, signal: new AbortController().signal, replay: false });

async function repoMap(runtime: ToolRuntime, args: Record<string, unknown>) {
  const result = await repoMapTool.execute(repoMapTool.input.parse(args), contextOf(runtime));
  if (result.status !== 'success') throw new Error(`repo_map: ${result.content.slice(0, 300)}`);
  return result;
}

/** One cold call's phases, the tool's own steps run one by one on a fresh runtime. */
async function phases(root: string): Promise<Record<string, number>> {
  const ctx = contextOf(await ToolRuntime.create({ root }));
  const deadline = Date.now() + L.DEADLINE_MS;
  const t0 = performance.now();
  const collection = await collectSources(undefined, [], { ...DEFAULT_COLLECT_LIMITS, deadline }, ctx);
  const t1 = performance.now();
  const checkpoint = new Checkpoint(ctx.signal, deadline);
  const refs = countReferences(collection.files, definersOf(collection.files), L.MAX_REFERENCE_TOKENS, () => !checkpoint.expired());
  const t2 = performance.now();
  const ranked = rankFiles(collection.files, refs, [], Date.now());
  const t3 = performance.now();
  renderMap(ranked, L.DEFAULT_TOKENS, []);
  const t4 = performance.now();
  return { collect: t1 - t0, references: t2 - t1, rank: t3 - t2, render: t4 - t3, tokens: refs.tokensScanned };
}

async function main(): Promise<void> {
  const trees = (process.argv.length > 2 ? process.argv.slice(2) : DEFAULT_TREES).filter((dir) => existsSync(dir));
  const ms = (v: number) => +v.toFixed(1);
  for (const root of trees) {
    // Load and JIT everything once, as a running extension host would have.
    await repoMap(await ToolRuntime.create({ root }), { maxTokens: 1024 });
    const cold: number[] = [];
    const warm: number[] = [];
    const parts: Record<string, number>[] = [];
    let last: Awaited<ReturnType<typeof repoMap>> | undefined;
    for (let i = 0; i < RUNS; i++) {
      const runtime = await ToolRuntime.create({ root });
      cold.push((await timed(() => repoMap(runtime, {})))[0]);
      const [warmMs, result] = await timed(() => repoMap(runtime, {}));
      warm.push(warmMs);
      last = result;
      parts.push(await phases(root));
    }
    const meta = last?.metadata ?? {};
    const phase = (key: string) => ms(median(parts.map((p) => p[key] as number)));
    console.log(JSON.stringify({
      tree: root,
      files_scanned: meta.files_scanned,
      symbols: meta.symbols,
      reference_tokens: phase('tokens'),
      skip_reasons: meta.skip_reasons,
      partial: meta.partial,
      tokens_estimated: meta.tokens_estimated,
      'cold (ms)': ms(median(cold)),
      'warm (ms)': ms(median(warm)),
      'files/s (cold)': Math.round(((meta.files_scanned as number) * 1000) / median(cold)),
      'files/s (warm)': Math.round(((meta.files_scanned as number) * 1000) / median(warm)),
      'cold collect: walk+read+parse+outline (ms)': phase('collect'),
      'cold references (ms)': phase('references'),
      'cold rank (ms)': phase('rank'),
      'cold render (ms)': phase('render'),
    }));
  }
  process.exit(0);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
