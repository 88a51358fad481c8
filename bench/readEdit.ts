/**
 * Measures the tools the skeleton issue names, in one run:
 *  - in-process: `read` of a 1 MiB file, and one `hash_edit` call of 100 ops on a 10,000-line file,
 *    with a fresh tag and with a stale one (recovered by the line diff);
 *  - whole process, as a ratio: `magi tools` (read + the 100-op hash_edit) against `git apply` of
 *    the same 100 hunks as a unified diff on the same file;
 *  - the size of the bundled extension and CLI.
 * Run with `npm run bench` after `npm run build`. Numbers are reported, never asserted.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { promises as fsp, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createTwoFilesPatch } from 'diff';
import { createDefaultRegistry } from '../src/core/tools';
import { dispatchTool } from '../src/core/tools/dispatch';
import { ToolRuntime } from '../src/core/tools/runtime';
import { contentTag } from '../src/core/tools/textDoc';
import { median, timed } from './measure';

const ROOT = path.resolve(__dirname, '..');
const RUNS = 15;
/** read shows at most 2,000 lines per section: five sections make all 10,000 lines visible. */
const ALL_OF_BIG = ['big.ts:1-2000', 'big.ts:2001-4000', 'big.ts:4001-6000', 'big.ts:6001-8000', 'big.ts:8001-10000'];

async function timeIt(runs: number, work: () => Promise<void>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push((await timed(work))[0]);
  return median(times);
}

/** 100 non-overlapping SWAP ops spread over a 10,000-line file, and the file they produce. */
function editScript(lines: string[], tag: string): { input: string; expected: string } {
  const out = [...lines];
  const ops: string[] = [];
  for (let k = 0; k < 100; k++) {
    const n = k * 100 + 50;
    ops.push(`SWAP ${n}.=${n + 1}:`, `+edited ${n} a`, `+edited ${n} b`, `+edited ${n} c`);
    out.splice(n - 1 + k, 2, `edited ${n} a`, `edited ${n} b`, `edited ${n} c`);
  }
  return { input: `[big.ts#${tag}]\n${ops.join('\n')}`, expected: out.join('\n') + '\n' };
}

async function main(): Promise<void> {
  const dir = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-bench-')));
  try {
    const registry = createDefaultRegistry();
    const runtime = await ToolRuntime.create({ root: dir });
    const run = async (tool: string, args: unknown) => (await dispatchTool(registry, runtime, tool, args)).result;

    const mibLine = 'const value = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789";\n';
    const mib = mibLine.repeat(Math.floor((1024 * 1024) / mibLine.length));
    await fsp.writeFile(path.join(dir, 'mib.ts'), mib);
    const readMs = await timeIt(RUNS, async () => {
      const r = await run('read', { paths: ['mib.ts:1+'] });
      if (r.status !== 'success') throw new Error(r.content);
    });

    const lines = Array.from({ length: 10000 }, (_, i) => `export const v${i + 1} = ${i + 1};`);
    const original = lines.join('\n') + '\n';
    const editTimes: number[] = [];
    let expected = '';
    for (let i = 0; i < RUNS; i++) {
      await fsp.writeFile(path.join(dir, 'big.ts'), original);
      const read = await run('read', { paths: ALL_OF_BIG });
      const tag = /#([0-9A-F]+)\]/.exec(read.content)?.[1] ?? '';
      const script = editScript(lines, tag);
      expected = script.expected;
      const start = performance.now();
      const edit = await run('hash_edit', { input: script.input });
      editTimes.push(performance.now() - start);
      if (edit.status !== 'success') throw new Error(edit.content);
    }
    if ((await fsp.readFile(path.join(dir, 'big.ts'), 'utf8')) !== expected) throw new Error('hash_edit produced an unexpected file');

    // The same edit with a stale tag: another process prepended two lines after the read, so
    // recovery maps the tagged version onto the file by a line diff before applying.
    const staleTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await fsp.writeFile(path.join(dir, 'big.ts'), original);
      const read = await run('read', { paths: ALL_OF_BIG });
      const tag = /#([0-9A-F]+)\]/.exec(read.content)?.[1] ?? '';
      await fsp.writeFile(path.join(dir, 'big.ts'), `// one\n// two\n${original}`);
      const start = performance.now();
      const edit = await run('hash_edit', { input: editScript(lines, tag).input });
      staleTimes.push(performance.now() - start);
      if (edit.status !== 'success') throw new Error(edit.content);
    }
    if ((await fsp.readFile(path.join(dir, 'big.ts'), 'utf8')) !== `// one\n// two\n${expected}`) throw new Error('stale hash_edit produced an unexpected file');

    // Whole process: magi tools (read + hash_edit) against git apply of the same 100 hunks.
    const cli = path.join(ROOT, 'dist', 'cli.js');
    const patch = createTwoFilesPatch('a/big.ts', 'b/big.ts', original, expected, '', '', { context: 3 });
    await fsp.writeFile(path.join(dir, 'edit.patch'), patch);
    const magiTimes: number[] = [];
    const gitTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      await fsp.writeFile(path.join(dir, 'big.ts'), original);
      const requests = [{ tool: 'read', args: { paths: ALL_OF_BIG } }, { tool: 'hash_edit', args: { input: editScript(lines, contentTag(original)).input } }];
      let start = performance.now();
      const both = spawnSync('node', [cli, 'tools', '--cwd', dir], { input: requests.map((r) => JSON.stringify(r)).join('\n') + '\n', encoding: 'utf8' });
      magiTimes.push(performance.now() - start);
      if (!both.stdout.includes('"status":"success"', both.stdout.indexOf('\n'))) throw new Error(`magi tools failed: ${both.stdout.slice(0, 500)}`);

      await fsp.writeFile(path.join(dir, 'big.ts'), original);
      start = performance.now();
      execFileSync('git', ['apply', '--unsafe-paths', '-p1', `--directory=`, 'edit.patch'], { cwd: dir });
      gitTimes.push(performance.now() - start);
    }
    if ((await fsp.readFile(path.join(dir, 'big.ts'), 'utf8')) !== expected) throw new Error('git apply produced an unexpected file');

    const size = (file: string) => statSync(path.join(ROOT, 'dist', file)).size;
    const report = {
      'read 1 MiB file, in-process (ms, median)': +readMs.toFixed(2),
      'hash_edit 100 ops on 10,000 lines, in-process (ms, median)': +median(editTimes).toFixed(2),
      'hash_edit 100 ops on 10,000 lines, stale tag (2 lines prepended), in-process (ms, median)': +median(staleTimes).toFixed(2),
      'magi tools read+hash_edit, whole process (ms, median)': +median(magiTimes).toFixed(1),
      'git apply of the same 100 hunks, whole process (ms, median)': +median(gitTimes).toFixed(1),
      'ratio magi/git apply': +(median(magiTimes) / median(gitTimes)).toFixed(2),
      'dist/extension.js (bytes)': size('extension.js'),
      'dist/cli.js (bytes)': size('cli.js'),
    };
    console.log(JSON.stringify(report, null, 2));
  } finally {
    await fsp.rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
