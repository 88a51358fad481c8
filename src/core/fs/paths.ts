import * as path from 'node:path';

/** Whether `child` is `parent` or lies below it (both absolute and normalized). */
export function isWithin(parent: string, child: string): boolean {
  const rel = path.relative(parent, child);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** A platform path with `/` separators, as tools show paths. */
export function toSlashes(p: string): string {
  return path.sep === '/' ? p : p.split(path.sep).join('/');
}

/** How a message names a file: relative to `root` (with `/`) inside it, absolute outside it or without a root. */
export function displayPath(root: string | undefined, absPath: string): string {
  return root !== undefined && isWithin(root, absPath) ? toSlashes(path.relative(root, absPath)) || '.' : absPath;
}

/** The `code` of a Node system error (`ENOENT` …), undefined for anything else. */
export function errnoOf(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException | undefined)?.code;
}
