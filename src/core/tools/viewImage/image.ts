import { constants, promises as fsp, type Stats } from 'node:fs';
import * as path from 'node:path';
import { canonicalize } from '../../fs/containment';
import { errnoOf } from '../../fs/paths';
import { ToolError } from '../errors';
import type { ToolRuntime } from '../runtime';

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp';

/** Extensions, lower-cased, and the format each promises (jpg ≡ jpeg). */
const EXTENSIONS: Readonly<Record<string, ImageFormat>> = { '.png': 'png', '.jpg': 'jpeg', '.jpeg': 'jpeg', '.gif': 'gif', '.webp': 'webp' };

export const MIME_TYPES: Readonly<Record<ImageFormat, string>> = { png: 'image/png', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp' };

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

/** The format the leading bytes announce, or undefined when they are none of the four. */
export function sniffFormat(bytes: Buffer): ImageFormat | undefined {
  if (bytes.subarray(0, 8).equals(PNG)) return 'png';
  if (bytes.subarray(0, 3).equals(JPEG)) return 'jpeg';
  const ascii = (start: number, end: number): string => bytes.subarray(start, end).toString('latin1');
  if (ascii(0, 6) === 'GIF87a' || ascii(0, 6) === 'GIF89a') return 'gif';
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WEBP') return 'webp';
  return undefined;
}

export interface LoadedImage {
  /** Canonical path of the file read. */
  path: string;
  bytes: Buffer;
  format: ImageFormat;
  mime: string;
}

const TOOL = 'view_image';

/** Stat of the canonical target; a missing file or a broken path is a not_found ToolError. */
async function statOf(file: string, requested: string): Promise<Stats> {
  try {
    return await fsp.stat(file);
  } catch (err) {
    const code = errnoOf(err);
    if (code === 'ENOENT' || code === 'ENOTDIR') throw new ToolError(`${TOOL}: no file at ${requested}; check the path (list_files or find show what exists).`, 'not_found');
    throw new ToolError(`${TOOL}: ${requested} cannot be read (${code ?? 'error'}).`, 'io');
  }
}

/** Reads at most `limit` bytes; the handle is re-checked to be a regular file (a FIFO swapped in never blocks: O_NONBLOCK). */
async function readAtMost(file: string, limit: number, display: string): Promise<Buffer> {
  let handle: fsp.FileHandle;
  try {
    handle = await fsp.open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (err) {
    throw new ToolError(`${TOOL}: ${display} cannot be opened (${errnoOf(err) ?? 'error'}).`, 'io');
  }
  try {
    if (!(await handle.stat()).isFile()) throw new ToolError(`${TOOL}: ${display} stopped being a regular file while it was opened; retry.`, 'conflict');
    const buffer = Buffer.alloc(limit);
    let filled = 0;
    while (filled < limit) {
      const { bytesRead } = await handle.read(buffer, filled, limit - filled, filled);
      if (bytesRead === 0) break;
      filled += bytesRead;
    }
    return buffer.subarray(0, filled);
  } finally {
    await handle.close();
  }
}

/**
 * Every local check of one image, in the contract's order, before any network: absolute path,
 * canonical target (symlinks followed) judged by containment and `absolute_paths`, a regular file,
 * a supported extension (case-insensitive), the size (stat, then the bytes actually read, at most
 * `maxBytes` + 1), and a signature matching the extension. Throws ToolError with what to do.
 */
export async function loadImage(runtime: ToolRuntime, requested: string, maxBytes: number, signal: AbortSignal): Promise<LoadedImage> {
  if (requested.includes('\0')) throw new ToolError(`${TOOL}: path must not contain NUL characters.`);
  if (!path.isAbsolute(requested)) {
    throw new ToolError(`${TOOL}: path must be absolute, not ${JSON.stringify(requested)}; e.g. ${JSON.stringify(path.join(runtime.root, requested.trim() || 'screenshot.png'))}.`);
  }
  // The canonical target, not the link, is what containment and absolute_paths judge.
  const resolved = await runtime.resolve(TOOL, await canonicalize(path.normalize(requested)), 'read');
  const file = resolved.canonical;
  const stat = await statOf(file, requested);
  if (stat.isDirectory()) throw new ToolError(`${TOOL}: ${requested} is a directory; give the path of one image file.`);
  if (!stat.isFile()) throw new ToolError(`${TOOL}: ${requested} is not a regular file (a FIFO, socket or device); give the path of one image file.`);
  const extension = path.extname(file).toLowerCase();
  const promised = EXTENSIONS[extension];
  if (promised === undefined) {
    throw new ToolError(`${TOOL}: ${path.basename(file)} is not a supported image; view_image takes PNG, JPEG, GIF or WebP files (.png, .jpg, .jpeg, .gif, .webp in any case).`);
  }
  const tooLarge = (size: string): ToolError =>
    new ToolError(`${TOOL}: ${requested} is ${size} bytes; the limit is ${maxBytes} (capabilities.tools.view_image.max_image_bytes, at most 20 MiB). Downscale or crop the image, or raise the setting.`, 'too_large');
  if (stat.size > maxBytes) throw tooLarge(String(stat.size));
  const bytes = await readAtMost(file, maxBytes + 1, requested);
  signal.throwIfAborted();
  if (bytes.length > maxBytes) throw tooLarge(`more than ${maxBytes}`);
  const actual = sniffFormat(bytes);
  if (actual !== promised) {
    throw new ToolError(`${TOOL}: ${path.basename(file)} has a ${extension} extension but its bytes are ${actual === undefined ? 'not PNG, JPEG, GIF or WebP' : actual.toUpperCase()}; rename it to match its real format or give another file.`);
  }
  return { path: file, bytes, format: actual, mime: MIME_TYPES[actual] };
}
