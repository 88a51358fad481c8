import { ToolError } from '../errors';

/**
 * Parses the `hash_edit` input text into file sections and ops. Pure: no file is looked at here,
 * so every grammar mistake is reported before anything else happens, naming the input line.
 */

/** Ops whose rows under them (`+TEXT`) are the new text. */
export type BodyOpKind = 'SWAP' | 'INS.PRE' | 'INS.POST' | 'INS.HEAD' | 'INS.TAIL' | 'SWAP.BLK' | 'INS.BLK.POST';
export type OpKind = BodyOpKind | 'DEL' | 'DEL.BLK' | 'MV' | 'REM';

interface OpBase {
  /** 1-based line of the op in the input text, for error messages. */
  inputLine: number;
}

export type LineOp =
  | (OpBase & { kind: 'SWAP'; start: number; end: number; body: string[] })
  | (OpBase & { kind: 'DEL'; start: number; end: number })
  | (OpBase & { kind: 'INS.PRE' | 'INS.POST' | 'SWAP.BLK' | 'INS.BLK.POST'; line: number; body: string[] })
  | (OpBase & { kind: 'DEL.BLK'; line: number })
  | (OpBase & { kind: 'INS.HEAD' | 'INS.TAIL'; body: string[] });

export type FileOp = (OpBase & { kind: 'MV'; dest: string }) | (OpBase & { kind: 'REM' });

export type Op = LineOp | FileOp;

export interface Section {
  /** The path exactly as written in the header. */
  path: string;
  /** The header's tag, uppercased (tags are uppercase hex, as `contentTag` makes them). */
  tag: string;
  /** Input line of the header. */
  inputLine: number;
  ops: Op[];
}

/** Count limits of one call, so a runaway input fails fast instead of locking many files. */
export const MAX_SECTIONS = 32;
export const MAX_OPS = 2000;

type ArgShape = 'range' | 'line' | 'none';
const OP_SHAPES: Record<Exclude<OpKind, 'MV'>, { body: boolean; arg: ArgShape }> = {
  SWAP: { body: true, arg: 'range' },
  DEL: { body: false, arg: 'range' },
  'INS.PRE': { body: true, arg: 'line' },
  'INS.POST': { body: true, arg: 'line' },
  'INS.HEAD': { body: true, arg: 'none' },
  'INS.TAIL': { body: true, arg: 'none' },
  'SWAP.BLK': { body: true, arg: 'line' },
  'DEL.BLK': { body: false, arg: 'line' },
  'INS.BLK.POST': { body: true, arg: 'line' },
  REM: { body: false, arg: 'none' },
};
const KNOWN_OPS = 'SWAP, SWAP.BLK, DEL, DEL.BLK, INS.PRE, INS.POST, INS.BLK.POST, INS.HEAD, INS.TAIL, MV, REM';

function fail(inputLine: number, message: string, section?: Section): never {
  const where = section ? `[${section.path}] input line ${inputLine}` : `input line ${inputLine}`;
  throw new ToolError(`hash_edit: ${where}: ${message}`);
}

/** Parses `[PATH#TAG]`; the last `#` separates the tag so paths may contain `#`. */
function parseHeader(text: string, inputLine: number): Section {
  const hash = text.lastIndexOf('#');
  if (!text.endsWith(']') || hash < 0) {
    fail(inputLine, `malformed header ${JSON.stringify(text)}; a section starts with [PATH#TAG] exactly as the read header showed it.`);
  }
  const path = text.slice(1, hash).trim();
  const tag = text.slice(hash + 1, -1).trim();
  if (path === '') fail(inputLine, 'the header has an empty path; write [PATH#TAG].');
  if (!/^[0-9A-Fa-f]+$/.test(tag)) {
    fail(inputLine, `the header tag ${JSON.stringify(tag)} is not a hex tag; tags are six hex digits (like 3FA9C1): copy TAG from the read header [path#TAG] of this file.`);
  }
  return { path, tag: tag.toUpperCase(), inputLine, ops: [] };
}

function parseLineNumber(text: string, inputLine: number, section: Section): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < 1) {
    fail(inputLine, `${JSON.stringify(text)} is not a line number; line numbers are 1-based integers from the read output.`, section);
  }
  return value;
}

/** `A.=B` or `N`; other range spellings get a hint because models often write `A-B`. */
function parseRange(text: string, inputLine: number, section: Section): { start: number; end: number } {
  const m = /^(\d+)(?:\s*\.=\s*(\d+))?$/.exec(text);
  if (!m) fail(inputLine, `bad range ${JSON.stringify(text)}; write a range as A.=B (e.g. SWAP 3.=5:) or a single line as N.`, section);
  const start = parseLineNumber(m[1] ?? '', inputLine, section);
  const end = m[2] === undefined ? start : parseLineNumber(m[2], inputLine, section);
  if (end < start) fail(inputLine, `range ${start}.=${end} ends before it starts; write A.=B with A <= B.`, section);
  return { start, end };
}

function parseOp(text: string, inputLine: number, section: Section): Op {
  // MV first: its destination is free text that may itself end in ':'.
  if (text === 'MV' || /^MV\s/.test(text)) {
    const dest = text.slice(2).trim();
    if (dest === '') fail(inputLine, 'MV needs a destination path: MV DEST.', section);
    return { kind: 'MV', dest, inputLine };
  }
  const hasColon = text.endsWith(':');
  const core = hasColon ? text.slice(0, -1).trimEnd() : text;
  const space = core.search(/\s/);
  const keyword = space < 0 ? core : core.slice(0, space);
  const arg = space < 0 ? '' : core.slice(space).trim();
  const shape = (OP_SHAPES as Record<string, { body: boolean; arg: ArgShape } | undefined>)[keyword];
  if (!shape) {
    fail(inputLine, `${JSON.stringify(text)} is not an op (known ops: ${KNOWN_OPS}). If it is meant as new text, prefix it with '+'.`, section);
  }
  if (shape.body && !hasColon) fail(inputLine, `${keyword} takes a body: end the op line with ':' and put +TEXT rows under it.`, section);
  if (!shape.body && hasColon) fail(inputLine, `${keyword} takes no body; remove the ':'.`, section);
  if (shape.arg === 'none' && arg !== '') fail(inputLine, `${keyword} takes no line number.`, section);
  if (shape.arg !== 'none' && arg === '') fail(inputLine, `${keyword} needs ${shape.arg === 'range' ? 'a line or range A.=B' : 'a line number'}.`, section);

  const kind = keyword as Exclude<OpKind, 'MV'>;
  switch (kind) {
    case 'SWAP':
      return { kind, ...parseRange(arg, inputLine, section), body: [], inputLine };
    case 'DEL':
      return { kind, ...parseRange(arg, inputLine, section), inputLine };
    case 'INS.PRE':
    case 'INS.POST':
    case 'SWAP.BLK':
    case 'INS.BLK.POST':
      return { kind, line: parseLineNumber(arg, inputLine, section), body: [], inputLine };
    case 'DEL.BLK':
      return { kind, line: parseLineNumber(arg, inputLine, section), inputLine };
    case 'INS.HEAD':
    case 'INS.TAIL':
      return { kind, body: [], inputLine };
    case 'REM':
      return { kind, inputLine };
  }
}

function bodyOf(op: Op): string[] | undefined {
  return 'body' in op ? op.body : undefined;
}

/** Whether a row reads as an op line or a header rather than as text that lost its '+'. */
function isOpOrHeader(text: string): boolean {
  const keyword = /^\S+/.exec(text)?.[0].replace(/:$/, '') ?? '';
  return text.startsWith('[') || keyword === 'MV' || keyword in OP_SHAPES;
}

/**
 * An op that takes a body must have one. `rows` and `next` (0-based index of the row after the op's
 * rows) let the message name the rows below it that look like its text without the '+'.
 */
function closeBody(op: Op | undefined, section: Section | undefined, rows: readonly string[], next: number): void {
  const body = op && bodyOf(op);
  if (!op || !body || body.length > 0) return;
  let end = next;
  while (end < rows.length && (rows[end] ?? '').trim() !== '' && !isOpOrHeader((rows[end] ?? '').trim())) end++;
  if (end > next) {
    const which = end - next === 1 ? `input line ${next + 1} below it does` : `input lines ${next + 1}-${end} below it do`;
    fail(op.inputLine, `${op.kind} has no +TEXT body rows: ${which} not start with '+'. Write each new line as +TEXT (+ then the line exactly, indentation included; a bare + is an empty line).`, section);
  }
  const hint = op.kind === 'SWAP' || op.kind === 'SWAP.BLK' ? `; to remove lines use ${op.kind === 'SWAP' ? 'DEL' : 'DEL.BLK'} instead` : '';
  fail(op.inputLine, `${op.kind} has no +TEXT body rows${hint}. Write each new line as +TEXT (a bare + is an empty line).`, section);
}

function closeSection(section: Section | undefined): void {
  if (!section) return;
  if (section.ops.length === 0) fail(section.inputLine, `section [${section.path}#${section.tag}] has no ops.`);
  const fileOp = section.ops.find((op) => op.kind === 'MV' || op.kind === 'REM');
  if (fileOp && section.ops.length > 1) {
    fail(fileOp.inputLine, `${fileOp.kind} must be the only op of its section; edit the file in one call and ${fileOp.kind === 'MV' ? 'move' : 'remove'} it in another.`, section);
  }
}

/**
 * Splits the input into sections. Rows starting with '+' belong to the op directly above (or to
 * the body rows directly above it); fully blank lines between ops are ignored but end a body.
 * Throws ToolError('invalid_input') naming the input line of the first mistake.
 */
export function parseInput(input: string): Section[] {
  const sections: Section[] = [];
  let section: Section | undefined;
  let open: Op | undefined; // the op whose body rows are being collected
  let opCount = 0;
  const rows = input.split(/\r?\n/);
  // A trailing newline at the end of the input is not an extra (blank) row.
  if (rows.length > 1 && rows[rows.length - 1] === '') rows.pop();

  rows.forEach((row, index) => {
    const inputLine = index + 1;
    if (row.startsWith('+')) {
      const body = open && bodyOf(open);
      if (!body) {
        fail(inputLine, "a +TEXT row must directly follow an op ending in ':' or another +TEXT row (a blank line ends a body; write a bare + for an empty line).", section);
      }
      if (row.includes('\r')) fail(inputLine, 'body rows must not contain a carriage return; line endings are chosen by hash_edit.', section);
      body.push(row.slice(1));
      return;
    }
    closeBody(open, section, rows, index);
    open = undefined;
    const text = row.trim();
    if (text === '') return;
    if (text.startsWith('[')) {
      closeSection(section);
      if (sections.length >= MAX_SECTIONS) fail(inputLine, `too many file sections; one call edits at most ${MAX_SECTIONS} files.`);
      section = parseHeader(text, inputLine);
      sections.push(section);
      return;
    }
    if (!section) fail(inputLine, `expected a [PATH#TAG] header before ${JSON.stringify(text)}; every section starts with the header from the read output.`);
    if (++opCount > MAX_OPS) fail(inputLine, `too many ops; one call applies at most ${MAX_OPS}.`, section);
    const op = parseOp(text, inputLine, section);
    section.ops.push(op);
    if (bodyOf(op)) open = op;
  });
  closeBody(open, section, rows, rows.length);
  closeSection(section);
  if (sections.length === 0) throw new ToolError('hash_edit: the input has no [PATH#TAG] section; start with the header from the read output, then ops.');
  return sections;
}

/** The op as written (without body), for messages: `SWAP 3.=5`, `INS.POST 7`, `MV dest`. */
export function opLabel(op: Op): string {
  switch (op.kind) {
    case 'SWAP':
    case 'DEL':
      return op.start === op.end ? `${op.kind} ${op.start}` : `${op.kind} ${op.start}.=${op.end}`;
    case 'INS.PRE':
    case 'INS.POST':
    case 'SWAP.BLK':
    case 'INS.BLK.POST':
    case 'DEL.BLK':
      return `${op.kind} ${op.line}`;
    case 'MV':
      return `MV ${op.dest}`;
    case 'INS.HEAD':
    case 'INS.TAIL':
    case 'REM':
      return op.kind;
  }
}
