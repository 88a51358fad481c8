import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { errnoOf, isWithin, toSlashes } from '../../fs/paths';
import { ToolError } from '../../tools/errors';
import type { ToolRuntime } from '../../tools/runtime';
import { decodeUtf8 } from '../../tools/textDoc';

/** Most bytes of one AGENTS.md that reach the system prompt. */
export const MAX_AGENTS_FILE_BYTES = 32 * 1024;
/** Most bytes of all AGENTS.md files together. */
export const MAX_AGENTS_TOTAL_BYTES = 64 * 1024;

/** One AGENTS.md as it goes into the system prompt. */
export interface AgentsFile {
  /** Root-relative with `/` (`AGENTS.md`, `packages/api/AGENTS.md`). */
  path: string;
  /** The file's text, cut to the caps, with a visible marker when cut; '' when it could not be read. */
  text: string;
  truncated: boolean;
  /** Why the file is not included (unreadable, not UTF-8); the prompt shows it instead of the text. */
  error?: string;
}

/**
 * The AGENTS.md files the workspace walker found for the root, root first, then deeper ones (each
 * applies to its folder's subtree), siblings in byte order. Each is cut at 32 KiB and all of them
 * at 64 KiB together, on a character boundary, with a marker that says so. A file that cannot be
 * read is kept with its `error` rather than dropped in silence. Rejects only when `signal` aborts.
 */
export async function loadAgentsFiles(runtime: ToolRuntime, signal?: AbortSignal): Promise<AgentsFile[]> {
  const walk = await runtime.walk(runtime.root, signal);
  const ordered = walk.agents
    .map((abs) => toSlashes(path.relative(runtime.root, abs)))
    .sort((a, b) => depth(a) - depth(b) || Buffer.compare(Buffer.from(a), Buffer.from(b)));
  let remaining = MAX_AGENTS_TOTAL_BYTES;
  const files: AgentsFile[] = [];
  for (const rel of ordered) {
    signal?.throwIfAborted();
    const cap = Math.min(MAX_AGENTS_FILE_BYTES, remaining);
    const { file, used } = await loadOne(runtime.root, rel, cap, signal);
    remaining -= used;
    files.push(file);
  }
  return files;
}

function depth(rel: string): number {
  return rel.split('/').length;
}

async function loadOne(root: string, rel: string, cap: number, signal?: AbortSignal): Promise<{ file: AgentsFile; used: number }> {
  let handle;
  try {
    // The walker lists a symlinked AGENTS.md too (AGENTS.md -> CLAUDE.md is common); it is followed
    // only while it stays in the workspace, so a link cannot put a file from elsewhere in the prompt.
    const real = await fsp.realpath(path.join(root, rel));
    if (!isWithin(root, real)) return failed(rel, `is a symbolic link to ${real}, outside the workspace`);
    handle = await fsp.open(real, 'r');
  } catch (err) {
    signal?.throwIfAborted();
    return failed(rel, `cannot be read (${errnoOf(err) ?? String(err)})`);
  }
  try {
    const { size } = await handle.stat();
    // One byte more than the cap tells a file that fits exactly from one that was cut.
    const buffer = Buffer.alloc(Math.min(size, cap) + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, bytesRead);
    if (bytes.length <= cap) {
      return { file: { path: rel, text: decodeUtf8(bytes, rel), truncated: false }, used: bytes.length };
    }
    const end = utf8Boundary(bytes, cap);
    const text = decodeUtf8(bytes.subarray(0, end), rel);
    const why = cap < MAX_AGENTS_FILE_BYTES ? 'the 64 KiB budget for all AGENTS.md files ran out' : 'only its first 32 KiB are included';
    const marker = `${text === '' || text.endsWith('\n') ? '' : '\n'}[… ${rel} truncated: it is ${size} bytes and ${why}]`;
    return { file: { path: rel, text: text + marker, truncated: true }, used: end };
  } catch (err) {
    if (err instanceof ToolError) return failed(rel, err.message);
    signal?.throwIfAborted();
    return failed(rel, `cannot be read (${errnoOf(err) ?? String(err)})`);
  } finally {
    await handle.close();
  }
}

function failed(rel: string, error: string): { file: AgentsFile; used: number } {
  return { file: { path: rel, text: '', truncated: false, error }, used: 0 };
}

/** The largest length ≤ `max` that does not split a UTF-8 sequence of `bytes`. */
function utf8Boundary(bytes: Uint8Array, max: number): number {
  let end = max;
  // Continuation bytes are 10xxxxxx; step back to the lead byte of the sequence the cut would split.
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return end;
}
