import * as path from 'node:path';
import type { WalkResult } from '../../workspace/types';

/** The files one call searches, in path order. */
export interface Candidates {
  /** Absolute paths for the workers. */
  abs: string[];
  /** Display paths (root-relative with `/` inside the root, absolute outside). */
  display: string[];
  /** Files under a `target` folder below the searched folder, left out (grep's own rule). */
  skippedTarget: number;
  /** Files left after that rule; more than `abs.length` when the file limit cut the list. */
  total: number;
}

/** The display prefix of the walked folder's files: '' for the root, `src/` for a folder, `/abs/dir/` outside. */
function displayPrefix(walk: WalkResult, dir: string): string {
  if (walk.base === '') return dir.endsWith(path.sep) ? dir : dir + path.sep;
  const rel = path.relative(walk.base, dir).split(path.sep).join('/');
  return rel === '' ? '' : rel + '/';
}

/**
 * The walk's files minus those under a `target` folder (Rust and Maven build output) below `dir`
 * — a search pointed inside a `target` folder still searches it — cut to the first `maxFiles`.
 * The walker lists files in byte order of their paths, which stays the search order.
 */
export function candidatesOf(walk: WalkResult, dir: string, maxFiles: number): Candidates {
  const prefix = displayPrefix(walk, dir);
  const join = walk.base === '' ? (p: string) => p : path.sep === '/' ? (p: string) => walk.base + '/' + p : (p: string) => path.join(walk.base, p);
  const out: Candidates = { abs: [], display: [], skippedTarget: 0, total: 0 };
  for (const file of walk.files) {
    const below = file.startsWith(prefix) ? file.slice(prefix.length) : file;
    if (below.startsWith('target/') || below.includes('/target/')) {
      out.skippedTarget++;
      continue;
    }
    out.total++;
    if (out.abs.length < maxFiles) {
      out.abs.push(join(file));
      out.display.push(file);
    }
  }
  return out;
}
