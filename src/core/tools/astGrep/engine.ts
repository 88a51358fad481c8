import type { FileWork, Job, WorkBatch, WorkFile, WorkReply } from './protocol';
import type { Checkpoint, TargetFile } from './targets';
import { sharedParsePool, type ParsePool, type ParseWorker } from './workers';

/** A batch closes at this many files or this much text, whichever comes first. */
const BATCH_FILES = 8;
const BATCH_CHARS = 256 * 1024;
/** Batches in flight per worker: one being parsed, one waiting, so a worker never idles. */
const IN_FLIGHT_PER_WORKER = 2;

export interface WorkOptions {
  /** The text of a file to parse, or undefined to leave it out (prepare records why). Runs on the main thread, in file order. */
  prepare: (file: TargetFile) => string | undefined;
  checkpoint: Checkpoint;
  job: Job;
  pool?: ParsePool;
}

/** Whether the shared deadline stopped the work; set by workInOrder. */
export interface WorkProgress {
  deadlineHit: boolean;
}

export interface FileResult {
  file: TargetFile;
  work: FileWork;
}

interface Batch {
  files: TargetFile[];
  work: WorkFile[];
  chars: number;
  results?: FileWork[];
  error?: string;
}

/**
 * The files `prepare` admits, parsed and matched (or outlined) by the parse workers, yielded in
 * the given order. The main thread prepares files (reads and checks them) and hands them out in
 * batches; every leased worker has up to two batches posted, so it never waits for the next. At
 * the deadline or on cancellation the busy workers are terminated (and replaced), so no parse
 * outlives the call; a caller that stops early (it has enough) lets them finish what they hold.
 * A passed deadline ends the files with progress.deadlineHit, every file before the cut yielded;
 * cancellation throws.
 */
export async function* workInOrder(files: readonly TargetFile[], options: WorkOptions, progress: WorkProgress): AsyncGenerator<FileResult> {
  const { prepare, checkpoint, job } = options;
  const pool = options.pool ?? sharedParsePool();
  const signal = checkpoint.signal;
  const leased = await pool.acquire(pool.size, signal);
  /** Each leased worker's batches in flight, by message id; a worker answers its batches in order. */
  const inFlight = new Map<ParseWorker, Map<number, Batch>>();
  const queue: Batch[] = [];
  let next = 0;
  let nextId = 0;
  let wake: (() => void) | undefined;
  let atYield = false;

  for (const worker of leased) {
    const batches = new Map<number, Batch>();
    inFlight.set(worker, batches);
    worker.onMessage = (reply: WorkReply) => {
      const batch = batches.get(reply.id);
      if (batch === undefined) return;
      batches.delete(reply.id);
      if ('error' in reply) batch.error = reply.error;
      else batch.results = reply.results;
      wake?.();
    };
    worker.onExit = (reason) => {
      for (const batch of batches.values()) batch.error = `a parse worker ${reason}`;
      batches.clear();
      inFlight.delete(worker);
      pool.release(worker);
      wake?.();
    };
  }

  /** The live worker with the fewest batches, if it has room for another. */
  const freeWorker = (): ParseWorker | undefined => {
    let best: ParseWorker | undefined;
    for (const [worker, batches] of inFlight) {
      if (batches.size < IN_FLIGHT_PER_WORKER && (best === undefined || batches.size < (inFlight.get(best)?.size ?? 0))) best = worker;
    }
    return best;
  };
  /** Reads and checks files into the next batch; undefined when no file is left or the deadline passed. */
  const fill = (): Batch | undefined => {
    const batch: Batch = { files: [], work: [], chars: 0 };
    while (next < files.length && batch.files.length < BATCH_FILES && batch.chars < BATCH_CHARS) {
      if (checkpoint.expired()) {
        progress.deadlineHit = true;
        break;
      }
      const file = files[next++] as TargetFile;
      const text = prepare(file);
      if (text === undefined) continue;
      batch.files.push(file);
      batch.work.push({ display: file.display, language: file.language, text });
      batch.chars += text.length;
    }
    return batch.files.length > 0 ? batch : undefined;
  };
  const topUp = (): void => {
    for (let worker = freeWorker(); worker !== undefined && !progress.deadlineHit; worker = freeWorker()) {
      const batch = fill();
      if (batch === undefined) return;
      const id = nextId++;
      inFlight.get(worker)?.set(id, batch);
      queue.push(batch);
      worker.post({ id, job, files: batch.work } satisfies WorkBatch);
    }
  };

  try {
    for (;;) {
      topUp();
      const head = queue[0];
      if (head === undefined) {
        if (next < files.length && !progress.deadlineHit) throw new Error('ast_grep: every parse worker of the call exited; run it again');
        return;
      }
      while (head.results === undefined && head.error === undefined) {
        const outcome = await waitFor(checkpoint, (resolve) => (wake = resolve));
        wake = undefined;
        if (outcome === 'deadline') {
          progress.deadlineHit = true;
          return;
        }
        topUp();
      }
      queue.shift();
      if (head.error !== undefined) throw new Error(`ast_grep: ${head.error}`);
      atYield = true;
      for (let i = 0; i < head.files.length; i++) yield { file: head.files[i] as TargetFile, work: (head.results as FileWork[])[i] as FileWork };
      atYield = false;
      checkpoint.cancelled();
      await checkpoint.breathe();
    }
  } finally {
    // A caller that has enough (stopped at a yield) lets the busy workers finish the batches they
    // hold and return to the pool; at the deadline, on cancellation or an error they are terminated.
    const graceful = atYield && !signal.aborted;
    for (const [worker, batches] of inFlight) {
      if (batches.size === 0) {
        pool.release(worker);
      } else if (graceful) {
        // Its results are no longer wanted, so it must not keep the process alive meanwhile (a CLI
        // that has printed its answer); the pool refs it again when it is next leased.
        worker.worker.unref();
        worker.onMessage = (reply: WorkReply) => {
          batches.delete(reply.id);
          if (batches.size === 0) pool.release(worker);
        };
        worker.onExit = () => pool.release(worker);
      } else {
        pool.discard(worker);
      }
    }
  }
}

/** Waits for `arm`'s wake-up, the deadline or cancellation (which throws). */
function waitFor(checkpoint: Checkpoint, arm: (resolve: () => void) => void): Promise<'woken' | 'deadline'> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => done('deadline'), Math.max(0, checkpoint.deadline - Date.now()));
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(checkpoint.signal.reason);
    };
    const done = (outcome: 'woken' | 'deadline'): void => {
      clearTimeout(timer);
      checkpoint.signal.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    if (checkpoint.signal.aborted) return onAbort();
    checkpoint.signal.addEventListener('abort', onAbort, { once: true });
    arm(() => done('woken'));
  });
}
