import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { CALL_READ_CAP, MAX_FILE_BYTES } from './limits';

/** Why a file was not searched or outlined; counted in `files_skipped`. */
export type SkipReason = 'too_large' | 'not_utf8' | 'unreadable' | 'not_regular' | 'too_complex' | 'read_cap';

export type SourceRead = { ok: true; text: string; bytes: number } | { ok: false; reason: SkipReason; detail: string };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Reads whole files for one call under the file and call byte caps: only regular files (never
 * through a symlink: O_NOFOLLOW), at most MAX_FILE_BYTES each and valid UTF-8 as a whole — a file
 * is searched complete or not at all. Reads are synchronous: four system calls on a file of at most
 * 256 KiB cost tens of microseconds, where the same through the thread pool costs a round trip
 * each; callers yield to the event loop between files.
 */
export class SourceReader {
  private readBytes = 0;

  constructor(private readonly callCap = CALL_READ_CAP, private readonly fileCap = MAX_FILE_BYTES) {}

  get bytesRead(): number {
    return this.readBytes;
  }

  /**
   * The file's text, a reason to skip it, or null when `keep` (given the raw bytes) says the file
   * cannot matter — such a file is not decoded, and not reported.
   */
  read(absolute: string): SourceRead;
  read(absolute: string, keep: (bytes: Buffer) => boolean): SourceRead | null;
  read(absolute: string, keep?: (bytes: Buffer) => boolean): SourceRead | null {
    let fd: number;
    try {
      fd = openSync(absolute, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') return { ok: false, reason: 'not_regular', detail: 'a symlink' };
      return { ok: false, reason: 'unreadable', detail: code ?? String(err) };
    }
    try {
      return this.readOpen(fd, keep);
    } catch (err) {
      return { ok: false, reason: 'unreadable', detail: (err as NodeJS.ErrnoException).code ?? String(err) };
    } finally {
      closeSync(fd);
    }
  }

  private readOpen(fd: number, keep: ((bytes: Buffer) => boolean) | undefined): SourceRead | null {
    const stat = fstatSync(fd);
    if (!stat.isFile()) return { ok: false, reason: 'not_regular', detail: 'not a regular file' };
    if (stat.size > this.fileCap) return { ok: false, reason: 'too_large', detail: `${stat.size} bytes (limit ${this.fileCap})` };
    if (this.readBytes + stat.size > this.callCap) return { ok: false, reason: 'read_cap', detail: `the call's ${this.callCap}-byte read limit is reached` };
    // One byte past the size tells a file that grew since fstat from one that did not.
    const buffer = Buffer.allocUnsafe(stat.size + 1);
    let length = 0;
    for (;;) {
      const n = readSync(fd, buffer, length, buffer.length - length, length);
      if (n === 0) break;
      length += n;
      if (length === buffer.length) return { ok: false, reason: 'too_large', detail: `grew past ${stat.size} bytes while being read` };
    }
    this.readBytes += length;
    const bytes = buffer.subarray(0, length);
    if (keep !== undefined && !keep(bytes)) return null;
    let text: string;
    try {
      text = utf8.decode(bytes);
    } catch {
      return { ok: false, reason: 'not_utf8', detail: 'not valid UTF-8' };
    }
    return { ok: true, text, bytes: length };
  }
}
