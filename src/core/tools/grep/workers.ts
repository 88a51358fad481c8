import { locateWorkerScript, WorkerPool, type PooledWorker } from '../../process/workerPool';
import type { FromWorker, ToWorker } from './protocol';

export type GrepWorkerPool = WorkerPool<ToWorker, FromWorker>;
export type GrepWorker = PooledWorker<ToWorker, FromWorker>;

/** grep's matching worker: dist/grepWorker.js next to the bundle, or worker.ts next to this module. */
export function grepWorkerScript(dir: string = __dirname): ReturnType<typeof locateWorkerScript> {
  return locateWorkerScript(dir, 'grepWorker.js');
}

let shared: GrepWorkerPool | null = null;

/** The process-wide pool every grep call uses (the cores are per process, not per workspace). */
export function sharedWorkerPool(): GrepWorkerPool {
  shared ??= new WorkerPool<ToWorker, FromWorker>(grepWorkerScript(), undefined, 'grep worker');
  return shared;
}

/** Terminates the shared pool's workers (extension deactivation, end of tests); a later call starts a new pool. */
export async function disposeSharedWorkerPool(): Promise<void> {
  const pool = shared;
  shared = null;
  await pool?.dispose();
}
