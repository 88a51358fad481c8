import { ToolError } from '../errors';

/** Lines shown when a target has no line selector. */
export const DEFAULT_READ_LINES = 400;
/** Most lines one file section shows. */
export const MAX_READ_LINES = 2000;

/** A line window, 1-based; `end` undefined means "to the end of the file". */
export interface LineWindow {
  start: number;
  end: number | undefined;
  /** The end was implied (`:N`, no selector), not asked for: the reader should hear what follows. */
  implied?: boolean;
}

export interface ReadTarget {
  /** The target string without its selector suffixes. */
  path: string;
  raw: boolean;
  /** The window a line selector asked for; undefined without one. */
  window: LineWindow | undefined;
}

const RANGE = /^(?:(\d+)|-(\d+)|(\d+)-(\d+)|(\d+)\+|(\d+)\+(\d+))$/;

function positive(text: string, target: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value) || value < 1) {
    throw new ToolError(`read: ${target}: line numbers start at 1; got ${text}.`);
  }
  return value;
}

/** Parses one range selector body (`N`, `-M`, `N-M`, `N+`, `N+K`), or returns undefined. */
function parseRange(body: string, target: string): LineWindow | undefined {
  const m = RANGE.exec(body);
  if (!m) return undefined;
  const [, from, upTo, a, b, fromOpen, start, count] = m;
  if (from !== undefined) {
    const s = positive(from, target);
    return { start: s, end: s + DEFAULT_READ_LINES - 1, implied: true };
  }
  if (upTo !== undefined) return { start: 1, end: positive(upTo, target) };
  if (a !== undefined && b !== undefined) {
    const s = positive(a, target);
    const e = positive(b, target);
    if (e < s) throw new ToolError(`read: ${target}: range ${body} ends before it starts; write it as ${e}-${s}.`);
    return { start: s, end: e };
  }
  if (fromOpen !== undefined) return { start: positive(fromOpen, target), end: undefined };
  if (start !== undefined && count !== undefined) {
    const s = positive(start, target);
    return { start: s, end: s + positive(count, target) - 1 };
  }
  return undefined;
}

/**
 * Splits selector suffixes off a read target, from the end: `:raw` and at most one line range, in
 * either order (`a.ts:raw:50-100`, `a.ts:50-100:raw`). A suffix that is neither stays part of the
 * path, so `C:\x` and `notes:todo` are plain paths.
 */
export function parseReadTarget(target: string): ReadTarget {
  let path = target;
  let raw = false;
  let window: LineWindow | undefined;
  for (;;) {
    const colon = path.lastIndexOf(':');
    if (colon <= 0) break;
    const suffix = path.slice(colon + 1);
    if (suffix === 'raw' && !raw) {
      raw = true;
    } else {
      const range = window === undefined ? parseRange(suffix, target) : undefined;
      if (range === undefined) break;
      window = range;
    }
    path = path.slice(0, colon);
  }
  return { path, raw, window };
}

/**
 * The lines to show for a file of `lineCount` lines: the selector's window, else offset/limit, else
 * the first 400. A start past the end is an error; an end past the end stops at the last line.
 * At most 2,000 lines are shown; `cut` says the window asked for more.
 */
export function resolveWindow(window: LineWindow | undefined, lineCount: number, displayPath: string, offset?: number, limit?: number): { start: number; end: number; cut: boolean; implied: boolean } {
  const asked: LineWindow = window ?? { start: offset ?? 1, end: (offset ?? 1) + (limit ?? DEFAULT_READ_LINES) - 1, implied: limit === undefined };
  if (asked.start > Math.max(lineCount, 1)) {
    throw new ToolError(`read: line ${asked.start} is past the end of ${displayPath}, which has ${lineCount} line${lineCount === 1 ? '' : 's'}.`);
  }
  const wanted = Math.min(asked.end ?? lineCount, lineCount);
  const end = Math.min(wanted, asked.start + MAX_READ_LINES - 1);
  return { start: asked.start, end, cut: end < wanted, implied: asked.implied ?? false };
}
