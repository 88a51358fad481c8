import * as path from 'node:path';
import { bracketBlockEnd, depthChange, type CodeSource } from './continuation';

/**
 * Finds "the block that starts at line N" for SWAP.BLK, DEL.BLK and INS.BLK.POST. Two modes,
 * chosen by file extension; both are line-granular because edits replace whole lines. A block is a
 * whole statement: a clause that continues it (else, catch, …) is part of it, because replacing
 * only the first part would leave the old continuation behind the new text.
 *
 * Indentation mode (INDENT_EXTENSIONS): the block is line N plus every following line that is blank
 * or indented deeper than line N, without trailing blank lines. Indentation is measured in columns;
 * a space is one column and a tab advances to the next multiple of 8 (Python's tokenizer rule).
 * Line N must not be blank, and at least one deeper non-blank line must follow it. In Python files
 * (.py .pyi .pyw) a line at line N's own indentation that starts with `elif`, `else`, `except`
 * (or `except*`) or `finally` followed by `:`, a space or `(` joins the block with its deeper lines,
 * repeatedly (if/elif/else, try/except/else/finally, for/else, while/else). YAML and the other
 * indentation languages have no such clauses.
 *
 * Bracket mode (every other file): `{ [ (` count +1 and `} ] )` count −1, all kinds together.
 * Brackets inside "…", '…' and `…` strings, // line comments and /* *\/ comments do not count.
 * A "…" or '…' string ends at its closing quote (backslash escapes the next character); when the
 * quote has no closing partner on its line it is a plain character. Backtick strings and block
 * comments may span lines. In .rs files a ' only opens a char literal ('x', '\n', '\u{1F600}'),
 * so lifetimes like 'a are plain characters.
 *  - If line N's net depth is positive, its brackets close at the first line after which the running
 *    depth is back to 0 or below (so `if (x) {` … `} else {` … `}` closes at the last `}`).
 *  - If line N's net depth is 0 and the next non-blank line starts with an opening bracket
 *    (Allman style), they close at the line where that bracket's depth returns to 0.
 *  - Otherwise line N does not start a block. Reaching the end of the file first is an error.
 * Then, when the bracket that closed them is a `}`, the block takes in the statement's continuation
 * (continuation.ts): the code right after that `}` on its line, or else the next line with code
 * (blank and comment-only lines are skipped), starting with `else`, `catch` or `finally` — after a
 * block whose line N starts with `do`, `while` or `catch` instead. The clause runs to its own end:
 *  - `catch …`, `finally` and a braced `else` run through their body's closing bracket (which may
 *    open on the next line), and the check repeats: else-if chains, try/catch/finally;
 *  - `else if (…)` takes its body, braced or not, and the check repeats for its `else`;
 *  - an unbraced `else` statement runs through the first line that ends at depth 0 with `;`; nested
 *    `if (…)` with its elses, `for`/`foreach`/`while`/`switch (…)`, `try {…}` and `do {…} while (…)`
 *    inside it are followed through their own bodies;
 *  - a do-block's `while (…)` ends at its `)`, or at a `;` right after it on that line.
 * When the end is not found — the file ends, a closing bracket of the enclosing code comes first, a
 * line no deeper than the clause's line starts before the `;` (code without semicolons), or the
 * clause has no body — the block is refused, naming the clause's line. A chain already complete
 * inside the block (a `} else {` without `if`, a `} catch (e) {`) does not take a later `else`: that
 * is an outer if's.
 * Not recognised: regex literals, `#` comments, raw strings like r#"…"#, heredocs.
 */

export type BlockMode = 'indent' | 'bracket';

export const INDENT_EXTENSIONS: ReadonlySet<string> = new Set(['.py', '.pyi', '.pyw', '.yaml', '.yml', '.coffee', '.nim', '.sass', '.pug', '.haml']);

const PYTHON_EXTENSIONS: ReadonlySet<string> = new Set(['.py', '.pyi', '.pyw']);
/** A Python clause line that continues the compound statement at its own indentation. */
const PYTHON_CLAUSE = /^(?:elif|else|except\*?|finally)(?=[\s:(])/u;

export interface BlockOptions {
  mode: BlockMode;
  /** Rust char-literal rule for single quotes. */
  rustChars: boolean;
  /** Indentation mode takes in Python's elif/else/except/finally clauses; absent means no. */
  pythonClauses?: boolean;
}

export function blockOptionsFor(filePath: string): BlockOptions {
  const ext = path.extname(filePath).toLowerCase();
  return { mode: INDENT_EXTENSIONS.has(ext) ? 'indent' : 'bracket', rustChars: ext === '.rs', pythonClauses: PYTHON_EXTENSIONS.has(ext) };
}

/** A block as 1-based inclusive lines, or why line N does not start one (a sentence fragment). */
export type BlockResult = { ok: true; start: number; end: number } | { ok: false; reason: string };

export function findBlock(lines: readonly string[], line: number, options: BlockOptions): BlockResult {
  if (line < 1 || line > lines.length) return { ok: false, reason: `line ${line} is past the end of the file (${lines.length} lines)` };
  return options.mode === 'indent' ? findIndentBlock(lines, line, options.pythonClauses === true) : findBracketBlock(lines, line, options.rustChars);
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

function findIndentBlock(lines: readonly string[], line: number, pythonClauses: boolean): BlockResult {
  const base = indentWidth(lines[line - 1] ?? '');
  if (base === null) return { ok: false, reason: `line ${line} is blank, so it does not start an indented block` };
  let end = line;
  for (let i = line + 1; i <= lines.length; i++) {
    const text = lines[i - 1] ?? '';
    const width = indentWidth(text);
    if (width === null) continue; // blank lines stay inside; trailing ones are dropped since `end` skips them
    // A clause continues the statement only after the head's own deeper lines (the head needs them anyway).
    const clause = pythonClauses && width === base && end > line && PYTHON_CLAUSE.test(text.trimStart());
    if (width <= base && !clause) break;
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

/**
 * The code of one line, updating the multi-line state: each comment becomes one space and each
 * string just its quotes, so what is left holds only code brackets, `;` and words.
 */
function codeOf(text: string, state: ScanState, rustChars: boolean): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    if (state.inBlockComment) {
      const close = text.indexOf('*/', i);
      if (close < 0) return out;
      state.inBlockComment = false;
      out += ' ';
      i = close + 2;
      continue;
    }
    if (state.inBacktick) {
      const close = closingQuote(text, i, '`');
      if (close < 0) return out;
      state.inBacktick = false;
      out += '`';
      i = close + 1;
      continue;
    }
    const ch = text[i] ?? '';
    const next = text[i + 1];
    if (ch === '/' && next === '/') return `${out} `;
    if (ch === '/' && next === '*') {
      state.inBlockComment = true;
      i += 2;
    } else if (ch === '`') {
      state.inBacktick = true;
      out += '`';
      i += 1;
    } else if (ch === "'" && rustChars) {
      const literal = RUST_CHAR.exec(text.slice(i, i + 14));
      out += literal ? "''" : ch; // a lifetime's ' is a plain character
      i += literal ? literal[0].length : 1;
    } else if (ch === '"' || ch === "'") {
      const close = closingQuote(text, i + 1, ch);
      out += close < 0 ? ch : ch + ch; // an unclosed quote is a plain character
      i = close < 0 ? i + 1 : close + 1;
    } else {
      out += ch;
      i += 1;
    }
  }
  return out;
}

/** The file's lines lexed lazily from line `first` on, as continuation.ts reads them. */
class CodeLines implements CodeSource {
  private readonly codes: string[] = [];
  /** Whether each lexed line ends inside a block comment or backtick string. */
  private readonly insideAtEnd: boolean[] = [];
  private readonly state: ScanState = { inBlockComment: false, inBacktick: false };

  constructor(
    private readonly lines: readonly string[],
    private readonly first: number,
    private readonly rustChars: boolean,
  ) {}

  get lineCount(): number {
    return this.lines.length;
  }

  code(n: number): string {
    this.lexTo(n);
    return this.codes[n - this.first] ?? '';
  }

  indent(n: number): number | null {
    this.lexTo(n);
    if (n > this.first && this.insideAtEnd[n - this.first - 1]) return null;
    return indentWidth(this.lines[n - 1] ?? '');
  }

  /** Whether line `n` ends inside a block comment or backtick string. */
  endsInside(n: number): boolean {
    this.lexTo(n);
    return this.insideAtEnd[n - this.first] ?? false;
  }

  private lexTo(n: number): void {
    while (this.first + this.codes.length <= n && this.first + this.codes.length <= this.lines.length) {
      this.codes.push(codeOf(this.lines[this.first + this.codes.length - 1] ?? '', this.state, this.rustChars));
      this.insideAtEnd.push(this.state.inBlockComment || this.state.inBacktick);
    }
  }
}

function findBracketBlock(lines: readonly string[], line: number, rustChars: boolean): BlockResult {
  const notABlock: BlockResult = { ok: false, reason: `line ${line} does not start a block; use SWAP/DEL with an explicit range` };
  const code = new CodeLines(lines, line, rustChars);
  const head = code.code(line);
  const first = depthChange(head);
  const doBlock = /^do(?![\w$])/u.test(head.trimStart());
  let open = line;
  if (first <= 0) {
    if (first < 0 || code.endsInside(line)) return notABlock;
    open = line + 1;
    while (open <= lines.length && (lines[open - 1] ?? '').trim() === '') open++;
    const opener = (lines[open - 1] ?? '').trimStart()[0];
    if (open > lines.length || opener === undefined || !'{[('.includes(opener)) return notABlock;
  }
  const end = bracketBlockEnd(code, line, open, doBlock);
  return end.ok ? { ok: true, start: line, end: end.end } : end;
}
