/**
 * Killing a command's whole process tree and checking that nothing is left.
 *
 * On Linux every process a run starts carries a marker in its environment (`MAGI_BASH_RUN=<id>`),
 * which children inherit through fork and exec — also after `setsid`, `nohup`, a double fork or
 * reparenting to init, where the parent chain is lost. A kill signals the marked processes plus the
 * root's descendants by parent pid (which catches a child that cleared its environment while its
 * parent lives), SIGTERM first, then SIGKILL after a short grace, and scans again until a scan
 * finds nothing or the rounds run out; what is still there is reported as survivors.
 * Elsewhere there is no /proc: the tree is killed with tree-kill from the root pid (SIGTERM, then
 * SIGKILL), which cannot see processes that left the tree, and nothing is verified.
 */
import { readdirSync, readFileSync } from 'node:fs';
import treeKill from 'tree-kill';

export const MARKER_ENV = 'MAGI_BASH_RUN';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Errors of a /proc read that mean "that process is gone or not ours", never "scan failed". */
const GONE = new Set(['ENOENT', 'ESRCH', 'EACCES', 'EPERM']);
function isGone(err: unknown): boolean {
  return GONE.has((err as NodeJS.ErrnoException | undefined)?.code ?? '');
}

export interface CleanupReport {
  /** Distinct processes that were alive and got a signal. */
  killed: number;
  /** Marked processes still alive after every round (Linux only). */
  survivors: number[];
  /** Whether the /proc scan verified the outcome. */
  verified: boolean;
}

/**
 * Pids whose environment carries `MAGI_BASH_RUN=<id>`. Only environ is read (a /proc read costs
 * tens of µs in some sandboxes); a zombie's environ is empty, so zombies never match.
 */
function markedPids(id: string): number[] {
  const needle = Buffer.from(`${MARKER_ENV}=${id}\0`);
  let names: string[];
  try {
    names = readdirSync('/proc');
  } catch (err) {
    // No /proc at all: the caller's tree walk is all there is. Any other failure is not "none left".
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const out: number[] = [];
  for (const name of names) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`).includes(needle)) out.push(Number(name));
    } catch (err) {
      // Exited while we looked, or another user's: it cannot carry our marker.
      if (!isGone(err)) throw err;
    }
  }
  return out;
}

/** `root` and its descendants, through each thread's /proc children list. */
function treePids(root: number): number[] {
  const found = new Set<number>();
  const queue = [root];
  for (let pid = queue.shift(); pid !== undefined; pid = queue.shift()) {
    if (found.has(pid)) continue;
    found.add(pid);
    let tasks: string[];
    try {
      tasks = readdirSync(`/proc/${pid}/task`);
    } catch (err) {
      if (isGone(err)) continue;
      throw err;
    }
    for (const task of tasks) {
      try {
        for (const child of readFileSync(`/proc/${pid}/task/${task}/children`, 'latin1').split(' ')) if (child.trim() !== '') queue.push(Number(child));
      } catch (err) {
        // Gone, or a kernel without children lists: the marker still finds them.
        if (!isGone(err)) throw err;
      }
    }
  }
  return [...found];
}

/** Live marked processes, plus `root` and its live descendants by parent. */
export function findRunProcesses(id: string, root?: number): number[] {
  const found = new Set(markedPids(id));
  if (root !== undefined) for (const pid of treePids(root)) if (isAlive(pid)) found.add(pid);
  return [...found];
}

/** True when the process exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch (err) {
    // Without /proc (not Linux) kill(0) above is the only evidence; on Linux a missing entry means gone.
    if (!isGone(err)) throw err;
    return process.platform !== 'linux';
  }
}

function signal(pid: number, sig: NodeJS.Signals): boolean {
  try {
    process.kill(pid, sig);
    return true;
  } catch (err) {
    // Already gone (ESRCH) or not ours (EPERM): nothing to signal.
    if (isGone(err)) return false;
    throw err;
  }
}

export interface KillOptions {
  /** How long SIGTERM gets before SIGKILL; default 300 ms. */
  graceMs?: number;
  /** SIGKILL rounds before giving up; default 10. */
  rounds?: number;
  platform?: NodeJS.Platform;
}

/**
 * Kills every process of run `id` (and the tree under `root`, if given). Never throws. `root` must
 * be a pid not yet reaped — after the root exited normally, pass only the id.
 */
export async function killRun(id: string, root: number | undefined, options: KillOptions = {}): Promise<CleanupReport> {
  const grace = options.graceMs ?? 300;
  if ((options.platform ?? process.platform) !== 'linux') return killWithTreeKill(root, grace);

  const killed = new Set<number>();
  const first = findRunProcesses(id, root);
  if (first.length === 0) return { killed: 0, survivors: [], verified: true };
  for (const pid of first) if (signal(pid, 'SIGTERM')) killed.add(pid);
  for (const deadline = Date.now() + grace; Date.now() < deadline;) {
    await sleep(10);
    if (first.every((pid) => !isAlive(pid))) break;
  }
  const rounds = options.rounds ?? 10;
  for (let round = 0; round < rounds; round++) {
    const left = findRunProcesses(id, root);
    if (left.length === 0) return { killed: killed.size, survivors: [], verified: true };
    for (const pid of left) if (signal(pid, 'SIGKILL')) killed.add(pid);
    await sleep(5 * (round + 1));
  }
  return { killed: killed.size, survivors: findRunProcesses(id, root), verified: true };
}

async function killWithTreeKill(root: number | undefined, grace: number): Promise<CleanupReport> {
  if (root === undefined || !isAlive(root)) return { killed: 0, survivors: [], verified: false };
  const kill = (sig: NodeJS.Signals) => new Promise<void>((resolve) => treeKill(root, sig, () => resolve()));
  await kill('SIGTERM');
  for (const deadline = Date.now() + grace; Date.now() < deadline && isAlive(root);) await sleep(10);
  if (isAlive(root)) await kill('SIGKILL');
  return { killed: 1, survivors: [], verified: false };
}

/** "killed 3 processes" / "none left" / "2 survivors: 123, 456". */
export function describeCleanup(report: CleanupReport): string {
  const parts: string[] = [];
  if (report.killed > 0) parts.push(`killed ${report.killed} process${report.killed === 1 ? '' : 'es'}`);
  if (report.survivors.length > 0) parts.push(`${report.survivors.length} still running: ${report.survivors.join(', ')}`);
  else parts.push(report.verified ? 'none left' : 'not verified (no /proc)');
  return parts.join('; ');
}
