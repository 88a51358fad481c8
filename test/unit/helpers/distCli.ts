/**
 * The built `magi` (dist/cli.js, as a script or CI job runs it) as a child process, timed: when it
 * printed its result line, when it exited, and how long after a signal. For the tests that prove
 * a call never leaves the process running (issue 16).
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { isAlive } from '../../../src/core/process/kill';

const ROOT = path.resolve(__dirname, '..', '..', '..');
export const DIST_CLI = path.join(ROOT, 'dist', 'cli.js');

/** Printed by the CLI's interrupt guard when something still held the process after a signal. */
export const GUARD_MESSAGE = /still running .* after SIG/;

/** Marks every process a run starts (Chromium included, which inherits magi's environment), so a leftover can be found. */
const MARKER = 'MAGI_EXIT_TEST_RUN';
let runs = 0;
const live = new Set<ChildProcessWithoutNullStreams>();

export interface DistRun {
  /** Milliseconds from spawn to the end of the first stdout line (the result), or null if none came. */
  printedAt: number | null;
  exitedAt: number;
  code: number | null;
  signal: NodeJS.Signals | null;
  /** When the test's signal was sent (ms from spawn), and whether the process was still there to get it. */
  signalledAt: number | null;
  delivered: boolean;
  stdout: string;
  stderr: string;
  /** The parsed `--json` line, when one was printed. */
  result: { status: string; content: string; metadata: Record<string, unknown> } | null;
  /** The marker value of this run, for leftoverProcesses(). */
  marker: string;
}

export interface DistRunOptions {
  /** Sends `signal` this many ms after spawn, or `'printed'` plus `afterPrintMs` once the result line is out. */
  signalAt?: number | 'printed';
  afterPrintMs?: number;
  signal?: 'SIGTERM' | 'SIGINT';
  /** The run is SIGKILLed (and reported as hung) after this long; default 20 s. */
  capMs?: number;
}

export function assertBuilt(): void {
  assert.ok(existsSync(DIST_CLI), `${DIST_CLI} is missing: run npm run build first (npm test does)`);
}

/** Runs `node dist/cli.js tool TOOL JSON --cwd DIR --json`; never rejects on a hang (it kills at capMs and says so in `signal`). */
export function runDistTool(tool: string, args: object, cwd: string, options: DistRunOptions = {}): Promise<DistRun> {
  const marker = `${process.pid}-${++runs}`;
  const child = spawn(process.execPath, [DIST_CLI, 'tool', tool, JSON.stringify(args), '--cwd', cwd, '--json'], { env: { ...process.env, [MARKER]: marker } });
  live.add(child);
  const started = Date.now();
  let printedAt: number | null = null;
  let signalledAt: number | null = null;
  let delivered = false;
  let stdout = '';
  let stderr = '';
  const send = (): void => {
    signalledAt = Date.now() - started;
    delivered = child.exitCode === null && child.signalCode === null && child.kill(options.signal ?? 'SIGTERM');
  };
  let timer: NodeJS.Timeout | undefined;
  if (typeof options.signalAt === 'number') timer = setTimeout(send, options.signalAt);
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    if (printedAt === null && stdout.includes('\n')) {
      printedAt = Date.now() - started;
      if (options.signalAt === 'printed') timer = setTimeout(send, options.afterPrintMs ?? 0);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdin.end();
  const cap = setTimeout(() => child.kill('SIGKILL'), options.capMs ?? 20_000);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      const exitedAt = Date.now() - started;
      clearTimeout(cap);
      clearTimeout(timer);
      live.delete(child);
      let result: DistRun['result'] = null;
      const line = stdout.split('\n')[0] ?? '';
      if (line !== '') result = JSON.parse(line) as DistRun['result'];
      resolve({ printedAt, exitedAt, code, signal, signalledAt, delivered, stdout, stderr, result, marker });
    });
  });
}

/** A compact account of a run for assertion messages. */
export function describeRun(run: DistRun): string {
  return `printed at ${run.printedAt ?? '-'} ms, exited at ${run.exitedAt} ms (code ${run.code}, signal ${run.signal})${run.signalledAt !== null ? `, signalled at ${run.signalledAt} ms` : ''}; stderr ${JSON.stringify(run.stderr.slice(0, 300))}; result ${JSON.stringify(run.result?.content.slice(0, 120) ?? null)}`;
}

/** The run printed one result line and exited on its own (code 0) within `withinMs` of printing it. */
export function assertExitedAfterPrinting(run: DistRun, withinMs = 1_000): void {
  assert.notEqual(run.signal, 'SIGKILL', `hung: killed at the cap; ${describeRun(run)}`);
  assert.ok(run.printedAt !== null, `printed nothing; ${describeRun(run)}`);
  assert.equal(run.code, 0, describeRun(run));
  assert.ok(run.exitedAt - run.printedAt <= withinMs, `exited ${run.exitedAt - run.printedAt} ms after printing; ${describeRun(run)}`);
}

/**
 * The run ended within `withinMs` of the signal (or exited 0 before it was due), by itself: not killed at the
 * cap, and not by the CLI's interrupt guard, which would mean something still held the process.
 */
export function assertEndedAfterSignal(run: DistRun, withinMs = 2_000): void {
  assert.notEqual(run.signal, 'SIGKILL', `hung: killed at the cap; ${describeRun(run)}`);
  assert.doesNotMatch(run.stderr, GUARD_MESSAGE, `only the interrupt guard ended it; ${describeRun(run)}`);
  if (run.signalledAt === null) {
    // It ended before the signal was due, which is what was wanted of it.
    assert.equal(run.code, 0, describeRun(run));
    return;
  }
  assert.ok(run.exitedAt - run.signalledAt <= withinMs, `exited ${run.exitedAt - run.signalledAt} ms after the signal; ${describeRun(run)}`);
}

/** Live processes a run started (or, without `marker`, any run of this test process) that outlived it — Chromium, say; a zombie counts as gone. */
export function leftoverProcesses(marker?: string): number[] {
  const needle = marker === undefined ? `${MARKER}=${process.pid}-` : `${MARKER}=${marker}\0`;
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`).includes(needle) && isAlive(Number(name))) found.push(Number(name));
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

/** For an after-hook: SIGKILLs every run still alive and whatever its runs left behind, so a failed test leaves nothing running. */
export function killEverything(): void {
  for (const child of live) child.kill('SIGKILL');
  live.clear();
  for (const pid of leftoverProcesses()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** A uniformly random integer in [from, to). */
export function randomBetween(from: number, to: number): number {
  return from + Math.floor(Math.random() * (to - from));
}
