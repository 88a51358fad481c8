/**
 * Bounded capture of a child's output while it streams: the first `headBytes` bytes are kept, then
 * a ring of the last `tailBytes`; everything between is counted and dropped. Memory stays at most
 * head + tail however much the child prints.
 */
export interface CapturedText {
  /** Lossy UTF-8; head and tail joined by an omission marker when bytes were dropped. */
  text: string;
  bytesSeen: number;
  bytesOmitted: number;
  truncated: boolean;
  /** The visible bytes held invalid UTF-8 or NUL (shown as U+FFFD). */
  binary: boolean;
}

export class BoundedCapture {
  private readonly head: Buffer;
  private headLength = 0;
  private readonly ring: Buffer;
  /** Bytes written into the ring in total (its write position is this modulo its size). */
  private ringWritten = 0;
  private seen = 0;

  constructor(
    readonly headBytes: number,
    readonly tailBytes: number,
  ) {
    this.head = Buffer.alloc(headBytes);
    this.ring = Buffer.alloc(tailBytes);
  }

  get bytesSeen(): number {
    return this.seen;
  }

  push(chunk: Buffer): void {
    this.seen += chunk.length;
    let data = chunk;
    if (this.headLength < this.headBytes) {
      const n = Math.min(this.headBytes - this.headLength, data.length);
      data.copy(this.head, this.headLength, 0, n);
      this.headLength += n;
      data = data.subarray(n);
    }
    if (data.length === 0 || this.tailBytes === 0) return;
    if (data.length >= this.tailBytes) data = data.subarray(data.length - this.tailBytes);
    const at = this.ringWritten % this.tailBytes;
    const first = Math.min(this.tailBytes - at, data.length);
    data.copy(this.ring, at, 0, first);
    if (first < data.length) data.copy(this.ring, 0, first);
    this.ringWritten += data.length;
  }

  /** The last bytes pushed after the head filled, oldest first. */
  private tail(): Buffer {
    if (this.ringWritten <= this.tailBytes) return Buffer.from(this.ring.subarray(0, this.ringWritten));
    const at = this.ringWritten % this.tailBytes;
    return Buffer.concat([this.ring.subarray(at), this.ring.subarray(0, at)]);
  }

  result(): CapturedText {
    const head = this.head.subarray(0, this.headLength);
    const tail = this.tail();
    const omitted = this.seen - head.length - tail.length;
    if (omitted === 0) {
      const whole = decode(Buffer.concat([head, tail]));
      // U+FFFD takes 3 bytes for 1 invalid byte: lossy text of a full buffer can outgrow the cap.
      if (Buffer.byteLength(whole.text) <= this.headBytes + this.tailBytes) {
        return { text: whole.text, bytesSeen: this.seen, bytesOmitted: 0, truncated: false, binary: whole.binary };
      }
    }
    // The cuts can split a character: drop the partial sequence at each cut rather than call it invalid.
    const h = decode(trimEnd(head));
    const t = decode(trimStart(tail));
    const headText = clipUtf8(h.text, this.headBytes, 'start');
    const tailText = clipUtf8(t.text, this.tailBytes, 'end');
    const dropped = Math.max(0, this.seen - Buffer.byteLength(headText) - Buffer.byteLength(tailText));
    const sep = headText.endsWith('\n') || headText === '' ? '' : '\n';
    const text = `${headText}${sep}[… ${dropped} bytes omitted …]\n${tailText}`;
    return { text, bytesSeen: this.seen, bytesOmitted: dropped, truncated: true, binary: h.binary || t.binary };
  }
}

const strict = new TextDecoder('utf-8', { fatal: true });
const lossy = new TextDecoder('utf-8', { fatal: false });

function decode(bytes: Buffer): { text: string; binary: boolean } {
  let text: string;
  let binary = false;
  try {
    text = strict.decode(bytes);
  } catch {
    text = lossy.decode(bytes);
    binary = true;
  }
  if (text.includes('\0')) {
    text = text.replace(/\0/g, '\uFFFD');
    binary = true;
  }
  return { text, binary };
}

const isContinuation = (b: number | undefined): boolean => b !== undefined && (b & 0xc0) === 0x80;

/** Drops an incomplete UTF-8 sequence at the end. */
export function trimEnd(bytes: Buffer): Buffer {
  let i = bytes.length - 1;
  let back = 0;
  while (i >= 0 && back < 3 && isContinuation(bytes[i])) { i--; back++; }
  const lead = bytes[i];
  if (lead === undefined || lead < 0xc0) return bytes;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : 2;
  return bytes.length - i < need ? bytes.subarray(0, i) : bytes;
}

/** Drops continuation bytes at the start (the rest of a character cut off before). */
export function trimStart(bytes: Buffer): Buffer {
  let i = 0;
  while (i < 3 && isContinuation(bytes[i])) i++;
  return bytes.subarray(i);
}

/** Cuts a string to at most `maxBytes` of UTF-8 at a character boundary, keeping its start or its end. */
export function clipUtf8(text: string, maxBytes: number, keep: 'start' | 'end'): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= maxBytes) return text;
  return keep === 'start' ? trimEnd(bytes.subarray(0, maxBytes)).toString('utf8') : trimStart(bytes.subarray(bytes.length - maxBytes)).toString('utf8');
}
