import { createHash } from 'node:crypto';

/** Snapshots kept per session tree, oldest evicted first. */
export const MAX_SNAPSHOTS = 64;
/** UTF-8 bytes of text kept per page. */
export const MAX_SNAPSHOT_BYTES = 40_000;

export interface PageSnapshot {
  /** `web:` + 16 hex characters of the SHA-256 of URL and text: the same page text gives the same reference. */
  reference: string;
  url: string;
  title: string | undefined;
  text: string;
  /** The text was cut to MAX_SNAPSHOT_BYTES (or came cut from its source). */
  truncated: boolean;
}

function clipUtf8(text: string, maxBytes: number): { text: string; clipped: boolean } {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return { text, clipped: false };
  // Back off to a character boundary: continuation bytes are 10xxxxxx.
  let end = maxBytes;
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return { text: bytes.subarray(0, end).toString('utf8'), clipped: true };
}

/**
 * The pages `web` has shown this session, by reference: immutable, at most MAX_SNAPSHOTS, the
 * oldest evicted; shared by every runtime of the session tree (subagents included), never
 * persisted. An unknown or evicted reference is answered without network work.
 */
export class PageSnapshots {
  private readonly byReference = new Map<string, PageSnapshot>();

  add(page: { url: string; title: string | undefined; text: string; truncated: boolean }): PageSnapshot {
    const { text, clipped } = clipUtf8(page.text, MAX_SNAPSHOT_BYTES);
    const reference = `web:${createHash('sha256').update(page.url).update('\n').update(text).digest('hex').slice(0, 16)}`;
    const existing = this.byReference.get(reference);
    if (existing !== undefined) return existing;
    const snapshot: PageSnapshot = Object.freeze({ reference, url: page.url, title: page.title, text, truncated: page.truncated || clipped });
    this.byReference.set(reference, snapshot);
    while (this.byReference.size > MAX_SNAPSHOTS) this.byReference.delete(this.byReference.keys().next().value as string);
    return snapshot;
  }

  get(reference: string): PageSnapshot | undefined {
    return this.byReference.get(reference);
  }

  get size(): number {
    return this.byReference.size;
  }
}
