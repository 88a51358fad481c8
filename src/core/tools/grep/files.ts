import * as path from 'node:path';
import type { WalkResult } from '../../workspace/types';

/** The files one call searches, in path order. */
export interface Candidates {
  /** What the workers open: `base` + separator + path, or the path alone when `base` is ''. */
  base: string;
  paths: string[];
  /** Display paths (root-relative with `/` inside the root, absolute outside); often `paths` itself. */
  display: string[];
  /** Files under a `target` folder below the searched folder, left out (grep's own rule). */
  skippedTarget: number;
  /** Files left after that rule; more than `paths.length` when the file limit cut the list. */
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
  const paths: string[] = [];
  const out: Candidates = { base: walk.base, paths, display: paths, skippedTarget: 0, total: 0 };
  for (const file of walk.files) {
    const below = file.startsWith(prefix) ? file.slice(prefix.length) : file;
    if (below.startsWith('target/') || below.includes('/target/')) {
      out.skippedTarget++;
      continue;
    }
    out.total++;
    if (paths.length < maxFiles) paths.push(file);
  }
  return out;
}

/** One file given by path: opened at its canonical location, shown as it was asked for. */
export function singleFile(canonical: string, display: string): Candidates {
  return { base: '', paths: [canonical], display: [display], skippedTarget: 0, total: 1 };
}
