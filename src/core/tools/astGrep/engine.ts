import { treeComplexity } from './complexity';
import type { FileWork, Job, WorkBatch, WorkFile, WorkReply } from './protocol';
import type { SkippedFiles, TrackedReader } from './skipped';
import type { Checkpoint, TargetFile } from './targets';
import { sharedParsePool, type ParsePool, type ParseWorker } from './workers';

/** A batch closes at this many files or this much text, whichever comes first. */
const BATCH_FILES = 8;
const BATCH_CHARS = 256 * 1024;
/** Batches in flight per worker: one being parsed, one waiting, so a worker never idles. */
const IN_FLIGHT_PER_WORKER = 2;

export interface WorkOptions {
  reader: TrackedReader;
  skipped: SkippedFiles;
  checkpoint: Checkpoint;
  job: Job;
  /**
   * Before a file is read: false to leave it out (the caller counts why), or a test of its raw
   * bytes (a file failing it is neither decoded nor parsed), or true to parse it whatever it holds.
   */
  admit?: (file: TargetFile) => boolean | ((bytes: Buffer) => boolean);
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
 * The files that pass the read and tree checks, parsed and matched (or outlined) by the parse
 * workers, yielded in the given order. The main thread reads and checks files and hands them out in
 * batches; every pooled worker has up to two batches in flight. At the deadline, or when the call is
 * cancelled or the caller stops early, the busy workers are terminated (and replaced), so no parse
 * outlives the call. Deadline: progress.deadlineHit, with every file before the cut yielded.
 * Cancellation throws.
 */
export async function* workInOrder(files: readonly TargetFile[], options: WorkOptions, progress: WorkProgress): AsyncGenerator<FileResult> {
  const { reader, skipped, checkpoint, admit, job } = options;
  const pool = options.pool ?? sharedParsePool();
  const signal = checkpoint.signal;
  const leased = await pool.acquire(pool.size, signal);
  const idle = [...leased];
  const busy = new Map<ParseWorker, Batch>();
  const queue: Batch[] = [];
  let next = 0;
  let nextId = 0;
  let wake: (() => void) | undefined;

  const finished = (worker: ParseWorker): void => {
    busy.delete(worker);
    idle.push(worker);
    wake?.();
  };
  const dispatch = (batch: Batch): void => {
    const worker = idle.pop() as ParseWorker;
    const id = nextId++;
    busy.set(worker, batch);
    worker.onMessage = (reply: WorkReply) => {
      if (reply.id !== id) return;
      if ('error' in reply) batch.error = reply.error;
      else batch.results = reply.results;
      finished(worker);
    };
    worker.onExit = (reason) => {
      batch.error = `a parse worker ${reason}`;
      busy.delete(worker);
      pool.release(worker);
      wake?.();
    };
    worker.post({ id, job, files: batch.work } satisfies WorkBatch);
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
      const admitted = admit === undefined ? true : admit(file);
      if (admitted === false) continue;
      const text = admitted === true ? reader.read(file) : reader.read(file, admitted);
      if (text === undefined) continue;
      const complexity = treeComplexity(text);
      if (!complexity.ok) {
        skipped.add(file.display, 'too_complex', complexity.reason);
        continue;
      }
      batch.files.push(file);
      batch.work.push({ display: file.display, language: file.language, text });
      batch.chars += text.length;
    }
    return batch.files.length > 0 ? batch : undefined;
  };
  const topUp = (): void => {
    while (!progress.deadlineHit && idle.length > 0 && queue.length < leased.length * IN_FLIGHT_PER_WORKER) {
      const batch = fill();
      if (batch === undefined) return;
      queue.push(batch);
      dispatch(batch);
    }
  };

  try {
    for (;;) {
      topUp();
      const head = queue[0];
      if (head === undefined) return;
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
      for (let i = 0; i < head.files.length; i++) yield { file: head.files[i] as TargetFile, work: (head.results as FileWork[])[i] as FileWork };
      checkpoint.cancelled();
      await checkpoint.breathe();
    }
  } finally {
    for (const worker of busy.keys()) pool.discard(worker);
    for (const worker of idle) pool.release(worker);
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
