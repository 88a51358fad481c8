import { ToolError } from '../errors';
import { findBlock, type BlockOptions } from './blocks';
import { opLabel, type LineOp } from './parser';

/**
 * Turns a section's line ops into edits against one version of the file (line numbers never shift
 * within a call: all of them refer to that version), and rejects ops that collide.
 */

/** 1-based inclusive line span. */
export interface Span {
  start: number;
  end: number;
}

/**
 * One edit: replaces old lines `from+1 .. to` (0-based half-open `[from, to)`) with `body`.
 * An insert has `from === to`: its body goes into the gap after old line `from` (0 = file start).
 */
export interface Edit {
  op: LineOp;
  from: number;
  to: number;
  body: readonly string[];
  /** Old lines whose text the op relies on (must be visible, and unchanged for stale recovery). */
  anchored: Span | null;
  /** For inserts anchored to a line: that line, which no other op of the section may replace. */
  keep: number | null;
}

export interface PlanContext {
  /** Section path as written, for messages. */
  path: string;
  block: BlockOptions;
}

function where(ctx: PlanContext, op: LineOp): string {
  return `hash_edit: [${ctx.path}] input line ${op.inputLine} (${opLabel(op)})`;
}

function checkLine(line: number, lineCount: number, ctx: PlanContext, op: LineOp): void {
  if (line > lineCount) {
    throw new ToolError(`${where(ctx, op)}: line ${line} is past the end of the file, which has ${lineCount} line${lineCount === 1 ? '' : 's'} under this tag. Use line numbers from the read output.`);
  }
}

function blockOf(lines: readonly string[], line: number, ctx: PlanContext, op: LineOp): Span {
  checkLine(line, lines.length, ctx, op);
  const block = findBlock(lines, line, ctx.block);
  if (!block.ok) throw new ToolError(`${where(ctx, op)}: ${block.reason}.`);
  return { start: block.start, end: block.end };
}

/** Resolves one op against the file's lines. Throws ToolError for out-of-range lines and non-blocks. */
export function resolveOp(op: LineOp, lines: readonly string[], ctx: PlanContext): Edit {
  const n = lines.length;
  switch (op.kind) {
    case 'SWAP':
    case 'DEL':
      checkLine(op.end, n, ctx, op);
      return { op, from: op.start - 1, to: op.end, body: op.kind === 'SWAP' ? op.body : [], anchored: { start: op.start, end: op.end }, keep: null };
    case 'INS.PRE':
      checkLine(op.line, n, ctx, op);
      return { op, from: op.line - 1, to: op.line - 1, body: op.body, anchored: { start: op.line, end: op.line }, keep: op.line };
    case 'INS.POST':
      checkLine(op.line, n, ctx, op);
      return { op, from: op.line, to: op.line, body: op.body, anchored: { start: op.line, end: op.line }, keep: op.line };
    case 'INS.HEAD':
      return { op, from: 0, to: 0, body: op.body, anchored: null, keep: null };
    case 'INS.TAIL':
      return { op, from: n, to: n, body: op.body, anchored: null, keep: null };
    case 'SWAP.BLK':
    case 'DEL.BLK': {
      const block = blockOf(lines, op.line, ctx, op);
      return { op, from: block.start - 1, to: block.end, body: op.kind === 'SWAP.BLK' ? op.body : [], anchored: block, keep: null };
    }
    case 'INS.BLK.POST': {
      const block = blockOf(lines, op.line, ctx, op);
      return { op, from: block.end, to: block.end, body: op.body, anchored: block, keep: block.end };
    }
  }
}

/** Apply order: by position; at one position an insert (empty range) comes before a replacement. */
export function sortEdits(edits: readonly Edit[]): Edit[] {
  return [...edits].sort((a, b) => a.from - b.from || a.to - b.to);
}

function spanText(from: number, to: number): string {
  return to - from === 1 ? `line ${to}` : `lines ${from + 1}-${to}`;
}

function describe(edit: Edit): string {
  const what = edit.from === edit.to ? `inserts after line ${edit.from}` : `changes ${spanText(edit.from, edit.to)}`;
  return `${opLabel(edit.op)} (input line ${edit.op.inputLine}, ${what})`;
}

/**
 * Rejects collisions: replaced ranges that share a line, two inserts at the same position (e.g.
 * INS.POST 4 and INS.PRE 5), and an insert whose anchor line another op replaces. Returns the
 * edits in apply order.
 */
export function checkOverlaps(edits: readonly Edit[], path: string): Edit[] {
  const sorted = sortEdits(edits);
  const ranges = sorted.filter((e) => e.to > e.from);
  const collide = (a: Edit, b: Edit, advice: string): never => {
    throw new ToolError(`hash_edit: [${path}] ${describe(a)} and ${describe(b)} overlap; ${advice}`);
  };
  for (let i = 1; i < ranges.length; i++) {
    const prev = ranges[i - 1];
    const next = ranges[i];
    if (prev && next && prev.to > next.from) collide(prev, next, 'line numbers refer to the tagged version and do not shift, so merge them into one op or make the ranges disjoint.');
  }
  let previousInsert: Edit | undefined;
  for (const edit of sorted) {
    if (edit.from !== edit.to) continue;
    if (previousInsert && previousInsert.from === edit.from) collide(previousInsert, edit, 'both insert at the same position; put all the new lines under one op.');
    previousInsert = edit;
    const keep = edit.keep;
    if (keep === null) continue;
    const hit = rangeContaining(ranges, keep - 1);
    if (hit) collide(hit, edit, `the insert is anchored to line ${keep}, which the other op replaces; include the new lines in that op's body instead.`);
  }
  return sorted;
}

/** The range (sorted, disjoint) containing 0-based old line `index`, by binary search. */
function rangeContaining(ranges: readonly Edit[], index: number): Edit | undefined {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const range = ranges[mid];
    if (!range) return undefined;
    if (index < range.from) hi = mid - 1;
    else if (index >= range.to) lo = mid + 1;
    else return range;
  }
  return undefined;
}

/** Resolves and collision-checks a section's line ops against `lines`; edits in apply order. */
export function planEdits(ops: readonly LineOp[], lines: readonly string[], ctx: PlanContext): Edit[] {
  return checkOverlaps(ops.map((op) => resolveOp(op, lines, ctx)), ctx.path);
}
