/**
 * The parse worker's entry point (bundled as dist/astGrepWorker.js): parses the files of each
 * batch and matches or outlines them. The main thread terminates it at a call's deadline or on
 * cancellation, so a slow parse never holds the call past either.
 */
import { parentPort } from 'node:worker_threads';
import type { WorkBatch, WorkReply } from './protocol';
import { FileWorker } from './work';

const port = parentPort;
if (port === null) throw new Error('ast_grep worker: not started as a worker thread');

/** The current call's worker, kept while its batches keep coming (its compiled patterns with it). */
let current: { key: string; worker: FileWorker } | undefined;

port.on('message', (batch: WorkBatch) => {
  let reply: WorkReply;
  try {
    const key = JSON.stringify(batch.job);
    if (current?.key !== key) current = { key, worker: new FileWorker(batch.job) };
    const { worker } = current;
    reply = { id: batch.id, results: batch.files.map((file) => worker.run(file)) };
  } catch (err) {
    reply = { id: batch.id, error: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(reply);
});
