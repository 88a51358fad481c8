import type { PatternSpec } from './patterns';

/** Matching lines of one text: parallel arrays, ascending by line. */
export interface LineMatches {
  /** 1-based line numbers. */
  lines: number[];
  /** Offsets of each line's start and end (end excludes the `\n`) and of its first match. */
  starts: number[];
  ends: number[];
  cols: number[];
  /** False when the search stopped at `max` lines and more may exist. */
  exact: boolean;
}

interface Compiled {
  scan: RegExp | null;
  line: RegExp;
  literal: Buffer | null;
}

/**
 * Finds the lines of a text that match any of the patterns (OR). A match never spans lines: each
 * pattern runs over the whole text in its line-confined form, so the text is not split unless a
 * match is found, and a file whose bytes lack a pattern's required literal is not even decoded.
 */
export class LineMatcher {
  private readonly compiled: Compiled[];

  constructor(specs: readonly PatternSpec[]) {
    this.compiled = specs.map((s) => ({
      scan: s.scanSource === null ? null : new RegExp(s.scanSource, s.scanFlags),
      line: new RegExp(s.source, s.flags),
      literal: s.literal === null ? null : Buffer.from(s.literal, 'utf8'),
    }));
  }

  /** False only when no pattern can match these bytes (each lacks its required literal). */
  mayMatch(bytes: Buffer): boolean {
    for (const c of this.compiled) if (c.literal === null || bytes.indexOf(c.literal) !== -1) return true;
    return false;
  }

  /** Whether one line (without its `\n`) matches any pattern. */
  matchesLine(line: string): boolean {
    return this.compiled.some((c) => c.line.test(line));
  }

  /** The first `max` matching lines, in order. */
  search(text: string, max: number): LineMatches {
    if (this.compiled.length === 1) return scanOne(this.compiled[0]!, text, max);
    const parts = this.compiled.map((c) => scanOne(c, text, max));
    const byLine = new Map<number, [number, number, number]>();
    for (const p of parts) {
      for (let i = 0; i < p.lines.length; i++) {
        const line = p.lines[i]!;
        const seen = byLine.get(line);
        if (!seen || p.cols[i]! < seen[2]) byLine.set(line, [p.starts[i]!, p.ends[i]!, p.cols[i]!]);
      }
    }
    const lines = [...byLine.keys()].sort((a, b) => a - b);
    const out: LineMatches = { lines: [], starts: [], ends: [], cols: [], exact: parts.every((p) => p.exact) && lines.length <= max };
    for (const line of lines.slice(0, max)) {
      const [start, end, col] = byLine.get(line)!;
      out.lines.push(line);
      out.starts.push(start);
      out.ends.push(end);
      out.cols.push(col);
    }
    return out;
  }
}

function scanOne(c: Compiled, text: string, max: number): LineMatches {
  const out: LineMatches = { lines: [], starts: [], ends: [], cols: [], exact: true };
  if (text.length === 0) return out;
  if (c.scan === null) return scanLines(c.line, text, max, out);
  const re = c.scan;
  re.lastIndex = 0;
  // The line cursor: `lineStart` is the start of line `lineNo`.
  let lineNo = 1;
  let lineStart = 0;
  for (;;) {
    const m = re.exec(text);
    if (m === null) break;
    const at = m.index;
    // An empty match after the final line feed is not on any line.
    if (at === text.length && text.charCodeAt(at - 1) === 10) break;
    for (;;) {
      const nl = text.indexOf('\n', lineStart);
      if (nl === -1 || nl >= at) break;
      lineStart = nl + 1;
      lineNo++;
    }
    let end = text.indexOf('\n', at);
    if (end === -1) end = text.length;
    if (out.lines.length === max) {
      out.exact = false;
      break;
    }
    out.lines.push(lineNo);
    out.starts.push(lineStart);
    out.ends.push(end);
    out.cols.push(at - lineStart);
    if (end >= text.length) break;
    re.lastIndex = end + 1;
  }
  return out;
}

/** The slow path, for a pattern whose line-confined form did not compile: one test per line. */
function scanLines(re: RegExp, text: string, max: number, out: LineMatches): LineMatches {
  let start = 0;
  for (let lineNo = 1; start < text.length; lineNo++) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const m = re.exec(text.slice(start, end));
    if (m) {
      if (out.lines.length === max) {
        out.exact = false;
        break;
      }
      out.lines.push(lineNo);
      out.starts.push(start);
      out.ends.push(end);
      out.cols.push(m.index);
    }
    start = end + 1;
  }
  return out;
}
