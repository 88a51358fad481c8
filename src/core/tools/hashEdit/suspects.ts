import { ToolError } from '../errors';
import type { SnapshotStore } from '../snapshots';
import { opLabel, type LineOp, type Section } from './parser';
import type { Edit, Span } from './plan';

/**
 * Two mistakes models make that the grammar cannot tell from a real edit, caught by their common
 * signature and refused once: body rows that copied read's `LINE:` prefix, and a SWAP whose body is
 * an edit of lines a few rows away from the range it names (a miscounted line number). Sending the
 * very same section again is taken as meant, so a deliberate edit is never blocked.
 */

/** How far away (in lines) a miscounted range is looked for. */
const SHIFT_REACH = 5;
/**
 * A miscount: the rows nearly match other lines (NEAR_MATCH) while being unrelated to the named ones
 * (below UNRELATED), or they are all but a copy of other lines (CLOSE_COPY) while the named ones only
 * look alike (a list of similar rows); either way at least MARGIN more similar to the other lines.
 */
const UNRELATED = 0.5;
const NEAR_MATCH = 0.6;
const CLOSE_COPY = 0.9;
const MARGIN = 0.3;
/** Bodies shorter than this (non-space characters) say too little to judge. */
const MIN_SIGNAL = 6;

/** read numbers rows without leading zeros, so `08:30` is not a copied prefix. */
const PREFIX = /^([1-9]\d*):/;

/** Identifies a section across calls: same tag, same ops, same bodies. */
export function sectionKey(section: Section): string {
  return `${section.tag}\n${JSON.stringify(section.ops.map(({ inputLine: _, ...rest }) => rest))}`;
}

/** Refuses the first suspicious op of a section unless this very section was refused before. */
export function checkSuspects(edits: readonly Edit[], lines: readonly string[], visible: ReadonlySet<number>, section: Section, canonical: string, store: SnapshotStore): void {
  const key = sectionKey(section);
  if (store.wasWarned(canonical, key)) return;
  for (const edit of edits) {
    const message = copiedPrefix(edit, lines.length) ?? miscounted(edit, lines, visible);
    if (!message) continue;
    store.warn(canonical, key);
    throw new ToolError(`hash_edit: [${section.path}] input line ${edit.op.inputLine} (${opLabel(edit.op)}): ${message.text}`, message.code);
  }
}

interface Suspicion {
  text: string;
  code: 'line_prefix' | 'suspect_range';
}

/** Lines near which copied row numbers would start: the anchored lines, or the file's ends. */
function anchorOf(edit: Edit, lineCount: number): Span {
  if (edit.anchored) return edit.anchored;
  return edit.op.kind === 'INS.HEAD' ? { start: 1, end: 1 } : { start: lineCount, end: lineCount + 1 };
}

function copiedPrefix(edit: Edit, lineCount: number): Suspicion | undefined {
  const numbers: number[] = [];
  for (const row of edit.body) {
    const match = PREFIX.exec(row);
    if (!match) return undefined;
    numbers.push(Number(match[1]));
  }
  const first = numbers[0];
  if (first === undefined || numbers.some((n, i) => n !== first + i)) return undefined;
  const anchor = anchorOf(edit, lineCount);
  if (first < anchor.start - 2 || first > anchor.end + 2) return undefined;
  const sample = edit.body[0] ?? '';
  return {
    code: 'line_prefix',
    text: `every body row starts with a line number and ':' (${JSON.stringify(clip(sample))}), copied from read's LINE:TEXT rows; drop the LINE: prefix and write +TEXT only (+${clip(sample.replace(PREFIX, ''))}, not +${clip(sample)}). If the new lines really start with those digits, send the same call again to apply it as written.`,
  };
}

/**
 * A SWAP whose body rows, one by one, have almost nothing in common with the lines they replace,
 * while the same rows nearly match the same number of lines 1-5 rows away. Rows are compared in
 * pairs, so a range that overlaps the meant one (a miscount smaller than the range) still counts as
 * unrelated; only bodies of the range's own size are judged, since a body that adds or drops lines
 * beside similar ones is an ordinary edit too often.
 */
function miscounted(edit: Edit, lines: readonly string[], visible: ReadonlySet<number>): Suspicion | undefined {
  const op: LineOp = edit.op;
  if (op.kind !== 'SWAP' || edit.body.length !== op.end - op.start + 1) return undefined;
  const body = edit.body.map((row) => profile(row));
  if (body.reduce((sum, row) => sum + row.signal, 0) < MIN_SIGNAL) return undefined;
  const cache = new Map<number, Profile>();
  const lineProfile = (line: number): Profile => {
    let known = cache.get(line);
    if (!known) cache.set(line, (known = profile(lines[line - 1] ?? '')));
    return known;
  };
  const score = (start: number): number => pairedDice(body, (i) => lineProfile(start + i));
  const named = score(op.start);
  if (named > CLOSE_COPY - MARGIN) return undefined;
  let best: { start: number; score: number } | undefined;
  for (let distance = 1; distance <= SHIFT_REACH; distance++) {
    for (const start of [op.start - distance, op.start + distance]) {
      const end = start + op.end - op.start;
      if (start < 1 || end > lines.length || !allVisible(visible, start, end)) continue;
      const value = score(start);
      if (!best || value > best.score) best = { start, score: value };
    }
  }
  if (!best || best.score - named < MARGIN || !(best.score >= CLOSE_COPY || (best.score >= NEAR_MATCH && named < UNRELATED))) return undefined;
  const size = op.end - op.start;
  const label = size === 0 ? `SWAP ${best.start}` : `SWAP ${best.start}.=${best.start + size}`;
  const nameLines = (start: number): string => (size === 0 ? `line ${start}` : `lines ${start}-${start + size}`);
  return {
    code: 'suspect_range',
    text: `the body shares almost nothing with ${nameLines(op.start)} (${JSON.stringify(clip(lines[op.start - 1] ?? ''))}) but nearly matches ${nameLines(best.start)} (${JSON.stringify(clip(lines[best.start - 1] ?? ''))}): did you mean \`${label}\`? Take line numbers from the LINE:TEXT rows of your read. If ${nameLines(op.start)} is really what you meant to replace, send the same call again to apply it as written.`,
  };
}

function allVisible(visible: ReadonlySet<number>, start: number, end: number): boolean {
  for (let line = start; line <= end; line++) if (!visible.has(line)) return false;
  return true;
}

function clip(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * Character bigrams of a row with indentation and runs of spaces ignored, as sorted numbers (two
 * UTF-16 units each), so comparing two profiles is one merge without building strings.
 */
interface Profile {
  grams: Uint32Array;
  signal: number;
}

function profile(row: string): Profile {
  const codes: number[] = [];
  let signal = 0;
  let previous = -1;
  let space = false;
  for (let i = 0; i < row.length; i++) {
    const code = row.charCodeAt(i);
    if (code === 32 || code === 9 || code === 11 || code === 12 || code === 13 || code === 0xa0) {
      space = true;
      continue;
    }
    // Leading spaces are dropped; an inner run of them counts as one.
    if (space && previous !== -1) previous = pushGram(codes, previous, 32);
    space = false;
    previous = pushGram(codes, previous, code);
    signal++;
  }
  return { grams: Uint32Array.from(codes).sort(), signal };
}

function pushGram(codes: number[], previous: number, code: number): number {
  if (previous !== -1) codes.push(previous * 65536 + code);
  return code;
}

function sharedGrams(x: Uint32Array, y: Uint32Array): number {
  let shared = 0;
  for (let i = 0, j = 0; i < x.length && j < y.length; ) {
    const p = x[i] ?? 0;
    const q = y[j] ?? 0;
    if (p === q) {
      shared++;
      i++;
      j++;
    } else if (p < q) i++;
    else j++;
  }
  return shared;
}

/** Sørensen–Dice similarity of rows paired in order (bigrams shared within each pair), 0..1. */
function pairedDice(rows: readonly Profile[], other: (index: number) => Profile): number {
  let shared = 0;
  let total = 0;
  rows.forEach((row, i) => {
    const that = other(i);
    shared += sharedGrams(row.grams, that.grams);
    total += row.grams.length + that.grams.length;
  });
  return total === 0 ? 1 : (2 * shared) / total;
}
