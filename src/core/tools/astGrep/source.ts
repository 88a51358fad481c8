import { constants, promises as fsp } from 'node:fs';
import { CALL_READ_CAP, MAX_FILE_BYTES } from './limits';

/** Why a file was not searched or outlined; counted in `files_skipped`. */
export type SkipReason = 'too_large' | 'not_utf8' | 'unreadable' | 'not_regular' | 'too_complex' | 'read_cap';

export type SourceRead = { ok: true; text: string; bytes: number } | { ok: false; reason: SkipReason; detail: string };

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/**
 * Reads whole files for one call under the file and call byte caps: only regular files (never
 * through a symlink: O_NOFOLLOW), at most MAX_FILE_BYTES each and valid UTF-8 as a whole — a file
 * is searched complete or not at all.
 */
export class SourceReader {
  private readBytes = 0;

  constructor(private readonly callCap = CALL_READ_CAP, private readonly fileCap = MAX_FILE_BYTES) {}

  get bytesRead(): number {
    return this.readBytes;
  }

  async read(absolute: string): Promise<SourceRead> {
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(absolute, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') return { ok: false, reason: 'not_regular', detail: 'a symlink' };
      return { ok: false, reason: 'unreadable', detail: code ?? String(err) };
    }
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) return { ok: false, reason: 'not_regular', detail: 'not a regular file' };
      if (stat.size > this.fileCap) return { ok: false, reason: 'too_large', detail: `${stat.size} bytes (limit ${this.fileCap})` };
      if (this.readBytes + stat.size > this.callCap) return { ok: false, reason: 'read_cap', detail: `the call's ${this.callCap}-byte read limit is reached` };
      const buffer = Buffer.alloc(stat.size + 1);
      let length = 0;
      // Reading one byte past the size tells a file that grew since stat from one that did not.
      for (;;) {
        const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
        if (bytesRead === 0) break;
        length += bytesRead;
        if (length > this.fileCap || length === buffer.length) {
          return { ok: false, reason: 'too_large', detail: `grew past ${stat.size} bytes while being read` };
        }
      }
      this.readBytes += length;
      let text: string;
      try {
        text = utf8.decode(buffer.subarray(0, length));
      } catch {
        return { ok: false, reason: 'not_utf8', detail: 'not valid UTF-8' };
      }
      return { ok: true, text, bytes: length };
    } catch (err) {
      return { ok: false, reason: 'unreadable', detail: (err as NodeJS.ErrnoException).code ?? String(err) };
    } finally {
      await handle.close();
    }
  }
}
