/**
 * find's ranking: the scorer's rank, then the shorter path, then byte order; only the requested
 * window is ever put in order.
 */
import { compareBytes } from '../../workspace/pathOrder';
import type { Entry, FindIndex } from './entries';
import { MAX_FUZZY, Scorer, type FindQuery } from './scorer';

export type FindKind = 'files' | 'directories' | 'mixed';

export interface RankedPage {
  /** Display paths of the requested window, best first. */
  paths: string[];
  /** Every entry that matched. */
  total: number;
}

interface Scored {
  rank: number;
  entry: Entry;
}

/** Negative when `a` ranks first: higher rank, then the shorter path, then byte order. */
function order(a: Scored, b: Scored): number {
  return b.rank - a.rank || a.entry.display.length - b.entry.display.length || compareBytes(a.entry.display, b.entry.display);
}

/**
 * Ranks the index's entries of `kind` against `query` and returns the window
 * `[offset, offset + limit)` of the ranked order and the number of matches. Only the best
 * `offset + limit` are kept (a bounded heap), so a broad query costs a scoring pass, not a sort
 * of every match.
 */
export function rankPage(index: FindIndex, query: FindQuery, kind: FindKind, offset: number, limit: number, signal?: AbortSignal): RankedPage {
  const lists = kind === 'files' ? [index.files] : kind === 'directories' ? [index.dirs] : [index.files, index.dirs];
  const scorer = new Scorer(query, index);
  const keep = offset + limit;
  const heap: Scored[] = [];
  let total = 0;
  for (const list of lists) {
    for (let i = 0; i < list.length; i++) {
      if ((i & 0x3fff) === 0) signal?.throwIfAborted();
      const entry = list[i] as Entry;
      let rank = scorer.bound(entry);
      if (rank < 0) continue;
      total++;
      const full = heap.length >= keep;
      // Score fuzzy words only when even their best score could still put the entry on the page.
      if (scorer.unsettled > 0) {
        if (full && order({ rank: rank + scorer.unsettled * MAX_FUZZY, entry }, heap[0] as Scored) >= 0) continue;
        rank = scorer.settle(entry, rank);
      }
      if (!full) heapPush(heap, { rank, entry });
      else if (order({ rank, entry }, heap[0] as Scored) < 0) heapReplaceTop(heap, { rank, entry });
    }
  }
  return { paths: heap.sort(order).slice(offset).map((s) => s.entry.display), total };
}

// A binary heap whose top is the worst kept item, so a better one replaces it in O(log k).
function worse(a: Scored, b: Scored): boolean {
  return order(a, b) > 0;
}

function heapPush(heap: Scored[], item: Scored): void {
  let i = heap.push(item) - 1;
  while (i > 0) {
    const parent = (i - 1) >> 1;
    if (!worse(item, heap[parent] as Scored)) break;
    heap[i] = heap[parent] as Scored;
    i = parent;
  }
  heap[i] = item;
}

function heapReplaceTop(heap: Scored[], item: Scored): void {
  const n = heap.length;
  let i = 0;
  for (;;) {
    const left = 2 * i + 1;
    if (left >= n) break;
    const right = left + 1;
    const child = right < n && worse(heap[right] as Scored, heap[left] as Scored) ? right : left;
    if (!worse(heap[child] as Scored, item)) break;
    heap[i] = heap[child] as Scored;
    i = child;
  }
  heap[i] = item;
}
