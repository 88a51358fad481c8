import type { Stats } from 'node:fs';
import type { OutlineSymbol } from '../astGrep/outline/types';
import type { ToolRuntime } from '../runtime';

/** What one file gave the last call: its text and outline, and the identity of the file it came from. */
export interface CachedOutline {
  ino: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  text: string;
  symbols: OutlineSymbol[];
}

/**
 * The files the previous repo_map call of a session outlined, so that the next call (another query,
 * budget or folder) reads and parses only files that changed. Each call replaces the whole cache
 * with what it used, so it never holds more than one call's bytes (MAX_TOTAL_BYTES of text). An
 * entry counts only while the file's inode, size, mtime and ctime are unchanged.
 */
const caches = new WeakMap<ToolRuntime, Map<string, CachedOutline>>();

export function previousOutlines(runtime: ToolRuntime): ReadonlyMap<string, CachedOutline> {
  return caches.get(runtime) ?? new Map();
}

export function keepOutlines(runtime: ToolRuntime, outlines: Map<string, CachedOutline>): void {
  caches.set(runtime, outlines);
}

/** Whether a cached outline still describes the file `stat` was taken of. */
export function unchanged(cached: CachedOutline, stat: Stats): boolean {
  return cached.ino === stat.ino && cached.size === stat.size && cached.mtimeMs === stat.mtimeMs && cached.ctimeMs === stat.ctimeMs;
}
