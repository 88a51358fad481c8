/**
 * A lenient tokenizer for JavaScript regular expressions in Unicode (`u`) mode. It never throws:
 * what JavaScript would reject comes out as its own token kind (a lone brace, a needless escape,
 * an unclosed class …) so that the repairs can fix exactly those, and the line-confining rewrite
 * and the literal extraction can work on patterns that are known to compile.
 */

export type TokenKind =
  /** A literal character; `value` is the character (one code point). */
  | 'char'
  /** `\` + ASCII punctuation that u-mode rejects (`\'`, `\-`, `\:` …); `value` is the character. */
  | 'needless-escape'
  /** `\` + a letter JavaScript does not know (`\A`, `\z`, `\e` …), or a trailing backslash. */
  | 'bad-escape'
  /** `[...]`, brackets included; `negated` tells `[^...]`. */
  | 'class'
  /** A `[` whose class never closes. */
  | 'unclosed-class'
  /** `\d \D \w \W \s \S \p{…} \P{…}`. */
  | 'class-escape'
  | 'dot'
  /** `^` */
  | 'bol'
  /** `$` */
  | 'eol'
  /** `\b`, `\B` */
  | 'boundary'
  /** `(`, `(?:`, `(?=`, `(?!`, `(?<=`, `(?<!`, `(?<name>`, `(?i:` … */
  | 'group-open'
  /** Python's and Rust's `(?P<name>`; `value` is the name. */
  | 'python-group'
  /** Python's `(?P=name)`; `value` is the name. */
  | 'python-backref'
  /** A whole `(?flags)` group; `value` is the flags. */
  | 'inline-flags'
  | 'group-close'
  | 'alt'
  /** `* + ? {n} {n,} {n,m}`, with an optional lazy `?`; `min` is the least repetition count. */
  | 'quant'
  /** A `{` or `}` that is not part of a quantifier. */
  | 'brace'
  /** A `]` outside any class. */
  | 'bracket'
  /** `\1`, `\k<name>` */
  | 'backref';

export interface Token {
  kind: TokenKind;
  /** The pattern text of the token. */
  text: string;
  /** Index of the token in the pattern, for messages. */
  start: number;
  value?: string;
  min?: number;
  negated?: boolean;
}

const SYNTAX = new Set('^$\\.*+?()[]{}|/');
const ASCII_PUNCT = /^[!-/:-@[-`{-~]$/;
const HEX = /^[0-9a-fA-F]$/;

function isHex(s: string | undefined, n: number): boolean {
  if (s === undefined || s.length !== n) return false;
  for (const c of s) if (!HEX.test(c)) return false;
  return true;
}

/** The escape at `s[i] === '\\'`: its token kind, end index and literal value. */
function escapeAt(s: string, i: number, inClass: boolean): { kind: TokenKind; end: number; value?: string } {
  const n = s[i + 1];
  if (n === undefined) return { kind: 'bad-escape', end: i + 1 };
  if ((n === 'p' || n === 'P') && s[i + 2] === '{') {
    const close = s.indexOf('}', i + 3);
    return close === -1 ? { kind: 'bad-escape', end: i + 2 } : { kind: 'class-escape', end: close + 1 };
  }
  if ('dDwWsS'.includes(n)) return { kind: 'class-escape', end: i + 2 };
  if (n === 'b' && inClass) return { kind: 'char', end: i + 2, value: '\b' };
  if (n === 'b' || n === 'B') return { kind: 'boundary', end: i + 2 };
  const control: Record<string, string> = { f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };
  if (control[n] !== undefined) return { kind: 'char', end: i + 2, value: control[n] };
  if (n === 'x' && isHex(s.slice(i + 2, i + 4), 2)) return { kind: 'char', end: i + 4, value: String.fromCharCode(parseInt(s.slice(i + 2, i + 4), 16)) };
  if (n === 'u') {
    if (s[i + 2] === '{') {
      const close = s.indexOf('}', i + 3);
      const hex = close === -1 ? '' : s.slice(i + 3, close);
      const cp = /^[0-9a-fA-F]{1,6}$/.test(hex) ? parseInt(hex, 16) : NaN;
      return cp <= 0x10ffff ? { kind: 'char', end: close + 1, value: String.fromCodePoint(cp) } : { kind: 'bad-escape', end: i + 2 };
    }
    if (isHex(s.slice(i + 2, i + 6), 4)) return { kind: 'char', end: i + 6, value: String.fromCharCode(parseInt(s.slice(i + 2, i + 6), 16)) };
    return { kind: 'bad-escape', end: i + 2 };
  }
  if (n === 'c' && /^[A-Za-z]$/.test(s[i + 2] ?? '')) return { kind: 'char', end: i + 3, value: String.fromCharCode((s.charCodeAt(i + 2) & 0x1f)) };
  if (n === '0' && !/^[0-9]$/.test(s[i + 2] ?? '')) return { kind: 'char', end: i + 2, value: '\0' };
  if (!inClass && /^[1-9]$/.test(n)) {
    let end = i + 2;
    while (/^[0-9]$/.test(s[end] ?? '')) end++;
    return { kind: 'backref', end };
  }
  if (!inClass && n === 'k' && s[i + 2] === '<') {
    const close = s.indexOf('>', i + 3);
    return close === -1 ? { kind: 'bad-escape', end: i + 2 } : { kind: 'backref', end: close + 1 };
  }
  if (SYNTAX.has(n) || (inClass && n === '-')) return { kind: 'char', end: i + 2, value: n };
  if (ASCII_PUNCT.test(n)) return { kind: 'needless-escape', end: i + 2, value: n };
  return { kind: 'bad-escape', end: i + 1 + (n.codePointAt(0)! > 0xffff ? 2 : 1) };
}

/** End of the class opening at `s[i] === '['`, or -1 when it never closes. */
function classEnd(s: string, i: number): number {
  let j = i + 1;
  if (s[j] === '^') j++;
  while (j < s.length) {
    if (s[j] === '\\') j += 2;
    else if (s[j] === ']') return j + 1;
    else j++;
  }
  return -1;
}

const QUANT_BRACE = /^\{(\d+)(,(\d*))?\}/;

/** Splits a pattern into tokens; never throws. */
export function tokenize(s: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const push = (kind: TokenKind, end: number, extra: Partial<Token> = {}): void => {
    out.push({ kind, text: s.slice(i, end), start: i, ...extra });
    i = end;
  };
  while (i < s.length) {
    const c = s[i]!;
    if (c === '\\') {
      const e = escapeAt(s, i, false);
      push(e.kind, e.end, e.value !== undefined ? { value: e.value } : {});
    } else if (c === '[') {
      const end = classEnd(s, i);
      if (end === -1) push('unclosed-class', i + 1);
      else push('class', end, { negated: s[i + 1] === '^' });
    } else if (c === '(') {
      const rest = s.slice(i);
      const python = /^\(\?P<([A-Za-z_][A-Za-z0-9_]*)>/.exec(rest);
      const pyRef = /^\(\?P=([A-Za-z_][A-Za-z0-9_]*)\)/.exec(rest);
      const flags = /^\(\?([A-Za-z-]+)\)/.exec(rest);
      const open = /^\((?:\?(?::|=|!|<=|<!|<[A-Za-z_$][\w$]*>|[A-Za-z-]+:))?/.exec(rest)!;
      if (python) push('python-group', i + python[0].length, { value: python[1]! });
      else if (pyRef) push('python-backref', i + pyRef[0].length, { value: pyRef[1]! });
      else if (flags) push('inline-flags', i + flags[0].length, { value: flags[1]! });
      else push('group-open', i + open[0].length);
    } else if (c === ')') {
      push('group-close', i + 1);
    } else if (c === '*' || c === '+' || c === '?') {
      push('quant', i + (s[i + 1] === '?' ? 2 : 1), { min: c === '+' ? 1 : 0 });
    } else if (c === '{') {
      const m = QUANT_BRACE.exec(s.slice(i));
      if (m) push('quant', i + m[0].length + (s[i + m[0].length] === '?' ? 1 : 0), { min: Number(m[1]) });
      else push('brace', i + 1);
    } else if (c === '}') {
      push('brace', i + 1);
    } else if (c === ']') {
      push('bracket', i + 1);
    } else if (c === '.') {
      push('dot', i + 1);
    } else if (c === '^') {
      push('bol', i + 1);
    } else if (c === '$') {
      push('eol', i + 1);
    } else if (c === '|') {
      push('alt', i + 1);
    } else {
      const cp = s.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      push('char', i + ch.length, { value: ch });
    }
  }
  return out;
}

/** The escapes inside a class body that u-mode rejects, with the backslash dropped; and whether any were. */
export function repairClassEscapes(classText: string): { text: string; changed: boolean } {
  let out = '';
  let changed = false;
  for (let i = 0; i < classText.length; ) {
    if (classText[i] === '\\') {
      const e = escapeAt(classText, i, true);
      if (e.kind === 'needless-escape') {
        out += e.value;
        changed = true;
      } else {
        out += classText.slice(i, e.end);
      }
      i = e.end;
    } else {
      out += classText[i];
      i++;
    }
  }
  return { text: out, changed };
}

/** Escapes every regex syntax character, for literal matching in u-mode. */
export function escapeLiteral(text: string): string {
  return text.replace(/[\^$\\.*+?()[\]{}|/]/g, '\\$&');
}
