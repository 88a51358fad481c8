import type { Attempt, Category } from './attempt';
import type { Base, Fixture } from './fixtures';
import { IdSource, renderSection, resolve, track, type OpKind, type SemOp, type Tracked } from './model';
import type { Rng } from './random';
import { newLineFor, type Lang } from './sources';

/** Shared pieces of the generators: realistic line changes, range picking, and attempt assembly. */

export interface GenContext {
  seed: number;
  pool: readonly Base[];
  ids: IdSource;
}

const SHORT: Record<Category, string> = {
  valid_fresh: 'vf',
  stale_outside: 'so',
  stale_session: 'ss',
  copied_prefix: 'cp',
  miscount: 'mc',
  confirm_resend: 'cr',
  else_block: 'eb',
  messages: 'ms',
};

/** The attempt's own folder and file, so every attempt edits a fresh file. */
export function attemptPath(category: Category, index: number, name: string): string {
  return `${SHORT[category]}${String(index).padStart(4, '0')}/${name}`;
}

const RENAMES: Record<string, string> = { load: 'fetch', save: 'store', total: 'sum', item: 'entry', count: 'size', true: 'false', false: 'true', get: 'post', margin: 'padding', main: 'develop', ubuntu: 'debian' };
/** Words a small edit leaves alone: keywords, and names whose change would not be a plausible edit. */
const KEEP = new Set(['end', 'else', 'elif', 'if', 'for', 'in', 'of', 'return', 'class', 'def', 'const', 'let', 'var', 'function', 'try', 'catch', 'except', 'finally', 'import', 'from', 'export', 'async', 'await', 'new', 'this', 'self', 'private', 'readonly', 'public', 'static', 'while', 'type', 'interface', 'null', 'undefined', 'None', 'string', 'number', 'boolean', 'void', 'Promise', 'require', 'module', 'exports', 'use', 'strict', 'ruby', 'runs', 'steps', 'name', 'version', 'optional']);

/**
 * A small realistic change of one line: a number bumped, a word in a string changed, or an
 * identifier renamed. Lines with nothing to change (blank, brackets, keywords) come back unchanged;
 * the caller makes sure some line of a range changes.
 */
export function tweak(line: string, rng: Rng): string {
  const options: (() => string)[] = [];
  const splice = (at: number, len: number, text: string): string => line.slice(0, at) + text + line.slice(at + len);
  const numbers = [...line.matchAll(/\d+/g)].filter((m) => m[0].length < 9);
  if (numbers.length) options.push(() => {
    const m = rng.pick(numbers);
    return splice(m.index ?? 0, m[0].length, String(Number(m[0]) + rng.int(1, 9)));
  });
  const strings = [...line.matchAll(/(["'])([A-Za-z][^"'\\]*)\1/g)];
  if (strings.length) options.push(() => {
    const m = rng.pick(strings);
    return splice((m.index ?? 0) + 1, (m[2] as string).length, `${m[2]}${rng.pick(['s', ' now', '-v2', ' (beta)'])}`);
  });
  const words = [...line.matchAll(/\b[A-Za-z_][A-Za-z0-9_]{2,}\b/g)].filter((m) => !KEEP.has(m[0]) && !m[0].startsWith('__'));
  if (words.length) options.push(() => {
    const m = rng.pick(words);
    const word = m[0];
    const renamed = RENAMES[word] ?? (word.includes('_') || /^[a-z]+$/.test(word) && line.includes('_') ? `${word}_${rng.pick(['count', 'id', 'next'])}` : `${word}${rng.pick(['s', 'Count', 'Id', 'Next'])}`);
    return splice(m.index ?? 0, word.length, renamed);
  });
  return options.length ? rng.pick(options)() : line;
}

/** A change of `line` that is sure to differ: a tweak, else trailing whitespace (a formatter's kind of change). */
export function changed(line: string, rng: Rng): string {
  const t = tweak(line, rng);
  return t !== line ? t : `${line} `;
}

/** Tweaks some lines of `lines`; at least one changes when any line can be changed. */
export function tweakAll(lines: readonly string[], rng: Rng): string[] {
  const out = lines.map((l) => (rng.chance(0.7) ? tweak(l, rng) : l));
  if (out.every((l, i) => l === lines[i])) {
    for (let k = 0; k < lines.length; k++) {
      out[k] = tweak(lines[k] as string, rng);
      if (out[k] !== lines[k]) break;
    }
  }
  return out;
}

export const indentOf = (line: string): string => /^[ \t]*/.exec(line)?.[0] ?? '';

/** `count` new lines in the style of the file, indented like `near`. */
export function freshLines(lang: Lang, rng: Rng, count: number, near: string): string[] {
  return Array.from({ length: count }, () => newLineFor(lang, rng, indentOf(near)));
}

/** Lines another process might insert: code, blank lines, closing brackets, copies of nearby lines. */
export function outsideLines(lang: Lang, rng: Rng, count: number, nearby: readonly string[]): string[] {
  const closer = lang === 'py' || lang === 'md' || lang === 'yaml' ? '' : lang === 'json' ? '    },' : '}';
  return Array.from({ length: count }, () => {
    const r = rng.next();
    if (r < 0.25) return '';
    if (r < 0.4) return closer;
    if (r < 0.55 && nearby.length > 0) return rng.pick(nearby);
    return newLineFor(lang, rng, indentOf(rng.pick(nearby.length ? nearby : [''])));
  });
}

/** Marks lines [a, b] (1-based) and one line of margin on each side as taken; false when any was taken. */
export function claim(taken: boolean[], a: number, b: number): boolean {
  for (let k = a - 1; k <= b + 1; k++) if (taken[k]) return false;
  for (let k = a - 1; k <= b + 1; k++) taken[k] = true;
  return true;
}

/** A free range of `len` lines within [lo, hi] (1-based), claimed; undefined after 40 tries. */
export function freeRange(rng: Rng, taken: boolean[], len: number, lo: number, hi: number): [number, number] | undefined {
  for (let t = 0; t < 40; t++) {
    if (hi - len + 1 < lo) return undefined;
    const a = rng.int(lo, hi - len + 1);
    if (claim(taken, a, a + len - 1)) return [a, a + len - 1];
  }
  return undefined;
}

/** A SemOp over seen lines a..b (1-based). */
export function sem(tr: Tracked, kind: OpKind, a: number, b: number, body: string[] = []): SemOp {
  const head = kind === 'INS.HEAD' || kind === 'INS.TAIL';
  return { kind, first: head ? 0 : (tr.ids[a - 1] as number), last: head ? 0 : (tr.ids[b - 1] as number), body };
}

/** The input text of `sems` against `tr`, with the read tag placeholder. */
export function inputFor(path: string, sems: readonly SemOp[], tr: Tracked): string {
  const r = resolve(sems, tr);
  if (!r) throw new Error('corpus: an op names a line that does not exist');
  return renderSection(path, '{{TAG}}', r.ops);
}

/** Starts an attempt record for a fixture copied to the attempt's own path. */
export function baseAttempt(ctx: GenContext, category: Category, index: number, fx: Fixture): { attempt: Attempt; seen: Tracked } {
  const path = attemptPath(category, index, fx.name);
  const attempt: Attempt = {
    id: `${category}#${index}`,
    category,
    subclass: '',
    note: '',
    lang: fx.lang,
    variant: fx.variant,
    origin: fx.origin,
    files: { [path]: fx.text },
    path,
    input: '',
    intended: null,
    mayRefuse: false,
    checks: [],
  };
  return { attempt, seen: track(fx.text, ctx.ids) };
}

/** 1-based lines L whose text equals the text `shift` lines above (shift > 0) or below (shift < 0). */
export function lookalikes(lines: readonly string[], shift: number, lo = 1, hi = lines.length): number[] {
  const out: number[] = [];
  for (let l = Math.max(lo, 1); l <= Math.min(hi, lines.length); l++) {
    const other = lines[l - 1 - shift];
    if (other !== undefined && l - 1 - shift >= 0 && other === lines[l - 1]) out.push(l);
  }
  return out;
}
