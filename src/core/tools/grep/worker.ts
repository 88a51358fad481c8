/**
 * The matching worker's entry point (bundled as dist/grepWorker.js). It holds one call's
 * configuration at a time and answers each batch with its results; the engine terminates it when
 * a call's deadline passes or the call is cancelled, so a runaway regex never blocks the host.
 */
import { parentPort } from 'node:worker_threads';
import { BatchSearcher } from './batch';
import type { FromWorker, ToWorker } from './protocol';

const port = parentPort;
if (port === null) throw new Error('grep worker: not started as a worker thread');

let searcher: BatchSearcher | Error = new Error('batch before config');

port.on('message', (message: ToWorker) => {
  if (message.type === 'config') {
    try {
      searcher = new BatchSearcher(message.config);
    } catch (err) {
      // Reported with each batch of the call, so the worker stays usable for the next one.
      searcher = err instanceof Error ? err : new Error(String(err));
    }
    return;
  }
  let reply: FromWorker;
  try {
    if (searcher instanceof Error) throw searcher;
    reply = searcher.run(message.id, message.base, message.files);
  } catch (err) {
    reply = { type: 'error', id: message.id, message: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(reply);
});
