import type { Attempt } from './attempt';
import { baseAttempt, changed, freeRange, freshLines, inputFor, lookalikes, outsideLines, sem, tweakAll, type GenContext } from './craft';
import { pickFixture, type Fixture } from './fixtures';
import { applySplices, equivalentSplices, intendedText, modifyLine, printDoc, recoverable, reliedIds, resolve, spliceTracked, textOf, track, type SemOp, type Splice, type Tracked } from './model';
import { Rng } from './random';

/**
 * Stale tags: stale_outside (another process changed the file after the read) and stale_session
 * (an earlier hash_edit of this session changed it). Anchors are often chosen where the shifted
 * file shows the same text at the old number (blank lines, `}`), the case that fooled the issue's
 * corpus into wrong applications.
 */

const lineAt = (tr: Tracked, n: number): string => tr.doc.lines[n - 1] ?? '';

/** One op anchored at seen line `l`: SWAP (tweak or rewrite, sometimes a range), DEL, INS.PRE or INS.POST. */
function opAt(seen: Tracked, l: number, rng: Rng, fx: Fixture, maxLen: number): SemOp {
  const n = seen.doc.lines.length;
  const kind = rng.pick(['SWAP', 'SWAP', 'DEL', 'INS.PRE', 'INS.POST'] as const);
  if (kind === 'INS.PRE' || kind === 'INS.POST') return sem(seen, kind, l, l, freshLines(fx.lang, rng, rng.int(1, 2), lineAt(seen, l)));
  const b = Math.min(n, l + rng.int(0, maxLen - 1));
  if (kind === 'DEL') return sem(seen, 'DEL', l, b);
  const body = rng.chance(0.6) ? tweakAll(seen.doc.lines.slice(l - 1, b), rng) : freshLines(fx.lang, rng, rng.int(1, 3), lineAt(seen, l));
  return sem(seen, 'SWAP', l, b, body);
}

/** Seen 1-based span [first, last] of all relied-on lines of `sems`. */
function spanOf(sems: readonly SemOp[], seen: Tracked): [number, number] {
  const lines = reliedIds(sems, seen).flat().map((id) => seen.ids.indexOf(id) + 1);
  return lines.length ? [Math.min(...lines), Math.max(...lines)] : [1, seen.doc.lines.length];
}

const OUTSIDE_KINDS = ['prepend', 'insert_above', 'delete_above', 'insert_below', 'delete_below', 'insert_between', 'delete_between', 'change_unrelated', 'dup_nearby', 'touch_anchor', 'insert_inside'] as const;
type OutsideKind = (typeof OUTSIDE_KINDS)[number];

/** The repro the issue asks for verbatim: a.md, two lines prepended, INS.POST 4 must not land after old line 2. */
function repro(ctx: GenContext): Attempt {
  const text = 'one\n\ntwo\n\nthree\n';
  const seen = track(text, ctx.ids);
  const current = spliceTracked(seen, [{ from: 0, to: 0, body: ['# Notes', ''] }], ctx.ids);
  const sems = [sem(seen, 'INS.POST', 4, 4, ['NEW'])];
  return {
    id: 'stale_outside#0', category: 'stale_outside', subclass: 'repro', note: 'issue repro: a.md, outside prepend of two lines, INS.POST 4 with the old tag',
    lang: 'md', variant: 'plain', origin: 'repro', files: { 'a.md': text }, path: 'a.md', outside: textOf(current),
    input: inputFor('a.md', sems, seen), intended: intendedText(sems, current) ?? null, mayRefuse: true, checks: [],
    retry: { path: 'a.md', ops: resolve(sems, current)?.ops ?? [], expected: intendedText(sems, current) ?? '' },
  };
}

/** Applies the outside change of `kind` around the ops' span; returns the new file and a description. */
/** Another process's change: the file it leaves, and the insert or delete it was, when it was one. */
interface Change {
  current: Tracked;
  what: string;
  splice?: Splice;
}

function outsideChange(kind: OutsideKind, seen: Tracked, sems: SemOp[], k: number, rng: Rng, fx: Fixture, ctx: GenContext): Change | undefined {
  const n = seen.doc.lines.length;
  const [first, last] = spanOf(sems, seen);
  const near = seen.doc.lines.slice(Math.max(0, first - 3), last + 2).filter((l) => l.length < 200);
  let splice: Splice | undefined;
  const apply = (s: Splice): Tracked => spliceTracked(seen, [(splice = s)], ctx.ids);
  const ins = (at: number, count = k, body = outsideLines(fx.lang, rng, count, near)) => apply({ from: at, to: at, body });
  const del = (from: number, count = k) => apply({ from, to: from + count, body: [] });
  const made = ((): { current: Tracked; what: string } | undefined => {
    switch (kind) {
      case 'prepend':
        return { current: ins(0), what: `prepended ${k} line(s)` };
      case 'insert_above':
        return first > 1 ? { current: ins(rng.int(0, first - 1)), what: `inserted ${k} line(s) above line ${first}` } : undefined;
      case 'delete_above':
        return first - 1 >= k ? { current: del(rng.int(0, first - 1 - k)), what: `deleted ${k} line(s) above line ${first}` } : undefined;
      case 'insert_below':
        return { current: ins(rng.int(last, n)), what: `inserted ${k} line(s) below line ${last}` };
      case 'delete_below':
        return n - last >= k ? { current: del(rng.int(last, n - k)), what: `deleted ${k} line(s) below line ${last}` } : undefined;
      case 'insert_between':
      case 'delete_between': {
        if (sems.length < 2) return undefined;
        const gapStart = spanOf([sems[0] as SemOp], seen)[1];
        const gapEnd = spanOf([sems[1] as SemOp], seen)[0] - 1;
        if (kind === 'insert_between') return { current: ins(rng.int(gapStart, gapEnd)), what: `inserted ${k} line(s) between the ops (after line ${gapStart})` };
        const count = Math.min(k, gapEnd - gapStart);
        return count > 0 ? { current: del(rng.int(gapStart, gapEnd - count), count), what: `deleted ${count} line(s) between the ops` } : undefined;
      }
      case 'change_unrelated': {
        const relied = new Set(reliedIds(sems, seen).flat());
        const free = seen.doc.lines.map((l, i) => i).filter((i) => !relied.has(seen.ids[i] as number) && (seen.doc.lines[i] ?? '').trim() !== '');
        if (free.length === 0) return undefined;
        let current = seen;
        for (const i of rng.shuffle(free).slice(0, rng.int(1, 3))) current = modifyLine(current, i, changed(lineAt(current, i + 1), rng));
        return { current, what: 'changed unrelated lines' };
      }
      case 'dup_nearby': {
        const copy = rng.pick([lineAt(seen, first), '', '}', lineAt(seen, last)]);
        const at = rng.chance(0.5) ? first - 1 : last;
        return { current: ins(at, 1, [copy]), what: `inserted ${JSON.stringify(copy.slice(0, 30))} next to the anchors (after line ${at})` };
      }
      case 'touch_anchor': {
        const ids = reliedIds(sems, seen).flat();
        const candidates = ids.map((id) => seen.ids.indexOf(id)).filter((i) => lineAt(seen, i + 1).trim() !== '');
        if (candidates.length === 0) return undefined;
        const i = rng.pick(candidates);
        return { current: modifyLine(seen, i, changed(lineAt(seen, i + 1), rng)), what: `changed anchored line ${i + 1}` };
      }
      case 'insert_inside': {
        const range = sems.find((s) => (s.kind === 'SWAP' || s.kind === 'DEL') && s.first !== s.last);
        if (!range) return undefined;
        const a = seen.ids.indexOf(range.first) + 1;
        const b = seen.ids.indexOf(range.last) + 1;
        return { current: ins(rng.int(a, b - 1), rng.int(1, 2)), what: `inserted line(s) inside the replaced range ${a}-${b}` };
      }
    }
  })();
  return made && splice ? { ...made, splice } : made;
}

export function staleOutside(ctx: GenContext, index: number): Attempt {
  if (index === 0) return repro(ctx);
  const rng = Rng.fork(ctx.seed, `stale_outside:${index}`);
  for (let attemptNo = 0; ; attemptNo++) {
    const fx = pickFixture(ctx.pool, rng);
    const { attempt, seen } = baseAttempt(ctx, 'stale_outside', index, fx);
    const n = seen.doc.lines.length;
    const kind = rng.pick(OUTSIDE_KINDS);
    const k = rng.int(1, 5);
    const taken: boolean[] = [];
    // Shifting changes above the anchors: prefer anchors whose old number shows the same text afterwards.
    const shift = kind === 'prepend' || kind === 'insert_above' ? k : kind === 'delete_above' ? -k : 0;
    const alike = shift ? lookalikes(seen.doc.lines, shift, Math.max(2, 1 + shift, 1 + k), n - 1) : [];
    const sems: SemOp[] = [];
    const wanted = kind.endsWith('between') || rng.chance(0.25) ? 2 : 1;
    for (let t = 0; t < 20 && sems.length < wanted; t++) {
      const l = alike.length && rng.chance(0.7) ? rng.pick(alike) : rng.int(Math.min(n, 2), Math.max(2, n - 1));
      const op = opAt(seen, l, rng, fx, kind === 'insert_inside' ? 3 : 2);
      const [a, b] = spanOf([op], seen);
      if (freeRange(rng, taken, b - a + 1, a, b)) sems.push(op);
    }
    sems.sort((x, y) => spanOf([x], seen)[0] - spanOf([y], seen)[0]);
    const change = sems.length ? outsideChange(kind, seen, sems, k, rng, fx, ctx) : undefined;
    if (!change || textOf(change.current) === fx.text) {
      if (attemptNo < 30) continue;
      throw new Error(`corpus: no stale_outside attempt for index ${index}`);
    }
    const { current } = change;
    // Readings of the change that give the same text (a "}" inserted next to a "}"): each is as true as the other.
    const readings = [current, ...(change.splice ? equivalentSplices(seen.doc.lines, change.splice).slice(1).map((s) => spliceTracked(seen, [s], ctx.ids)) : [])];
    const meant = [...new Set(readings.map((r) => (recoverable(sems, seen, r) ? intendedText(sems, r) : undefined)).filter((t): t is string => t !== undefined))];
    attempt.subclass = kind;
    attempt.note = `read, then another process ${change.what}; edit with the old tag: ${sems.map((s) => s.kind).join(', ')}${readings.length > 1 ? ` (${readings.length} equivalent readings of the change)` : ''}`;
    attempt.outside = textOf(current);
    attempt.input = inputFor(attempt.path, sems, seen);
    attempt.intended = meant[0] ?? null;
    if (meant.length > 1) attempt.alsoExact = meant.slice(1);
    attempt.mayRefuse = true;
    const again = resolve(sems, current);
    if (again) attempt.retry = { path: attempt.path, ops: again.ops, expected: printDoc(applySplices(current.doc, again.splices)) };
    return attempt;
  }
}

const FIRST_KINDS = ['ins_post_1', 'ins_head', 'del', 'swap_grow', 'swap_shrink'] as const;

/** A first edit that changes the line count, then a second with the first (now stale) tag and old numbers. */
export function staleSession(ctx: GenContext, index: number): Attempt {
  const rng = Rng.fork(ctx.seed, `stale_session:${index}`);
  for (let attemptNo = 0; ; attemptNo++) {
    const fx = pickFixture(ctx.pool, rng);
    const { attempt, seen } = baseAttempt(ctx, 'stale_session', index, fx);
    const n = seen.doc.lines.length;
    if (n < 12 && attemptNo < 30) continue;
    const kind = rng.pick(FIRST_KINDS);
    const taken: boolean[] = [];
    const busy = seen.doc.lines.map((l, i) => i + 1).filter((l) => l >= 2 && l <= n / 2 && lineAt(seen, l).trim() !== '');
    const fa = kind === 'ins_post_1' || kind === 'ins_head' || busy.length === 0 ? 1 : rng.pick(busy);
    let first: SemOp;
    if (kind === 'ins_post_1') first = sem(seen, 'INS.POST', 1, 1, freshLines(fx.lang, rng, 2, lineAt(seen, 2)));
    else if (kind === 'ins_head') first = sem(seen, 'INS.HEAD', 0, 0, freshLines(fx.lang, rng, rng.int(1, 3), ''));
    else if (kind === 'del') first = sem(seen, 'DEL', fa, fa + rng.int(0, 2));
    // A replaced line always changes text, so "the first edit replaced it" is never a matter of opinion.
    else if (kind === 'swap_grow') first = sem(seen, 'SWAP', fa, fa, [changed(lineAt(seen, fa), rng), ...freshLines(fx.lang, rng, rng.int(1, 3), lineAt(seen, fa))]);
    else first = sem(seen, 'SWAP', fa, fa + rng.int(1, 3), [changed(lineAt(seen, fa), rng)]);
    const [ra, rb] = first.kind === 'INS.HEAD' ? [0, 0] : spanOf([first], seen);
    for (let k = ra; k <= rb && ra > 0; k++) taken[k] = true;
    const after = spliceTracked(seen, resolve([first], seen)?.splices ?? [], ctx.ids);
    const delta = after.doc.lines.length - n;
    // Touching: the second op relies on a line the first replaced, so it must be refused.
    const touch = first.kind !== 'INS.HEAD' && first.kind !== 'INS.POST' && rng.chance(0.12);
    const alike = lookalikes(seen.doc.lines, delta, rb + 2 + Math.max(0, delta), n).filter((l) => l - delta > rb + 1);
    const sems: SemOp[] = [];
    for (let t = 0; t < 20 && sems.length < (rng.chance(0.25) ? 2 : 1); t++) {
      const l = touch && sems.length === 0 ? rng.int(ra, rb) : alike.length && rng.chance(0.7) ? rng.pick(alike) : rng.int(rb + 2, Math.max(rb + 2, n));
      if (l > n) continue;
      const op = opAt(seen, l, rng, fx, 2);
      const [a, b] = spanOf([op], seen);
      if (touch && sems.length === 0) {
        for (let k = a - 1; k <= b + 1; k++) taken[k] = true;
        sems.push(op);
      } else if (freeRange(rng, taken, b - a + 1, a, b)) sems.push(op);
    }
    if (sems.length === 0) {
      if (attemptNo < 30) continue;
      throw new Error(`corpus: no stale_session attempt for index ${index}`);
    }
    sems.sort((x, y) => spanOf([x], seen)[0] - spanOf([y], seen)[0]);
    attempt.subclass = touch ? `${kind}+touch` : kind;
    attempt.note = `first edit ${first.kind} (line count ${delta >= 0 ? '+' : ''}${delta}), then ${sems.map((s) => s.kind).join(', ')} with the first tag and old numbers`;
    attempt.first = { input: inputFor(attempt.path, [first], seen), expected: textOf(after) };
    attempt.input = inputFor(attempt.path, sems, seen);
    attempt.intended = recoverable(sems, seen, after) ? (intendedText(sems, after) ?? null) : null;
    attempt.mayRefuse = true;
    const again = resolve(sems, after);
    if (again) attempt.retry = { path: attempt.path, ops: again.ops, expected: printDoc(applySplices(after.doc, again.splices)) };
    return attempt;
  }
}
