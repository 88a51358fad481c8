import { isUtf8 } from 'node:buffer';
import * as fs from 'node:fs';
import { errnoOf } from '../../fs/paths';

/**
 * Opening never follows a final symlink (it fails instead, like ripgrep, which does not follow
 * links it meets while walking) and never blocks. The walker leaves FIFOs, sockets and devices out,
 * so they are not opened in the first place; one swapped in after the walk opens at once (sockets
 * do not open at all), reads as nothing, and is then recognised by its fstat and refused.
 */
const OPEN_FLAGS = fs.constants.O_RDONLY | (fs.constants.O_NOFOLLOW ?? 0) | (fs.constants.O_NONBLOCK ?? 0);

export type ReadStatus = 'ok' | 'symlink' | 'special' | 'unreadable' | 'over-budget';

export interface ReadResult {
  status: ReadStatus;
  /** Bytes now at the start of the scratch buffer (at most `cap`). */
  length: number;
  /** The file is larger than the cap: only its first `cap` bytes are there. */
  prefixOnly: boolean;
}

/** A FIFO, socket or device (a directory or a vanished file is merely unreadable). */
function isSpecial(fd: number): boolean {
  try {
    const stat = fs.fstatSync(fd);
    return stat.isFIFO() || stat.isSocket() || stat.isCharacterDevice() || stat.isBlockDevice();
  } catch {
    return false;
  }
}

/**
 * Reads at most `cap` bytes of a regular file into `scratch` (which holds at least `cap + 1`).
 * Before reading, `reserve(cap + 1)` must grant that many bytes of the call's budget; what was not
 * used is given back with `reserve(-unused)`. No stat before reading: a short read is the end of
 * the file, and only an empty read asks fstat whether the file was a special one. Usually three
 * syscalls per file: open, read, close. Never throws.
 */
export function readInto(file: string, scratch: Buffer, cap: number, reserve: (bytes: number) => boolean): ReadResult {
  let fd: number;
  try {
    fd = fs.openSync(file, OPEN_FLAGS);
  } catch (err) {
    const code = errnoOf(err);
    return { status: code === 'ELOOP' ? 'symlink' : code === 'ENXIO' ? 'special' : 'unreadable', length: 0, prefixOnly: false };
  }
  const want = cap + 1;
  if (!reserve(want)) {
    fs.closeSync(fd);
    return { status: 'over-budget', length: 0, prefixOnly: false };
  }
  let length = 0;
  try {
    for (;;) {
      const asked = want - length;
      const n = fs.readSync(fd, scratch, length, asked, null);
      length += n;
      // A short read of a regular file is its end: no second read to see 0 (a syscall per file).
      // Network and FUSE filesystems may stop short in whole pages, so those reads go on.
      if (n === 0 || length === want || (n < asked && n % 4096 !== 0)) break;
    }
  } catch (err) {
    reserve(-want);
    const special = errnoOf(err) === 'EAGAIN' || isSpecial(fd);
    fs.closeSync(fd);
    return { status: special ? 'special' : 'unreadable', length: 0, prefixOnly: false };
  }
  if (length === 0 && isSpecial(fd)) {
    reserve(-want);
    fs.closeSync(fd);
    return { status: 'special', length: 0, prefixOnly: false };
  }
  fs.closeSync(fd);
  const prefixOnly = length > cap;
  if (prefixOnly) length = cap;
  reserve(length - want);
  return { status: 'ok', length, prefixOnly };
}

export type Decoded =
  | { kind: 'binary' }
  /** Text is not needed: no pattern's required literal is in the bytes. */
  | { kind: 'no-match'; invalidUtf8: boolean }
  | { kind: 'text'; text: string; invalidUtf8: boolean };

/**
 * Turns searched bytes into text, as ripgrep does by default: a UTF-16 byte-order mark means
 * UTF-16 (transcoded); a UTF-8 one is dropped; a NUL byte anywhere in what was read means binary
 * (skipped); invalid UTF-8 is searched with U+FFFD in place of the bad sequences (and counted).
 * A file read in its prefix only is searched up to its last complete line.
 */
export function decodeForSearch(bytes: Buffer, prefixOnly: boolean, mayMatch: (bytes: Buffer) => boolean): Decoded {
  let view = bytes;
  if (prefixOnly) {
    const lastNl = view.lastIndexOf(10);
    if (lastNl !== -1) view = view.subarray(0, lastNl + 1);
  }
  const b0 = view[0];
  const b1 = view[1];
  if ((b0 === 0xff && b1 === 0xfe) || (b0 === 0xfe && b1 === 0xff)) {
    const body = Buffer.from(view.subarray(2, view.length - (view.length % 2)));
    if (b0 === 0xfe) body.swap16();
    const text = body.toString('utf16le');
    return text.includes('\0') ? { kind: 'binary' } : { kind: 'text', text, invalidUtf8: false };
  }
  if (view.indexOf(0) !== -1) return { kind: 'binary' };
  const invalidUtf8 = !isUtf8(view);
  if (!mayMatch(view)) return { kind: 'no-match', invalidUtf8 };
  const bom = b0 === 0xef && b1 === 0xbb && view[2] === 0xbf ? 3 : 0;
  return { kind: 'text', text: view.toString('utf8', bom), invalidUtf8 };
}
