/** Process checks for the bash tests (Linux /proc). */
import { promises as fsp, readdirSync, readFileSync } from 'node:fs';
import { isAlive } from '../../../src/core/process/kill';

/**
 * Every command these tests start inherits this variable, so the marker scans below see only
 * this test process's runs, not those of another test run on the same machine.
 */
const OWNER = `MAGI_BASH_TEST_OWNER=${process.pid}\0`;
process.env.MAGI_BASH_TEST_OWNER = String(process.pid);

/**
 * Whether a pid is still a running process. A killed orphan can linger as a zombie until init
 * reaps it (this container's init reaps lazily); a zombie runs nothing, so it counts as gone.
 */
export function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (err) {
    assert((err as NodeJS.ErrnoException).code === 'ESRCH');
    return false;
  }
  return isAlive(pid);
}

function assert(ok: boolean): void {
  if (!ok) throw new Error('unexpected kill(pid, 0) error');
}

/** Pids (one per line) a test command wrote to `file`. */
export async function pidsIn(file: string): Promise<number[]> {
  const text = await fsp.readFile(file, 'utf8').catch(() => '');
  return text.split('\n').filter((l) => l.trim() !== '').map(Number);
}

/** Waits until `file` lists at least `n` pids. */
export async function waitForPids(file: string, n: number, timeoutMs = 10_000): Promise<number[]> {
  for (const deadline = Date.now() + timeoutMs; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
    const pids = await pidsIn(file);
    if (pids.length >= n) return pids;
  }
  throw new Error(`${file} never listed ${n} pids`);
}

/** Live processes of this test process's bash runs (MAGI_BASH_RUN=… and OWNER in their environment). */
export function markedProcesses(): number[] {
  const out: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const environ = readFileSync(`/proc/${name}/environ`);
      if (environ.includes('MAGI_BASH_RUN=') && environ.includes(OWNER) && isAlive(Number(name))) out.push(Number(name));
    } catch {
      // gone or not ours
    }
  }
  return out;
}
