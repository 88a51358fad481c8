import type { HostMessage } from '../../../webview/protocol';
import type { ActivityStore } from './activityStore';

/** Bytes of entries one message carries at most; a longer replay goes out as several messages. */
export const MESSAGE_BYTES = 1024 * 1024;
/** How long new entries gather before they are posted (one animation frame). */
export const TICK_MS = 16;

export type Post = (message: HostMessage) => void;
export type Schedule = (run: () => void, ms: number) => { cancel(): void };

const defaultSchedule: Schedule = (run, ms) => {
  const timer = setTimeout(run, ms);
  return { cancel: () => clearTimeout(timer) };
};

/**
 * Feeds one webview the store's entries as deltas. Nothing is sent before the webview says
 * `ready` with the last `n` it holds; it then gets a `replay` of everything after that, and from
 * then on the new entries, gathered per TICK_MS tick into `activity` messages of at most
 * MESSAGE_BYTES (never one message per text delta). It sends each entry once, in order, because it
 * only ever sends `store.after(sent)`. Plain Node (the post function is the webview's).
 */
export class ActivityFeed {
  /** The `n` of the last entry sent; undefined while the webview is not ready. */
  private sent: number | undefined;
  private tick: { cancel(): void } | undefined;
  private readonly unsubscribe: () => void;

  constructor(private readonly store: ActivityStore, private readonly post: Post, private readonly schedule: Schedule = defaultSchedule) {
    this.unsubscribe = store.onAppend(() => this.wake());
  }

  /** The webview (re)loaded holding entries up to `lastN`: replay what it misses, then keep it up to date. */
  ready(lastN: number): void {
    this.tick?.cancel();
    this.tick = undefined;
    const afterN = Math.max(0, Math.min(Math.floor(lastN), this.store.lastN));
    const first = this.store.after(afterN, MESSAGE_BYTES);
    if (first.dropped > 0) {
      this.post({ type: 'notice', level: 'info', message: `${first.dropped} older activity entr${first.dropped === 1 ? 'y is' : 'ies are'} no longer kept; the replay starts at the oldest kept one.` });
    }
    // With entries dropped, the replay honestly starts later: `afterN` is the n just before its first entry.
    const from = first.dropped > 0 ? this.store.firstN - 1 : afterN;
    this.post({ type: 'replay', afterN: from, entries: first.entries });
    this.sent = first.entries.at(-1)?.n ?? from;
    this.wake();
  }

  /** The webview is gone (hidden or disposed): send nothing until it is ready again. */
  pause(): void {
    this.sent = undefined;
    this.tick?.cancel();
    this.tick = undefined;
  }

  dispose(): void {
    this.pause();
    this.unsubscribe();
  }

  private wake(): void {
    if (this.sent === undefined || this.tick || this.sent >= this.store.lastN) return;
    this.tick = this.schedule(() => this.flush(), TICK_MS);
  }

  private flush(): void {
    this.tick = undefined;
    if (this.sent === undefined) return;
    const { entries } = this.store.after(this.sent, MESSAGE_BYTES);
    if (entries.length === 0) return;
    // Entries dropped while the webview was behind are skipped: the webview's view starts later, in order.
    this.post({ type: 'activity', entries });
    this.sent = entries.at(-1)?.n ?? this.sent;
    this.wake();
  }
}
