import { escapeLiteral, repairClassEscapes, tokenize, type Token } from './syntax';

/**
 * One pattern as the matching workers use it. Everything is plain data (sources and flags), so it
 * crosses to a worker thread as is.
 */
export interface PatternSpec {
  /** The pattern as given. */
  original: string;
  /** How it is matched: as given, after repairs, or as a literal string because it did not compile. */
  kind: 'regex' | 'repaired' | 'literal';
  /** Regex source matched against one line at a time (a line never holds `\n`), with `flags`. */
  source: string;
  flags: string;
  /**
   * The same regex rewritten so that no match can cross a `\n` and `^`/`$` mean line start/end:
   * run globally over a whole file it finds a match in exactly the lines where `source` matches.
   */
  scanSource: string | null;
  scanFlags: string;
  /** A string every match contains, for a byte-level prefilter (null when there is none). */
  literal: string | null;
  /** What was changed, one note each, for `matcher_adjustments`. */
  adjustments: string[];
}

/** Tokens after which a quantifier has nothing to repeat. */
function quantifiable(prev: Token | undefined): boolean {
  if (prev === undefined) return false;
  return !['group-open', 'python-group', 'alt', 'quant', 'inline-flags', 'bol', 'eol', 'boundary'].includes(prev.kind);
}

/**
 * The common repairs, each applied only to syntax u-mode JavaScript rejects, so a pattern that
 * compiles is never changed — except for an empty group `()`, which matches nothing useful and
 * always means literal parentheses (`fn run() {`): a leading `(?flags)` group (its `i` becomes the
 * `i` flag), Python's `(?P<name>`/`(?P=name)`, needless escapes of punctuation (`\'`, `\-`, `\:`),
 * a `{`/`}` that is not a quantifier, a lone `]`, a `[` that never closes, unbalanced parentheses.
 */
export function repairPattern(pattern: string): { source: string; ignoreCase: boolean; adjustments: string[] } {
  const tokens = tokenize(pattern);
  const adjustments: string[] = [];
  let ignoreCase = false;
  const parts: string[] = tokens.map((t) => t.text);
  const at = (t: Token): string => `at ${t.start}`;

  const first = tokens[0];
  if (first?.kind === 'inline-flags' && /^[imsu]+$/.test(first.value ?? '')) {
    parts[0] = '';
    ignoreCase = first.value!.includes('i');
    adjustments.push(`leading (?${first.value}) became ${ignoreCase ? 'the i flag' : 'no-op'} (lines are matched one at a time)`);
  }

  const open: number[] = [];
  const backrefs = tokens.some((t) => t.kind === 'backref' || t.kind === 'python-backref');
  tokens.forEach((t, i) => {
    if (t.kind === 'group-open' && t.text === '(' && tokens[i + 1]?.kind === 'group-close' && !backrefs) {
      parts[i] = '\\(';
      parts[i + 1] = '\\)';
      tokens[i + 1] = { ...tokens[i + 1]!, kind: 'char', value: ')' };
      adjustments.push(`empty group "()" ${at(t)} taken as literal parentheses`);
      return;
    }
    switch (t.kind) {
      case 'python-group':
        parts[i] = `(?<${t.value}>`;
        adjustments.push(`(?P<${t.value}> ${at(t)} became (?<${t.value}>`);
        open.push(i);
        break;
      case 'python-backref':
        parts[i] = `\\k<${t.value}>`;
        adjustments.push(`(?P=${t.value}) ${at(t)} became \\k<${t.value}>`);
        break;
      case 'needless-escape':
        parts[i] = t.value!;
        adjustments.push(`needless escape ${t.text} ${at(t)} became ${t.value}`);
        break;
      case 'class': {
        const fixed = repairClassEscapes(t.text);
        if (fixed.changed) {
          parts[i] = fixed.text;
          adjustments.push(`needless escapes in ${t.text} ${at(t)} dropped`);
        }
        break;
      }
      case 'unclosed-class':
        parts[i] = '\\[';
        adjustments.push(`escaped unclosed "[" ${at(t)}`);
        break;
      case 'bracket':
        parts[i] = '\\]';
        adjustments.push(`escaped lone "]" ${at(t)}`);
        break;
      case 'brace':
        parts[i] = '\\' + t.text;
        adjustments.push(`escaped unmatched "${t.text}" ${at(t)}`);
        break;
      case 'quant':
        if (t.text.startsWith('{') && !quantifiable(tokens[i - 1])) {
          parts[i] = t.text.replace(/[{}]/g, '\\$&');
          adjustments.push(`escaped "${t.text}" ${at(t)}, which had nothing to repeat`);
        }
        break;
      case 'group-open':
        open.push(i);
        break;
      case 'group-close':
        if (open.length) open.pop();
        else {
          parts[i] = '\\)';
          adjustments.push(`escaped unmatched ")" ${at(t)}`);
        }
        break;
      default:
        break;
    }
  });
  for (const i of open) {
    const t = tokens[i]!;
    parts[i] = escapeLiteral(parts[i]!);
    adjustments.push(`escaped unmatched "${t.text}" ${at(t)}`);
  }
  return { source: parts.join(''), ignoreCase, adjustments };
}

/** Escapes whose character is a line feed: they can never match inside a line. */
function isLineFeed(t: Token): boolean {
  return t.kind === 'char' && t.value === '\n';
}

/**
 * Rewrites a compiled-valid source so that, run with the `g` flag over a whole file, it finds
 * matches exactly inside the lines where the source matches one line (with `s`, without `m`):
 * every atom that could match `\n` is kept off it, `.` becomes `[^\n]`, `^`/`$` become
 * line-boundary lookarounds. The inserted groups do not capture, so backreferences keep their numbers.
 */
export function lineConfined(source: string): string {
  return tokenize(source)
    .map((t) => {
      switch (t.kind) {
        case 'dot':
          return '[^\\n]';
        // Not (?<![^\n]) and (?![^\n]): V8 gets a negated class inside a negative lookaround
        // wrong next to an astral character in Unicode mode, and would match inside a surrogate pair.
        case 'bol':
          return '(?:^|(?<=\\n))';
        case 'eol':
          return '(?=\\n|$)';
        case 'class-escape':
          return /^\\[dwS]$/.test(t.text) ? t.text : `(?:(?!\\n)${t.text})`;
        case 'class':
          return t.negated || /[\\\0-\n]/.test(t.text) ? `(?:(?!\\n)${t.text})` : t.text;
        default:
          // `[]` never matches, and unlike a lookahead it may carry a quantifier.
          return isLineFeed(t) ? '[]' : t.text;
      }
    })
    .join('');
}

/**
 * The longest run of literal characters every match must contain, or null: only patterns without
 * a top-level `|` qualify; groups, classes and optional characters end a run.
 */
export function requiredLiteral(source: string): string | null {
  const tokens = tokenize(source);
  let best = '';
  let run = '';
  let depth = 0;
  const end = (): void => {
    if (Buffer.byteLength(run) > Buffer.byteLength(best)) best = run;
    run = '';
  };
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i]!;
    if (t.kind === 'group-open' || t.kind === 'python-group') depth++;
    else if (t.kind === 'group-close') depth--;
    if (t.kind === 'alt' && depth === 0) return null;
    const next = tokens[i + 1];
    const lone = t.kind === 'char' && depth === 0 && !/[\ud800-\udfff\ufffd]/u.test(t.value!);
    if (!lone) {
      end();
      continue;
    }
    if (next?.kind === 'quant') {
      if ((next.min ?? 0) >= 1) run += t.value!;
      end();
      i++;
      continue;
    }
    run += t.value!;
  }
  end();
  return best === '' ? null : best;
}

function compiles(source: string, flags: string): string | null {
  try {
    new RegExp(source, flags);
    return null;
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

/**
 * Compiles one pattern: as a regex if it compiles (u-mode, case-sensitive), else after the
 * repairs, else as a literal string. Never throws.
 */
export function compilePattern(original: string): PatternSpec {
  const repaired = repairPattern(original);
  const flags = repaired.ignoreCase ? 'sui' : 'su';
  const error = compiles(repaired.source, flags);
  if (error === null) {
    const confined = lineConfined(repaired.source);
    // Should the rewrite ever fail to compile, the worker falls back to matching line by line.
    const scanSource = compiles(confined, flags.replace('s', 'g')) === null ? confined : null;
    return {
      original,
      kind: repaired.adjustments.length ? 'repaired' : 'regex',
      source: repaired.source,
      flags,
      scanSource,
      scanFlags: flags.replace('s', 'g'),
      literal: repaired.ignoreCase ? null : requiredLiteral(repaired.source),
      adjustments: repaired.adjustments,
    };
  }
  const source = escapeLiteral(original);
  return {
    original,
    kind: 'literal',
    source,
    flags: 'su',
    scanSource: lineConfined(source),
    scanFlags: 'gu',
    literal: /[\ud800-\udfff\ufffd]/u.test(original) ? null : original,
    adjustments: [...repaired.adjustments, `does not compile (${error.replace(/^Invalid regular expression: /, '')}); matched as a literal string`],
  };
}
