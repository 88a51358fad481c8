/**
 * The `bash` tool's cost, in process (modules loaded, as the extension host runs it):
 *  - a `bash` call for `true` through dispatch, against a bare `child_process.spawn('/bin/bash',
 *    ['-lc', 'true'])` that waits for 'close' — the difference is the tool's overhead (execa, the
 *    /proc marker sweep after exit, the bounded capture, metadata);
 *  - a call that prints 1 GB (`head -c 1000000000 /dev/zero | tr '\0' a`): wall time and this
 *    process's peak RSS growth, sampled every 10 ms.
 * Every timing is a median. Numbers are reported, never asserted. Run with `npx tsx bench/bash.ts`.
 */
import { spawn } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createDefaultRegistry } from '../src/core/tools';
import { dispatchTool } from '../src/core/tools/dispatch';
import { ToolRuntime } from '../src/core/tools/runtime';
import { median, timed } from './measure';

const RUNS = Number(process.env.MAGI_BENCH_RUNS ?? 50);

function bareSpawn(cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('/bin/bash', ['-lc', 'true'], { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout.resume();
    child.stderr.resume();
    child.once('error', reject);
    child.once('close', () => resolve());
  });
}

async function main(): Promise<void> {
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-bench-bash-'));
  const runtime = await ToolRuntime.create({ root });
  const registry = createDefaultRegistry();
  const call = async (command: string, timeout = 30) => {
    const { result } = await dispatchTool(registry, runtime, 'bash', { command, intent: 'bench', timeout });
    if (result.status !== 'success') throw new Error(`bash failed: ${result.content.slice(-500)}`);
    return result;
  };
  await call('true'); // load execa once
  await bareSpawn(root);

  const compare = async (label: string) => {
    // Interleaved so drift in the machine's load hits both equally.
    const tool: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      tool.push((await timed(() => call('true')))[0]);
      bare.push((await timed(() => bareSpawn(root)))[0]);
    }
    const t = median(tool);
    const b = median(bare);
    console.log(`${label}: tool ${t.toFixed(1)} ms, bare spawn ${b.toFixed(1)} ms, overhead ${(t - b).toFixed(1)} ms (medians of ${RUNS})`);
  };
  await compare(`bash -lc true, HOME=${process.env.HOME ?? ''}`);
  // The login profile can dominate (pyenv init: ~180 ms here); an empty HOME shows the overhead alone.
  const home = process.env.HOME;
  process.env.HOME = root;
  await compare('bash -lc true, empty HOME');
  process.env.HOME = home;

  const before = process.memoryUsage.rss();
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 10);
  const [ms, result] = await timed(() => call("head -c 1000000000 /dev/zero | tr '\\0' a", 300));
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage.rss());
  const mb = (n: number) => (n / 1048576).toFixed(1);
  console.log(`1 GB output: ${(ms / 1000).toFixed(2)} s, bytes_seen ${String(result.metadata.bytes_seen)}, content ${Buffer.byteLength(result.content)} bytes`);
  console.log(`1 GB output: RSS before ${mb(before)} MB, peak ${mb(peak)} MB (growth ${mb(peak - before)} MB)`);
  await fsp.rm(root, { recursive: true, force: true });
}

void main();
