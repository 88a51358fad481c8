import { existsSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Worker } from 'node:worker_threads';

export interface WorkerScript {
  file: string;
  execArgv: string[];
}

/**
 * A worker's script: the bundle (`grepWorker.js`) in `dir` when the caller runs from dist/
 * (dist/extension.js and dist/cli.js find it next to themselves), else the TypeScript source
 * (`worker.ts`) next to the calling module, run through tsx (tests, benchmarks).
 */
export function locateWorkerScript(dir: string, bundle: string, sourceName = 'worker.ts'): WorkerScript {
  const bundled = path.join(dir, bundle);
  if (existsSync(bundled)) return { file: bundled, execArgv: [] };
  const source = path.join(dir, sourceName);
  if (existsSync(source)) {
    // A variable, so that bundlers leave this development-only lookup alone.
    const loader = 'tsx/cjs';
    return { file: source, execArgv: ['--require', require.resolve(loader)] };
  }
  throw new Error(`no worker script (${bundle} or ${sourceName}) in ${dir}`);
}

/** Workers of the shared pool: up to four, never more than the machine's cores. */
export function defaultPoolSize(): number {
  return Math.max(1, Math.min(4, os.availableParallelism()));
}

/** One pooled worker thread taking `In` messages and answering `Out`. Whoever leases it sets the listeners; the pool clears them on release. */
export class PooledWorker<In = unknown, Out = unknown> {
  /** Exited: terminated by the pool, or crashed. */
  dead = false;
  onMessage: ((message: Out) => void) | null = null;
  onExit: ((reason: string) => void) | null = null;

  /** Adds the worker's only 'message' listener; another one added later would ref the worker again (see WorkerPool.spawn). */
  constructor(readonly worker: Worker) {
    worker.on('message', (message: Out) => this.onMessage?.(message));
    worker.on('error', (err) => this.exited(`crashed: ${err.message}`));
    worker.on('exit', (code) => this.exited(`exited with code ${code}`));
  }

  private exited(reason: string): void {
    if (this.dead) return;
    this.dead = true;
    this.onExit?.(reason);
  }

  post(message: In): void {
    this.worker.postMessage(message);
  }
}

/**
 * A small set of persistent workers, leased whole to one call at a time, so that ending
 * a call's workers (deadline, cancellation) never touches another call's. Idle workers are unref'd:
 * they never keep a process alive. A terminated or crashed worker is replaced at once.
 */
export class WorkerPool<In = unknown, Out = unknown> {
  private readonly idle: PooledWorker<In, Out>[] = [];
  private readonly all = new Set<PooledWorker<In, Out>>();
  private readonly waiters: (() => void)[] = [];
  private disposed = false;

  constructor(
    private readonly script: WorkerScript,
    readonly size: number = defaultPoolSize(),
    /** Names the pool in its errors. */
    private readonly name = 'worker',
  ) {}

  /** Workers alive (idle or leased). */
  get live(): number {
    return this.all.size;
  }

  /** Starts every worker now, so that the first call does not pay for start-up. */
  warm(): void {
    while (!this.disposed && this.all.size < this.size) this.idle.push(this.spawn());
  }

  private spawn(): PooledWorker<In, Out> {
    const worker = new Worker(this.script.file, { execArgv: this.script.execArgv, resourceLimits: { maxOldGenerationSizeMb: 512 } });
    const handle = new PooledWorker<In, Out>(worker);
    // Only now, after PooledWorker's listeners: Node refs a worker's message port again when its first
    // 'message' listener is added, so a worker unref'd before that would keep the process alive for
    // as long as it idles — a warmed worker no call leased, or the replacement of a discarded one.
    worker.unref();
    this.all.add(handle);
    // A worker that dies while idle (it should not) leaves the pool; the next lease spawns another.
    worker.on('exit', () => {
      this.all.delete(handle);
      const at = this.idle.indexOf(handle);
      if (at !== -1) this.idle.splice(at, 1);
    });
    return handle;
  }

  /**
   * Leases between 1 and `max` workers: the idle ones, else new ones while the pool has room, else
   * waits for a release. Rejects when `signal` aborts first.
   */
  async acquire(max: number, signal: AbortSignal): Promise<PooledWorker<In, Out>[]> {
    for (;;) {
      if (this.disposed) throw new Error(`${this.name} pool disposed`);
      signal.throwIfAborted();
      const leased = this.tryAcquire(max);
      if (leased.length) return leased;
      await new Promise<void>((resolve, reject) => {
        const onAbort = (): void => {
          const at = this.waiters.indexOf(wake);
          if (at !== -1) this.waiters.splice(at, 1);
          reject(signal.reason);
        };
        const wake = (): void => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
        this.waiters.push(wake);
        signal.addEventListener('abort', onAbort, { once: true });
      });
    }
  }

  /** Leases up to `max` workers that are free right now (idle, or new while the pool has room); never waits. */
  tryAcquire(max: number): PooledWorker<In, Out>[] {
    const leased: PooledWorker<In, Out>[] = [];
    if (this.disposed) return leased;
    while (leased.length < max && this.idle.length) leased.push(this.idle.pop()!);
    while (leased.length < max && this.all.size < this.size) leased.push(this.spawn());
    for (const w of leased) w.worker.ref();
    return leased;
  }

  /** Returns a leased worker; a dead one is replaced. */
  release(handle: PooledWorker<In, Out>): void {
    handle.onMessage = null;
    handle.onExit = null;
    if (handle.dead || this.disposed) {
      this.all.delete(handle);
    } else {
      handle.worker.unref();
      this.idle.push(handle);
    }
    if (!this.disposed && this.all.size < this.size) this.idle.push(this.spawn());
    this.waiters.shift()?.();
  }

  /** Terminates a leased worker (a runaway regex, a cancelled call) and puts a fresh one in its place. */
  discard(handle: PooledWorker<In, Out>): void {
    handle.dead = true;
    void handle.worker.terminate();
    this.release(handle);
  }

  /** Terminates every worker; the pool cannot be used afterwards. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const all = [...this.all];
    this.all.clear();
    this.idle.length = 0;
    for (const wake of this.waiters.splice(0)) wake();
    await Promise.all(all.map((h) => h.worker.terminate()));
  }
}
