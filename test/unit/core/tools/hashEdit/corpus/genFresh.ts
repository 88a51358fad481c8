import type { Attempt } from './attempt';
import { baseAttempt, freeRange, freshLines, inputFor, sem, tweakAll, type GenContext } from './craft';
import { pickFixture } from './fixtures';
import { intendedText, resolve, similarity, type OpKind, type SemOp, type Tracked } from './model';
import { Rng } from './random';
import type { Lang } from './sources';

/** valid_fresh (correct edits with the fresh tag) and copied_prefix (body rows that kept `N:`). */

const lineAt = (tr: Tracked, n: number): string => tr.doc.lines[n - 1] ?? '';
const linesOf = (tr: Tracked, a: number, b: number): string[] => tr.doc.lines.slice(a - 1, b);

/** `HH:MM text` whose hour differs from `avoid`, so it cannot be mistaken for a copied line number. */
function clock(rng: Rng, avoid: number, what: string): string {
  let hour = rng.int(7, 23);
  if (hour === avoid) hour = hour === 23 ? 7 : hour + 1;
  return `${String(hour).padStart(2, '0')}:${rng.pick(['00', '15', '30', '45'])} ${what}`;
}

/** A line with a look-alike within three lines (similar JSON/YAML/CSS entries), or undefined. */
function similarLine(tr: Tracked, rng: Rng): number | undefined {
  const n = tr.doc.lines.length;
  const hits: number[] = [];
  for (let l = 1; l <= n; l++) {
    const text = lineAt(tr, l);
    if (text.trim().length < 6) continue;
    for (const d of [-3, -2, -1, 1, 2, 3]) {
      const other = lineAt(tr, l + d);
      if (other !== text && l + d >= 1 && l + d <= n && similarity(other, text) >= 0.6) {
        hits.push(l);
        break;
      }
    }
  }
  return hits.length ? rng.pick(hits) : undefined;
}

type Piece = 'tweak' | 'rewrite' | 'del' | 'ins_pre' | 'ins_post';

/** One op of kind `piece` on a free range, or undefined when the file has no room left. */
function piece(kind: Piece, tr: Tracked, rng: Rng, lang: Lang, taken: boolean[]): SemOp | undefined {
  const n = tr.doc.lines.length;
  const len = kind === 'ins_pre' || kind === 'ins_post' ? 1 : rng.int(1, kind === 'del' ? 3 : 4);
  const range = freeRange(rng, taken, len, 1, n);
  if (!range) return undefined;
  const [a, b] = range;
  switch (kind) {
    case 'tweak':
      return sem(tr, 'SWAP', a, b, tweakAll(linesOf(tr, a, b), rng));
    case 'rewrite':
      return sem(tr, 'SWAP', a, b, freshLines(lang, rng, rng.int(1, 5), lineAt(tr, a)));
    case 'del':
      return sem(tr, 'DEL', a, b);
    case 'ins_pre':
    case 'ins_post':
      return sem(tr, kind === 'ins_pre' ? 'INS.PRE' : 'INS.POST', a, a, freshLines(lang, rng, rng.int(1, 3), lineAt(tr, a)));
  }
}

const FRESH_KINDS = ['tweak', 'rewrite', 'similar', 'del', 'ins_pre', 'ins_post', 'head', 'tail', 'multi', 'plusminus', 'digits', 'single_digits'] as const;

export function validFresh(ctx: GenContext, index: number): Attempt {
  const rng = Rng.fork(ctx.seed, `valid_fresh:${index}`);
  const fx = pickFixture(ctx.pool, rng);
  const { attempt, seen } = baseAttempt(ctx, 'valid_fresh', index, fx);
  const n = seen.doc.lines.length;
  const taken: boolean[] = [];
  const kind = rng.pick(FRESH_KINDS);
  let sems: SemOp[] = [];
  switch (kind) {
    case 'tweak':
    case 'rewrite':
    case 'del':
    case 'ins_pre':
    case 'ins_post':
      sems = [piece(kind, seen, rng, fx.lang, taken)].filter((s): s is SemOp => s !== undefined);
      break;
    case 'similar': {
      const l = similarLine(seen, rng) ?? rng.int(1, n);
      sems = [sem(seen, 'SWAP', l, l, tweakAll([lineAt(seen, l)], rng))];
      break;
    }
    case 'head':
    case 'tail':
      sems = [sem(seen, kind === 'head' ? 'INS.HEAD' : 'INS.TAIL', 0, 0, freshLines(fx.lang, rng, rng.int(1, 3), ''))];
      break;
    case 'multi':
      for (let k = rng.int(2, 4); k > 0; k--) {
        const s = piece(rng.pick(['tweak', 'rewrite', 'del', 'ins_pre', 'ins_post'] as const), seen, rng, fx.lang, taken);
        if (s) sems.push(s);
      }
      break;
    case 'plusminus': {
      const body = [rng.pick(['- first item', '-- a dashed note', '- [ ] todo']), rng.pick(['+ added line', '++counter;', '+1 for this']), '-', rng.pick(['+', '-x'])];
      const [a, b] = freeRange(rng, taken, rng.int(1, 2), 1, n) ?? [1, 1];
      sems = [rng.chance(0.5) ? sem(seen, 'SWAP', a, b, body) : sem(seen, 'INS.POST', a, a, body)];
      break;
    }
    case 'digits': {
      const a = rng.int(1, Math.max(1, n - 2));
      const b = Math.min(n, a + rng.int(0, 2));
      const body = ['Schedule:', clock(rng, a + 1, 'meeting'), clock(rng, a + 2, 'review'), ''];
      sems = [sem(seen, 'SWAP', a, b, body)];
      break;
    }
    case 'single_digits': {
      // Often right next to line 8, where "08:" is nearest to looking like a copied number.
      let l = n >= 9 && rng.chance(0.4) ? rng.pick([7, 9]) : rng.int(1, n);
      if (l === 8) l = n > 8 ? 9 : 7;
      sems = [sem(seen, 'SWAP', l, l, ['08:30 standup'])];
      break;
    }
  }
  if (sems.length === 0) sems = [sem(seen, 'INS.TAIL', 0, 0, ['appended'])];
  attempt.subclass = kind;
  attempt.note = `${kind}: ${sems.map((s) => s.kind).join(', ')}`;
  attempt.input = inputFor(attempt.path, sems, seen);
  attempt.intended = intendedText(sems, seen) ?? null;
  attempt.retry = { path: attempt.path, ops: resolve(sems, seen)?.ops ?? [], expected: attempt.intended ?? '' };
  return attempt;
}

const PREFIX_KINDS = ['swap1', 'swap_range', 'swap_grow', 'ins_post', 'ins_pre'] as const;

/** Body rows that copied read's `N:` prefix; the model meant the text after it. */
export function copiedPrefix(ctx: GenContext, index: number): Attempt {
  const rng = Rng.fork(ctx.seed, `copied_prefix:${index}`);
  const fx = pickFixture(ctx.pool, rng);
  const { attempt, seen } = baseAttempt(ctx, 'copied_prefix', index, fx);
  const n = seen.doc.lines.length;
  const kind = rng.pick(PREFIX_KINDS);
  const len = kind === 'swap1' || kind.startsWith('ins') ? 1 : rng.int(2, 4);
  const a = rng.int(1, Math.max(1, n - len + 1));
  const b = Math.min(n, a + len - 1);
  let op: OpKind = 'SWAP';
  let meant: string[];
  let firstNumber = a;
  if (kind === 'ins_post' || kind === 'ins_pre') {
    op = kind === 'ins_post' ? 'INS.POST' : 'INS.PRE';
    meant = freshLines(fx.lang, rng, rng.int(1, 3), lineAt(seen, a));
    firstNumber = kind === 'ins_post' ? a + 1 : a;
  } else {
    meant = tweakAll(linesOf(seen, a, b), rng);
    if (kind === 'swap_grow') meant.push(...freshLines(fx.lang, rng, rng.int(1, 2), lineAt(seen, b)));
  }
  const meantOps = [sem(seen, op, a, op === 'SWAP' ? b : a, meant)];
  const written = [sem(seen, op, a, op === 'SWAP' ? b : a, meant.map((t, j) => `${firstNumber + j}:${t}`))];
  attempt.subclass = kind;
  attempt.note = `${kind}: ${op} with ${meant.length} row(s) written as N:TEXT`;
  attempt.input = inputFor(attempt.path, written, seen);
  attempt.intended = intendedText(meantOps, seen) ?? null;
  attempt.mayRefuse = true;
  attempt.retry = { path: attempt.path, ops: resolve(meantOps, seen)?.ops ?? [], expected: attempt.intended ?? '' };
  return attempt;
}
