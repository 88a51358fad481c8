import * as path from 'node:path';

/**
 * Finds "the block that starts at line N" for SWAP.BLK, DEL.BLK and INS.BLK.POST. Two modes,
 * chosen by file extension; both are line-granular because edits replace whole lines.
 *
 * Indentation mode (INDENT_EXTENSIONS): the block is line N plus every following line that is blank
 * or indented deeper than line N, without trailing blank lines. Indentation is measured in columns;
 * a space is one column and a tab advances to the next multiple of 8 (Python's tokenizer rule).
 * Line N must not be blank, and at least one deeper non-blank line must follow it.
 *
 * Bracket mode (every other file): `{ [ (` count +1 and `} ] )` count −1, all kinds together.
 * Brackets inside "…", '…' and `…` strings, // line comments and /* *\/ comments do not count.
 * A "…" or '…' string ends at its closing quote (backslash escapes the next character); when the
 * quote has no closing partner on its line it is a plain character. Backtick strings and block
 * comments may span lines. In .rs files a ' only opens a char literal ('x', '\n', '\u{1F600}'),
 * so lifetimes like 'a are plain characters.
 *  - If line N's net depth is positive, the block ends at the first line after which the running
 *    depth is back to 0 or below (so `if (x) {` … `} else {` … `}` is one block).
 *  - If line N's net depth is 0 and the next non-blank line starts with an opening bracket
 *    (Allman style), the block runs from N through the line where that bracket's depth returns to 0.
 *  - Otherwise line N does not start a block. Reaching the end of the file first is an error.
 * Not recognised: regex literals, `#` comments, raw strings like r#"…"#, heredocs.
 */

export type BlockMode = 'indent' | 'bracket';

export const INDENT_EXTENSIONS: ReadonlySet<string> = new Set(['.py', '.pyi', '.pyw', '.yaml', '.yml', '.coffee', '.nim', '.sass', '.pug', '.haml']);

export interface BlockOptions {
  mode: BlockMode;
  /** Rust char-literal rule for single quotes. */
  rustChars: boolean;
}

export function blockOptionsFor(filePath: string): BlockOptions {
  const ext = path.extname(filePath).toLowerCase();
  return { mode: INDENT_EXTENSIONS.has(ext) ? 'indent' : 'bracket', rustChars: ext === '.rs' };
}

/** A block as 1-based inclusive lines, or why line N does not start one (a sentence fragment). */
export type BlockResult = { ok: true; start: number; end: number } | { ok: false; reason: string };

export function findBlock(lines: readonly string[], line: number, options: BlockOptions): BlockResult {
  if (line < 1 || line > lines.length) return { ok: false, reason: `line ${line} is past the end of the file (${lines.length} lines)` };
  return options.mode === 'indent' ? findIndentBlock(lines, line) : findBracketBlock(lines, line, options.rustChars);
}

/** Column width of the leading whitespace, or null for a blank line. */
export function indentWidth(text: string): number | null {
  let col = 0;
  for (const ch of text) {
    if (ch === ' ') col += 1;
    else if (ch === '\t') col += 8 - (col % 8);
    else if (ch === '\f' || ch === '\v') continue;
    else return col;
  }
  return null;
}

function findIndentBlock(lines: readonly string[], line: number): BlockResult {
  const base = indentWidth(lines[line - 1] ?? '');
  if (base === null) return { ok: false, reason: `line ${line} is blank, so it does not start an indented block` };
  let end = line;
  for (let i = line + 1; i <= lines.length; i++) {
    const width = indentWidth(lines[i - 1] ?? '');
    if (width === null) continue; // blank lines stay inside; trailing ones are dropped since `end` skips them
    if (width <= base) break;
    end = i;
  }
  if (end === line) return { ok: false, reason: `line ${line} does not start an indented block (no deeper-indented line follows it)` };
  return { ok: true, start: line, end };
}

/** Multi-line lexical state carried from one line to the next. */
interface ScanState {
  inBlockComment: boolean;
  inBacktick: boolean;
}

const OPEN = new Set(['{', '[', '(']);
const CLOSE = new Set(['}', ']', ')']);
/** A Rust char literal at the start of the string: 'x', '\n', '\x7f', '\u{1F600}'. */
const RUST_CHAR = /^'(?:\\(?:x[0-9a-fA-F]{2}|u\{[0-9a-fA-F]{1,6}\}|.)|[^'\\])'/u;

/** Index of the closing `quote` from `from`, honouring backslash escapes; -1 when the line ends first. */
function closingQuote(text: string, from: number, quote: string): number {
  for (let i = from; i < text.length; i++) {
    const ch = text[i];
    if (ch === '\\') i++;
    else if (ch === quote) return i;
  }
  return -1;
}

/** Net bracket depth change of one line, updating the multi-line state. */
export function scanLine(text: string, state: ScanState, rustChars: boolean): number {
  let delta = 0;
  let i = 0;
  while (i < text.length) {
    if (state.inBlockComment) {
      const close = text.indexOf('*/', i);
      if (close < 0) return delta;
      state.inBlockComment = false;
      i = close + 2;
      continue;
    }
    if (state.inBacktick) {
      const close = closingQuote(text, i, '`');
      if (close < 0) return delta;
      state.inBacktick = false;
      i = close + 1;
      continue;
    }
    const ch = text[i] ?? '';
    const next = text[i + 1];
    if (ch === '/' && next === '/') return delta;
    if (ch === '/' && next === '*') {
      state.inBlockComment = true;
      i += 2;
    } else if (ch === '`') {
      state.inBacktick = true;
      i += 1;
    } else if (ch === '"' || ch === "'") {
      if (ch === "'" && rustChars) {
        const literal = RUST_CHAR.exec(text.slice(i, i + 14));
        i += literal ? literal[0].length : 1;
        continue;
      }
      const close = closingQuote(text, i + 1, ch);
      i = close < 0 ? i + 1 : close + 1; // an unclosed quote is a plain character
    } else {
      if (OPEN.has(ch)) delta++;
      else if (CLOSE.has(ch)) delta--;
      i += 1;
    }
  }
  return delta;
}

/** Runs the depth from `from` until it is back to 0 or below after a line; the end line or null at EOF. */
function closeDepth(lines: readonly string[], from: number, depth: number, state: ScanState, rustChars: boolean): number | null {
  let running = depth;
  for (let i = from; i <= lines.length; i++) {
    running += scanLine(lines[i - 1] ?? '', state, rustChars);
    if (running <= 0) return i;
  }
  return null;
}

function findBracketBlock(lines: readonly string[], line: number, rustChars: boolean): BlockResult {
  const notABlock: BlockResult = { ok: false, reason: `line ${line} does not start a block; use SWAP/DEL with an explicit range` };
  const unbalanced: BlockResult = { ok: false, reason: `the block starting at line ${line} is not closed before the end of the file (unbalanced brackets); use SWAP/DEL with an explicit range` };
  const state: ScanState = { inBlockComment: false, inBacktick: false };
  const first = scanLine(lines[line - 1] ?? '', state, rustChars);
  if (first > 0) {
    const end = closeDepth(lines, line + 1, first, state, rustChars);
    return end === null ? unbalanced : { ok: true, start: line, end };
  }
  if (first < 0 || state.inBlockComment || state.inBacktick) return notABlock;
  let next = line + 1;
  while (next <= lines.length && (lines[next - 1] ?? '').trim() === '') next++;
  const opener = (lines[next - 1] ?? '').trimStart()[0];
  if (next > lines.length || opener === undefined || !OPEN.has(opener)) return notABlock;
  const end = closeDepth(lines, next, 0, state, rustChars);
  return end === null ? unbalanced : { ok: true, start: line, end };
}
