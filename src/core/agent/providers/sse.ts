/**
 * Incremental Server-Sent Events parser (the `text/event-stream` rules of the WHATWG HTML standard):
 * bytes in, whole messages out. Network chunks may split anywhere — inside a line, between a CR and
 * its LF, inside a UTF-8 sequence — so nothing here assumes a chunk is a message.
 */

/** One dispatched message: its `event` field (`message` when absent) and its data lines joined by LF. */
export interface SseMessage {
  event: string;
  data: string;
}

const LF = 10;
const CR = 13;

export class SseParser {
  /** Streaming decoder: keeps the bytes of a UTF-8 sequence cut by a chunk boundary until the rest arrives; drops a leading BOM. */
  private readonly decoder = new TextDecoder('utf-8');
  /** The start of a line whose end has not arrived yet. */
  private partialLine = '';
  /** The previous text ended with CR: an LF that starts the next text belongs to that line break. */
  private skipLeadingLf = false;
  private eventType = '';
  private dataLines: string[] = [];

  /** Feeds one chunk; returns the messages it completed, in order. */
  push(chunk: Uint8Array): SseMessage[] {
    return this.feed(this.decoder.decode(chunk, { stream: true }));
  }

  /**
   * Ends the stream. A message without its terminating blank line is dropped, as the standard says:
   * a cut stream must not pass for a complete one.
   */
  end(): SseMessage[] {
    return this.feed(this.decoder.decode());
  }

  private feed(text: string): SseMessage[] {
    const out: SseMessage[] = [];
    let start = 0;
    if (this.skipLeadingLf && text.length > 0) {
      if (text.charCodeAt(0) === LF) start = 1;
      this.skipLeadingLf = false;
    }
    for (let i = start; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (code !== LF && code !== CR) continue;
      const line = this.partialLine + text.slice(start, i);
      this.partialLine = '';
      if (code === CR) {
        if (i + 1 === text.length) this.skipLeadingLf = true;
        else if (text.charCodeAt(i + 1) === LF) i++;
      }
      start = i + 1;
      this.processLine(line, out);
    }
    this.partialLine += text.slice(start);
    return out;
  }

  private processLine(line: string, out: SseMessage[]): void {
    if (line === '') {
      // A blank line dispatches; one without any data line dispatches nothing (the standard's rule).
      if (this.dataLines.length > 0) out.push({ event: this.eventType || 'message', data: this.dataLines.join('\n') });
      this.dataLines = [];
      this.eventType = '';
      return;
    }
    if (line.startsWith(':')) return; // a comment: servers send them as keep-alives
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.dataLines.push(value);
    else if (field === 'event') this.eventType = value;
    // `id` and `retry` only matter to a reconnecting EventSource; model streams are never resumed.
  }
}
