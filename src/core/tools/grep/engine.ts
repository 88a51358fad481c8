import { rankCompare } from './batch';
import type { GrepWorker, GrepWorkerPool } from './workers';
import { SHARED_BYTES, SHARED_STOP, addStats, emptyStats, type BatchResult, type FileHits, type FileStats, type FromWorker, type SearchConfig } from './protocol';

/**
 * `sequential`: one worker, one batch at a time, batches growing from 8 files, stopping as soon as
 * enough lines are found (raw mode with a small limit); after SEQUENTIAL_FILES files without
 * enough (a rare pattern), the idle workers of the pool join in. `parallel`: every pooled worker,
 * two batches in flight each.
 */
export type Strategy = 'sequential' | 'parallel';

/** Files the sequential path searches alone before it widens to the idle workers. */
export const SEQUENTIAL_FILES = 2048;

export interface SearchRequest {
  /** Paths (absolute, or relative to `config.base`), in the order results are wanted (path order). */
  files: readonly string[];
  config: Omit<SearchConfig, 'shared'>;
  strategy: Strategy;
  pool: GrepWorkerPool;
  /** Epoch milliseconds when the workers still running are terminated. */
  deadline: number;
  /** The sequential path's files before it widens; default SEQUENTIAL_FILES (tests lower it). */
  sequentialFiles?: number;
  signal: AbortSignal;
}

export interface SearchOutcome {
  /** Raw: files with returned lines, in list order. Ranked: the best `keepFiles` files, best first. */
  files: FileHits[];
  matchedFiles: number;
  matchedLines: number;
  /** Primary lines on offer: raw, the matching lines; ranked, at most `hitsPerFile` per file. */
  primaryLines: number;
  /** The counts cover every file of the list. */
  exact: boolean;
  /** Files [0, searched) of the list were accounted for (searched or skipped); the rest were not read. */
  searched: number;
  stats: FileStats;
  /** Bytes read by the workers, results dropped after a stop included. */
  bytesRead: number;
  prefixOnly: number[];
  /** Raw mode stopped because it had offset + limit + 1 lines. */
  enough: boolean;
  timedOut: boolean;
  cancelled: boolean;
  byteCapReached: boolean;
  workerErrors: number;
  workers: number;
}

interface Batch {
  start: number;
  length: number;
  result?: BatchResult;
  failed?: boolean;
}

interface Slot {
  worker: GrepWorker;
  inflight: Set<number>;
}

type EndReason = 'done' | 'timeout' | 'abort';

function batchSize(req: SearchRequest, workers: number, k: number): number {
  if (req.strategy === 'sequential') return Math.min(256, 8 << Math.min(k, 10));
  if (req.config.mode === 'raw') return Math.min(512, 32 << Math.min(k, 10));
  return Math.max(16, Math.min(512, Math.ceil(req.files.length / (workers * 8))));
}

/**
 * Searches a list of files in worker threads. Results always describe a prefix of the list: a
 * batch that did not finish (deadline, cancellation, byte cap, a crashed worker) ends the prefix,
 * and whatever came back after it is dropped. At the deadline or on abort the busy workers are
 * terminated, so a runaway regex costs at most the deadline. Never rejects.
 */
export function runSearch(req: SearchRequest): Promise<SearchOutcome> {
  const shared = new SharedArrayBuffer(8);
  const counters = new Int32Array(shared);
  const config: SearchConfig = { ...req.config, shared };
  const wanted = req.strategy === 'sequential' ? 1 : req.pool.size;
  let depth = req.strategy === 'sequential' ? 1 : 2;
  const n = req.files.length;

  return new Promise((resolve) => {
    const batches: Batch[] = [];
    const slots: Slot[] = [];
    const stop = new AbortController();
    let finished = false;
    let next = 0;
    let prefix = 0;
    let rawLines = 0;
    let enough = false;
    let byteCap = false;
    let halted = false;
    let workerErrors = 0;

    const finish = (reason: EndReason): void => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      req.signal.removeEventListener('abort', onAbort);
      Atomics.store(counters, SHARED_STOP, 1);
      stop.abort();
      const stragglers: Slot[] = [];
      for (const slot of slots) {
        if (slot.inflight.size === 0) req.pool.release(slot.worker);
        else if (reason !== 'done') req.pool.discard(slot.worker);
        else stragglers.push(slot);
      }
      // A worker still finishing a batch nobody needs sees the stop flag at its next file and is
      // released when it answers; it no longer keeps the process alive, and if it is stuck in a
      // runaway match it is terminated at the call's deadline all the same.
      for (const slot of stragglers) slot.worker.worker.unref();
      if (stragglers.length) {
        setTimeout(() => {
          for (const slot of stragglers) if (slot.inflight.size > 0 && !slot.worker.dead) req.pool.discard(slot.worker);
        }, Math.max(0, req.deadline - Date.now())).unref();
      }
      resolve(outcome(reason));
    };

    const outcome = (reason: EndReason): SearchOutcome => {
      const included = batches.slice(0, prefix).map((b) => b.result!);
      const stats = emptyStats();
      let files: FileHits[] = [];
      const prefixOnly: number[] = [];
      let searched = 0;
      let matchedFiles = 0;
      let matchedLines = 0;
      let primaryLines = 0;
      let exact = true;
      for (const r of included) {
        addStats(stats, r.stats);
        files.push(...r.files);
        prefixOnly.push(...r.prefixOnly);
        searched += r.done;
        matchedFiles += r.matchedFiles;
        matchedLines += r.matchedLines;
        primaryLines += r.primaryLines;
        exact &&= r.exact;
      }
      if (config.mode === 'ranked') files = files.sort(rankCompare).slice(0, config.keepFiles);
      return {
        files,
        matchedFiles,
        matchedLines,
        primaryLines,
        exact: exact && searched === n,
        searched,
        stats,
        bytesRead: Atomics.load(counters, SHARED_BYTES),
        prefixOnly,
        enough,
        timedOut: reason === 'timeout',
        cancelled: reason === 'abort',
        byteCapReached: byteCap,
        workerErrors,
        workers: slots.length,
      };
    };

    /** Folds finished batches into the prefix, in order; ends the call when the prefix can grow no more. */
    const advance = (): void => {
      while (prefix < batches.length) {
        const b = batches[prefix]!;
        if (b.failed) return finish('done');
        if (!b.result) return;
        prefix++;
        if (config.mode === 'raw') for (const f of b.result.files) rawLines += f.lines.length;
        if (config.mode === 'raw' && rawLines >= config.need) {
          enough = true;
          return finish('done');
        }
        if (b.result.done < b.length) {
          byteCap = b.result.byteCap;
          return finish('done');
        }
      }
      // Everything dispatched has come back and nothing more will be dispatched.
      if ((next >= n || halted) && slots.every((s) => s.inflight.size === 0)) finish('done');
    };

    const widen = (): void => {
      depth = 2;
      for (const worker of req.pool.tryAcquire(req.pool.size - slots.length)) adopt(worker);
      for (const slot of slots) dispatch(slot);
    };

    const dispatch = (slot: Slot): void => {
      if (depth === 1 && next >= (req.sequentialFiles ?? SEQUENTIAL_FILES) && !finished && !halted) return widen();
      while (!finished && !halted && slot.inflight.size < depth && next < n) {
        const length = Math.min(batchSize(req, slots.length, batches.length), n - next);
        const id = batches.length;
        batches.push({ start: next, length });
        slot.worker.post({ type: 'batch', id, base: next, files: req.files.slice(next, next + length) });
        slot.inflight.add(id);
        next += length;
      }
    };

    const onMessage = (slot: Slot, message: FromWorker): void => {
      slot.inflight.delete(message.id);
      if (finished) {
        if (slot.inflight.size === 0) req.pool.release(slot.worker);
        return;
      }
      const batch = batches[message.id]!;
      if (message.type === 'error') {
        batch.failed = true;
        workerErrors++;
        halted = true;
      } else {
        batch.result = message;
      }
      advance();
      dispatch(slot);
      advance();
    };

    const onExit = (slot: Slot): void => {
      if (finished) return req.pool.release(slot.worker);
      for (const id of slot.inflight) batches[id]!.failed = true;
      if (slot.inflight.size) {
        workerErrors++;
        // Nothing after a failed batch can join the prefix: dispatch no more.
        halted = true;
      }
      slot.inflight.clear();
      slots.splice(slots.indexOf(slot), 1);
      req.pool.release(slot.worker);
      if (slots.length === 0) return finish('done');
      advance();
    };

    const onAbort = (): void => finish('abort');
    const timer = setTimeout(() => finish('timeout'), Math.max(0, req.deadline - Date.now()));
    if (req.signal.aborted) return finish('abort');
    req.signal.addEventListener('abort', onAbort, { once: true });
    if (n === 0) return finish('done');

    const adopt = (worker: GrepWorker): void => {
      const slot: Slot = { worker, inflight: new Set() };
      worker.onMessage = (m) => onMessage(slot, m);
      worker.onExit = () => onExit(slot);
      worker.post({ type: 'config', config });
      slots.push(slot);
    };

    req.pool.acquire(wanted, stop.signal).then(
      (workers) => {
        for (const worker of workers) {
          if (finished) req.pool.release(worker);
          else adopt(worker);
        }
        for (const slot of slots) dispatch(slot);
      },
      // Only a finished call (deadline, abort) or a disposed pool ends the wait.
      () => finish(stop.signal.aborted ? 'done' : 'abort'),
    );
  });
}
