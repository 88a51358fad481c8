import { locateWorkerScript, WorkerPool, type PooledWorker } from '../../process/workerPool';
import type { WorkBatch, WorkReply } from './protocol';

export type ParsePool = WorkerPool<WorkBatch, WorkReply>;
export type ParseWorker = PooledWorker<WorkBatch, WorkReply>;

let shared: ParsePool | null = null;

/**
 * The process-wide pool of parse workers (up to four, never more than the cores): dist/astGrepWorker.js
 * next to the bundle, or worker.ts next to this module under tsx.
 */
export function sharedParsePool(): ParsePool {
  shared ??= new WorkerPool<WorkBatch, WorkReply>(locateWorkerScript(__dirname, 'astGrepWorker.js'), undefined, 'ast_grep parse worker');
  return shared;
}

/** Terminates the shared pool's workers (extension deactivation, end of tests). */
export async function disposeSharedParsePool(): Promise<void> {
  const pool = shared;
  shared = null;
  await pool?.dispose();
}
