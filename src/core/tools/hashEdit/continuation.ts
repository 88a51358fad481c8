/**
 * Where a bracket-mode block ends; the rule is stated at the top of blocks.ts, which finds where it
 * starts. The block's own brackets close on a line, and a clause that continues the statement there
 * or on the next line with code (`} else`, `} catch (e)`, `} finally`, a do-block's `} while (…)`)
 * is taken in through its own end, or SWAP.BLK would leave the old else-branch below the new text.
 * When that end cannot be found the block is refused rather than guessed.
 *
 * Everything here reads code lines: the caller has removed comments and emptied strings, so every
 * bracket, `;` and word seen is code. Positions are 1-based lines and 0-based columns into that code.
 */

/** The lexed lines of a file, as blocks.ts provides them. */
export interface CodeSource {
  readonly lineCount: number;
  /** Line `n`'s code: comments blanked, string contents removed, indentation kept. */
  code(n: number): string;
  /** Line `n`'s indentation width, or null when the line starts inside a comment or string. */
  indent(n: number): number | null;
}

/** The last line of a bracket block, or why it could not be found (a sentence fragment). */
export type BlockEnd = { ok: true; end: number } | { ok: false; reason: string };

interface Pos {
  line: number;
  col: number;
}

/** The words that may still continue the statement: else, catch, finally, or a do-block's while. */
type Allowed = ReadonlySet<string>;

const AFTER_BLOCK: Allowed = new Set(['else', 'catch', 'finally']);
// Swift's do-blocks take `catch`, everyone else's take `while`.
const AFTER_DO: Allowed = new Set(['while', 'catch']);
const AFTER_IF: Allowed = new Set(['else']);
const AFTER_CATCH: Allowed = new Set(['catch', 'finally']);
const NOTHING: Allowed = new Set();
/** Statement heads `KW (…) statement` followed through their body inside an unbraced statement. */
const LOOP_HEADS = new Set(['for', 'foreach', 'while', 'switch']);

const OPEN = new Set(['{', '[', '(']);
const CLOSE = new Set(['}', ']', ')']);
const WORD = /^[A-Za-z_$][\w$]*/u;

/** Net bracket depth change of one line of code. */
export function depthChange(code: string): number {
  let delta = 0;
  for (const ch of code) {
    if (OPEN.has(ch)) delta++;
    else if (CLOSE.has(ch)) delta--;
  }
  return delta;
}

function leadingWord(text: string): string {
  return WORD.exec(text)?.[0] ?? '';
}

/** What may still continue the statement after a clause that starts with `rest`. */
function afterClause(allowed: Allowed, rest: string): Allowed {
  const text = rest.trimStart();
  const word = leadingWord(text);
  if (word === 'else') return leadingWord(text.slice(4).trimStart()) === 'if' ? AFTER_IF : NOTHING;
  if (word === 'catch') return AFTER_CATCH;
  if (word === 'finally' || word === 'while') return NOTHING;
  return allowed;
}

/** A continuation keyword and its line: what a refusal names. */
interface Clause {
  line: number;
  keyword: string;
}

/** Thrown inside the reader when a clause's end is not in the file (or not in a shape it knows). */
class OpenContinuation extends Error {
  constructor(clause: Clause) {
    super(`line ${clause.line} continues the statement with \`${clause.keyword}\`, whose end could not be found; use SWAP/DEL with an explicit range`);
  }
}

/**
 * The block whose brackets open on line `open` (the head line itself, or the Allman bracket line
 * after head line `head`): through the first line after which its depth is back to 0, then through
 * every continuation. `doBlock` says the head line starts with `do`.
 */
export function bracketBlockEnd(src: CodeSource, head: number, open: number, doBlock: boolean): BlockEnd {
  const closed = closeHead(src, open, doBlock ? AFTER_DO : AFTER_BLOCK);
  if (!closed) {
    return { ok: false, reason: `the block starting at line ${head} is not closed before the end of the file (unbalanced brackets); use SWAP/DEL with an explicit range` };
  }
  try {
    return { ok: true, end: new Reader(src).chain(closed.at, closed.allowed).line };
  } catch (err) {
    if (err instanceof OpenContinuation) return { ok: false, reason: err.message };
    throw err;
  }
}

/**
 * Runs the depth from line `open` until it is 0 or below at a line's end; returns the position after
 * the bracket that first brought it there on that line. Only a `}` there can be continued: a `)` or
 * `]` closes an expression (a call, a shell array), and an `else` after it is an enclosing if's.
 * Clauses met on the way where the depth touches 0 inside a line (`} else {`, `} catch (e) {`)
 * narrow what may still continue, so an if/else already complete does not take the next line's
 * `else`, which is an outer if's too.
 */
function closeHead(src: CodeSource, open: number, start: Allowed): { at: Pos; allowed: Allowed } | null {
  let depth = 0;
  let allowed = start;
  for (let n = open; n <= src.lineCount; n++) {
    const code = src.code(n);
    let closeCol = -1;
    let closer = '';
    const touches: number[] = [];
    for (let col = 0; col < code.length; col++) {
      const ch = code[col] ?? '';
      if (OPEN.has(ch)) depth++;
      else if (CLOSE.has(ch)) {
        depth--;
        if (depth <= 0 && closeCol < 0) [closeCol, closer] = [col + 1, ch];
        if (depth === 0) touches.push(col + 1);
      }
    }
    if (depth <= 0) return { at: { line: n, col: closeCol < 0 ? code.length : closeCol }, allowed: closer === '}' ? allowed : NOTHING };
    for (const col of touches) allowed = afterClause(allowed, code.slice(col));
  }
  return null;
}

/** A small recursive-descent reader over code lines; failures throw OpenContinuation. */
class Reader {
  constructor(private readonly src: CodeSource) {}

  /**
   * Follows the continuations after `from` (just past a closed clause). Returns the position just
   * past the last one, or `from` when the next code does not continue the statement.
   */
  chain(from: Pos, allowed: Allowed): Pos {
    let at = from;
    let open = allowed;
    for (;;) {
      const p = this.skip(at);
      const word = p ? this.word(p) : '';
      if (!p || !open.has(word)) return at;
      const clause: Clause = { line: p.line, keyword: word };
      const after = { line: p.line, col: p.col + word.length };
      if (word === 'else') {
        const s = this.need(after, clause);
        // An else-if chain is read in this loop rather than by recursion, so its length costs no stack.
        if (this.word(s) === 'if') {
          at = this.statement(this.condition(s, 2, clause), clause);
          open = AFTER_IF;
        } else {
          at = this.statement(s, clause);
          open = NOTHING;
        }
      } else if (word === 'catch') {
        at = this.group(this.braceAhead(after, clause), clause);
        open = AFTER_CATCH;
      } else if (word === 'finally') {
        at = this.group(this.brace(after, clause), clause);
        open = NOTHING;
      } else {
        at = this.whileCondition(after, clause);
        open = NOTHING;
      }
    }
  }

  /** One statement from `from`: braced, a nested `if`/loop/`try`/`do`, or a simple `;`-ended one. */
  private statement(from: Pos, clause: Clause): Pos {
    const s = this.need(from, clause);
    if (this.char(s) === '{') return this.group(s, clause);
    const word = this.word(s);
    if (word === 'if') return this.chain(this.statement(this.condition(s, 2, clause), clause), AFTER_IF);
    if (LOOP_HEADS.has(word)) return this.statement(this.condition(s, word.length, clause), clause);
    if (word === 'try') return this.chain(this.group(this.brace({ line: s.line, col: s.col + 3 }, clause), clause), AFTER_CATCH);
    if (word === 'do') return this.doWhile({ line: s.line, col: s.col + 2 }, clause);
    return this.simple(s, clause);
  }

  /**
   * The head `KW (…)` at `s` (KW being `length` characters): the position after its condition, which
   * is the body's start. Without parentheses (Swift, Rust, Go) the body is the first `{` ahead.
   */
  private condition(s: Pos, length: number, clause: Clause): Pos {
    const c = this.need({ line: s.line, col: s.col + length }, clause);
    return this.char(c) === '(' ? this.group(c, clause) : this.braceAhead(c, clause);
  }

  /**
   * A nested `do { … } while (…)`. An unbraced do-body is refused: its `;` would end the line-wise
   * simple statement before the `while`.
   */
  private doWhile(afterDo: Pos, clause: Clause): Pos {
    const b = this.brace(afterDo, clause);
    const w = this.need(this.group(b, clause), clause);
    if (this.word(w) !== 'while') throw new OpenContinuation(clause);
    return this.whileCondition({ line: w.line, col: w.col + 5 }, clause);
  }

  /** The `(…)` after a do-block's `while`, with its optional `;` on the same line. */
  private whileCondition(afterWhile: Pos, clause: Clause): Pos {
    const c = this.need(afterWhile, clause);
    if (this.char(c) !== '(') throw new OpenContinuation(clause);
    const end = this.group(c, clause);
    const code = this.src.code(end.line);
    const rest = code.slice(end.col).trimStart();
    return rest.startsWith(';') ? { line: end.line, col: code.length - rest.length + 1 } : end;
  }

  /**
   * An unbraced statement: through the first line that ends at depth 0 with `;`. A line that starts
   * at depth 0 no deeper than the clause's line means the statement ended without `;` (or the code
   * is something this reader does not know), and so does a closing bracket of the enclosing code.
   */
  private simple(s: Pos, clause: Clause): Pos {
    const base = this.src.indent(clause.line) ?? 0;
    let depth = 0;
    for (let n = s.line; n <= this.src.lineCount; n++) {
      const full = this.src.code(n);
      const code = n === s.line ? full.slice(s.col) : full;
      const width = this.src.indent(n);
      if (n > s.line && depth === 0 && code.trim() !== '' && width !== null && width <= base) throw new OpenContinuation(clause);
      for (const ch of code) {
        if (OPEN.has(ch)) depth++;
        else if (CLOSE.has(ch) && --depth < 0) throw new OpenContinuation(clause);
      }
      if (depth === 0 && code.trimEnd().endsWith(';')) return { line: n, col: full.length };
    }
    throw new OpenContinuation(clause);
  }

  /** `p` must be at an opening bracket: the position just past its match. */
  private group(p: Pos, clause: Clause): Pos {
    let depth = 0;
    for (let n = p.line; n <= this.src.lineCount; n++) {
      const code = this.src.code(n);
      for (let col = n === p.line ? p.col : 0; col < code.length; col++) {
        const ch = code[col] ?? '';
        if (OPEN.has(ch)) depth++;
        else if (CLOSE.has(ch) && --depth === 0) return { line: n, col: col + 1 };
      }
    }
    throw new OpenContinuation(clause);
  }

  /** The next code must be `{`: the body of a `finally`, `try` or `do`. */
  private brace(from: Pos, clause: Clause): Pos {
    const b = this.need(from, clause);
    if (this.char(b) !== '{') throw new OpenContinuation(clause);
    return b;
  }

  /** The first `{` ahead outside brackets (a catch's `(e)` or a Swift pattern come first); not past a `;`. */
  private braceAhead(from: Pos, clause: Clause): Pos {
    let depth = 0;
    for (let n = from.line; n <= this.src.lineCount; n++) {
      const code = this.src.code(n);
      for (let col = n === from.line ? from.col : 0; col < code.length; col++) {
        const ch = code[col] ?? '';
        if (ch === '{' && depth === 0) return { line: n, col };
        if (OPEN.has(ch)) depth++;
        else if ((CLOSE.has(ch) && --depth < 0) || (ch === ';' && depth === 0)) throw new OpenContinuation(clause);
      }
    }
    throw new OpenContinuation(clause);
  }

  /** The next code at or after `p` across lines, or null at the end of the file. */
  private skip(p: Pos): Pos | null {
    for (let n = p.line; n <= this.src.lineCount; n++) {
      const code = this.src.code(n);
      const from = n === p.line ? p.col : 0;
      const offset = code.slice(from).search(/\S/u);
      if (offset >= 0) return { line: n, col: from + offset };
    }
    return null;
  }

  private need(p: Pos, clause: Clause): Pos {
    const next = this.skip(p);
    if (!next) throw new OpenContinuation(clause);
    return next;
  }

  private char(p: Pos): string {
    return this.src.code(p.line)[p.col] ?? '';
  }

  private word(p: Pos): string {
    return leadingWord(this.src.code(p.line).slice(p.col));
  }
}
