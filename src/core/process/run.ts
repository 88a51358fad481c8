/**
 * Runs one shell command as a child that never outlives the call: execa spawns it with stdin
 * closed and no buffering, output goes through a BoundedCapture as it streams, and on timeout,
 * cancellation or a normal exit the run's whole process tree is killed (see kill.ts).
 */
import { randomBytes } from 'node:crypto';
import { BoundedCapture, type CapturedText } from './capture';
import { killRun, MARKER_ENV, type CleanupReport } from './kill';
import { within } from '../waits';

// execa ships only as an ES module. require() of it works in plain Node ≥ 20.19 but not under the
// tsx hooks the tests run with (its own ESM dependencies resolve with require conditions), so it
// is loaded with import(), once; esbuild bundles it either way.
let execaModule: Promise<typeof import('execa', { with: { 'resolution-mode': 'import' } })> | undefined;
const loadExeca = () => (execaModule ??= import('execa'));

export interface RunOptions {
  command: string;
  cwd: string;
  /** The complete environment (credentials already stripped); the run's marker is added. */
  env: Record<string, string>;
  timeoutMs: number;
  signal: AbortSignal;
  /** Bytes kept from the start and from the end of the output. */
  headBytes: number;
  tailBytes: number;
  /** SIGTERM's grace before SIGKILL; default 300 ms. */
  graceMs?: number;
  platform?: NodeJS.Platform;
}

export interface RunOutcome {
  /** Null when a signal ended the shell or it never started. */
  exitCode: number | null;
  signal: string | null;
  durationMs: number;
  output: CapturedText;
  timedOut: boolean;
  cancelled: boolean;
  /** What the kill after a timeout or cancellation did, or the sweep after a normal exit. */
  cleanup: CleanupReport;
  /** Processes still running after a normal exit (`sleep 100 &`) that were killed. */
  backgroundKilled: number;
  /** Set when the shell could not be started. */
  spawnError?: string;
}

/** The shell and its arguments: `/bin/bash -lc` on Unix-like hosts, PowerShell on Windows. */
export function shellInvocation(command: string, platform: NodeJS.Platform = process.platform): [string, string[]] {
  if (platform === 'win32') return ['powershell.exe', ['-NoProfile', '-NonInteractive', '-Command', command]];
  return ['/bin/bash', ['-lc', command]];
}

/** Never throws; a shell that cannot start is reported in `spawnError`. */
export async function runCommand(options: RunOptions): Promise<RunOutcome> {
  const start = performance.now();
  const id = randomBytes(8).toString('hex');
  const [file, args] = shellInvocation(options.command, options.platform);
  const capture = new BoundedCapture(options.headBytes, options.tailBytes);
  const kill = { graceMs: options.graceMs, platform: options.platform };

  const { execa } = await loadExeca();
  const child = execa(file, args, {
    cwd: options.cwd,
    env: { ...options.env, [MARKER_ENV]: id },
    extendEnv: false,
    stdin: 'ignore',
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    reject: false,
    cleanup: true,
    windowsHide: true,
  });
  // execa's own promise resolves once the streams end; it never rejects with reject: false, but
  // it must be observed so a late failure is not an unhandled rejection.
  const settled = Promise.resolve(child).then(() => undefined, () => undefined);
  const push = (chunk: Buffer | string) => capture.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  child.stdout?.on('data', push);
  child.stderr?.on('data', push);

  let spawnError: string | undefined;
  const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (err) => {
      spawnError = err.message;
      resolve({ code: null, signal: null });
    });
  });

  let onAbort: (() => void) | undefined;
  let timer: NodeJS.Timeout | undefined;
  const stopped = new Promise<'timeout' | 'cancel'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), options.timeoutMs);
    onAbort = () => resolve('cancel');
    if (options.signal.aborted) onAbort();
    else options.signal.addEventListener('abort', onAbort, { once: true });
  });

  const first = await Promise.race([exited.then(() => 'exit' as const), stopped]);
  clearTimeout(timer);
  if (onAbort) options.signal.removeEventListener('abort', onAbort);

  let cleanup: CleanupReport;
  let backgroundKilled = 0;
  if (first === 'exit') {
    // The shell is gone (its pid may be reaped and reused): sweep by marker only.
    cleanup = await killRun(id, undefined, kill);
    backgroundKilled = cleanup.killed;
  } else {
    cleanup = await killRun(id, child.pid, kill);
  }
  const exit = await within(exited, 2000, { code: null, signal: null });
  // A survivor may still hold the pipes open; stop reading rather than wait for it.
  const drained = Promise.all([child.stdout, child.stderr].map((s) => (s && !s.closed ? new Promise((r) => s.once('close', r)) : undefined)));
  if (!(await within(drained.then(() => true), 1000, false))) {
    child.stdout?.destroy();
    child.stderr?.destroy();
  }
  await within(settled, 500, undefined);

  return {
    exitCode: exit.code,
    signal: exit.signal,
    durationMs: Math.round(performance.now() - start),
    output: capture.result(),
    timedOut: first === 'timeout',
    cancelled: first === 'cancel',
    cleanup,
    backgroundKilled,
    ...(spawnError !== undefined ? { spawnError } : {}),
  };
}
