import type { ActivityEvent } from '../../core/activity';
import type { ActivityEntry } from '../../../webview/protocol';

/** Entries the store keeps at most; older ones are dropped first. */
export const KEPT_ENTRIES = 50_000;
/** Serialized bytes the kept entries may take (an entry carries at most 16 KiB of tool output). */
export const KEPT_BYTES = 64 * 1024 * 1024;

/** What `after(n)` found: the entries after `n`, and how many wanted ones were already dropped. */
export interface StoreSlice {
  entries: ActivityEntry[];
  /** Entries after `n` that are no longer kept (the slice starts at the oldest kept one). */
  dropped: number;
}

export type EntryListener = (entry: ActivityEntry) => void;

/**
 * Every activity event of the extension's lifetime (Run Task and every chat), numbered with a
 * store-wide `n` from 1 without gaps. Bounded: the newest KEPT_ENTRIES entries within KEPT_BYTES stay.
 * Plain Node, so it is unit-tested; the webviews read it through `after(n)`.
 */
export class ActivityStore {
  private readonly entries: ActivityEntry[] = [];
  private readonly sizes: number[] = [];
  /** Index in `entries` of the oldest kept entry (dropping is amortised: the array is compacted now and then). */
  private head = 0;
  private bytes = 0;
  private n = 0;
  private readonly listeners = new Set<EntryListener>();

  constructor(private readonly keptEntries = KEPT_ENTRIES, private readonly keptBytes = KEPT_BYTES) {}

  /** The `n` of the newest entry (0 when none was ever added). */
  get lastN(): number {
    return this.n;
  }

  /** The `n` of the oldest kept entry, or lastN + 1 when none is kept. */
  get firstN(): number {
    return this.entries[this.head]?.n ?? this.n + 1;
  }

  /** Numbers and keeps the event, then tells the listeners. Never throws for a listener's sake. */
  append(event: ActivityEvent, source?: ActivityEntry['source']): ActivityEntry {
    const entry: ActivityEntry = source ? { n: ++this.n, event, source } : { n: ++this.n, event };
    const size = entrySize(entry);
    this.entries.push(entry);
    this.sizes.push(size);
    this.bytes += size;
    while (this.entries.length - this.head > this.keptEntries || (this.bytes > this.keptBytes && this.entries.length - this.head > 1)) {
      this.bytes -= this.sizes[this.head] ?? 0;
      this.head++;
    }
    if (this.head > 1024 && this.head * 2 > this.entries.length) {
      this.entries.splice(0, this.head);
      this.sizes.splice(0, this.head);
      this.head = 0;
    }
    for (const listener of [...this.listeners]) {
      try {
        listener(entry);
      } catch (err) {
        // A broken webview must not stop the run that emitted the event; the store stays correct.
        this.listeners.delete(listener);
        console.error(`magi: an activity store listener failed and was removed: ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    return entry;
  }

  /**
   * The kept entries after `n`, oldest first, at most `maxBytes` of them by their serialized size
   * (always at least one when any is after `n`, so a reader makes progress).
   */
  after(n: number, maxBytes = Number.POSITIVE_INFINITY): StoreSlice {
    const wanted = Math.max(0, this.n - n);
    const dropped = Math.min(wanted, Math.max(0, this.firstN - (n + 1)));
    const start = this.head + Math.max(0, n + 1 - this.firstN);
    let end = start;
    for (let bytes = 0; end < this.entries.length; end++) {
      bytes += this.sizes[end] ?? 0;
      if (bytes > maxBytes && end > start) break;
    }
    return { entries: this.entries.slice(start, end), dropped };
  }

  /** The newest kept event matching `test`, searching from the newest. */
  findLast(test: (event: ActivityEvent) => boolean): ActivityEvent | undefined {
    for (let i = this.entries.length - 1; i >= this.head; i--) {
      const event = this.entries[i]?.event;
      if (event && test(event)) return event;
    }
    return undefined;
  }

  onAppend(listener: EntryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** The bytes an entry takes as a message (JSON, UTF-16 length as an estimate). */
export function entrySize(entry: ActivityEntry): number {
  return JSON.stringify(entry).length;
}
