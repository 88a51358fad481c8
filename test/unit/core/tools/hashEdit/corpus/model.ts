/**
 * The oracle: an independent, splice-based model of what `hash_edit`'s description promises, used
 * to compute the bytes a model MEANT. It shares no code with src/core/tools/hashEdit (nor with
 * src/core/tools/textDoc): it is written from the description only.
 *
 * Lines carry identities (`Tracked.ids`) so the generator always knows where an originally read
 * line went after an outside change or an earlier edit — that is how "the true position of the
 * anchored lines" is defined.
 */

/** A text file as lines with their own terminators; the last terminator may be '' (no final newline). */
export interface Doc {
  bom: boolean;
  lines: string[];
  eols: string[];
}

export function parseDoc(text: string): Doc {
  const bom = text.charCodeAt(0) === 0xfeff;
  const body = bom ? text.slice(1) : text;
  const lines: string[] = [];
  const eols: string[] = [];
  let at = 0;
  while (at < body.length) {
    let end = at;
    while (end < body.length && body[end] !== '\n' && body[end] !== '\r') end++;
    lines.push(body.slice(at, end));
    const eol = body.startsWith('\r\n', end) ? '\r\n' : end < body.length ? (body[end] as string) : '';
    eols.push(eol);
    at = end + eol.length;
  }
  return { bom, lines, eols };
}

export function printDoc(doc: Doc): string {
  return (doc.bom ? '\uFEFF' : '') + doc.lines.map((line, i) => line + (doc.eols[i] ?? '')).join('');
}

/** The terminator new lines get: the most frequent one, LF when the file has none. */
export function dominantEol(doc: Doc): string {
  const tally: Record<string, number> = {};
  for (const eol of doc.eols) if (eol !== '') tally[eol] = (tally[eol] ?? 0) + 1;
  return Object.entries(tally).sort((x, y) => y[1] - x[1])[0]?.[0] ?? '\n';
}

/** Old lines [from, to) (0-based) become `body`; from === to inserts before old line `from`. */
export interface Splice {
  from: number;
  to: number;
  body: readonly string[];
}

/** Applies disjoint splices with the description's line-ending rules; returns the new doc and, per new line, the old index or -1. */
function spliceWithMap(doc: Doc, splices: readonly Splice[]): { doc: Doc; origin: number[] } {
  const order = [...splices].sort((x, y) => x.from - y.from || (x.to - x.from) - (y.to - y.from));
  const eol = dominantEol(doc);
  const lines: string[] = [];
  const eols: string[] = [];
  const origin: number[] = [];
  let cursor = 0;
  const keep = (until: number): void => {
    for (; cursor < until; cursor++) {
      lines.push(doc.lines[cursor] as string);
      eols.push(doc.eols[cursor] || eol);
      origin.push(cursor);
    }
  };
  for (const s of order) {
    if (s.from < cursor || s.to < s.from || s.to > doc.lines.length) throw new Error(`model: bad or overlapping splice ${JSON.stringify(s)}`);
    keep(s.from);
    for (const text of s.body) {
      lines.push(text);
      eols.push(eol);
      origin.push(-1);
    }
    cursor = s.to;
  }
  keep(doc.lines.length);
  // A file that ended without a newline still does — unless its last line is now empty, which only
  // exists as a line when terminated; an empty file gains text that ends with one.
  const noFinal = doc.lines.length > 0 && doc.eols[doc.lines.length - 1] === '';
  if (noFinal && eols.length > 0) eols[eols.length - 1] = lines[lines.length - 1] === '' ? eol : '';
  return { doc: { bom: doc.bom, lines, eols }, origin };
}

export function applySplices(doc: Doc, splices: readonly Splice[]): Doc {
  return spliceWithMap(doc, splices).doc;
}

/**
 * Every splice that turns `lines` into the same text as `s` (a pure insert or a pure delete), `s`
 * first: an inserted or deleted run can slide along equal neighbours (insert "}" next to "}") and
 * nothing in the text says which reading happened.
 */
export function equivalentSplices(lines: readonly string[], s: Splice): Splice[] {
  const out: Splice[] = [s];
  const insert = s.from === s.to;
  if (!insert && s.body.length > 0) return out;
  for (const dir of [-1, 1]) {
    let cur = s;
    for (;;) {
      const k = insert ? cur.body.length : cur.to - cur.from;
      if (k === 0) break;
      let next: Splice | undefined;
      if (insert && dir < 0 && cur.from > 0 && cur.body[k - 1] === lines[cur.from - 1]) {
        next = { from: cur.from - 1, to: cur.from - 1, body: [cur.body[k - 1] as string, ...cur.body.slice(0, -1)] };
      } else if (insert && dir > 0 && cur.from < lines.length && cur.body[0] === lines[cur.from]) {
        next = { from: cur.from + 1, to: cur.from + 1, body: [...cur.body.slice(1), cur.body[0] as string] };
      } else if (!insert && dir < 0 && cur.from > 0 && lines[cur.from - 1] === lines[cur.to - 1]) {
        next = { from: cur.from - 1, to: cur.to - 1, body: [] };
      } else if (!insert && dir > 0 && cur.to < lines.length && lines[cur.from] === lines[cur.to]) {
        next = { from: cur.from + 1, to: cur.to + 1, body: [] };
      }
      if (!next) break;
      out.push(next);
      cur = next;
    }
  }
  return out;
}

/** A doc whose lines carry identities; `touched` ids had their text changed in place. */
export interface Tracked {
  doc: Doc;
  ids: number[];
  touched: ReadonlySet<number>;
}

/** Hands out fresh line identities. */
export class IdSource {
  private last = 0;
  take(): number {
    return ++this.last;
  }
}

export function track(text: string, ids: IdSource): Tracked {
  const doc = parseDoc(text);
  return { doc, ids: doc.lines.map(() => ids.take()), touched: new Set() };
}

export function spliceTracked(tr: Tracked, splices: readonly Splice[], ids: IdSource): Tracked {
  const { doc, origin } = spliceWithMap(tr.doc, splices);
  return { doc, ids: origin.map((o) => (o < 0 ? ids.take() : (tr.ids[o] as number))), touched: tr.touched };
}

/** Changes the text of line `index` (0-based) in place: same identity, marked touched. */
export function modifyLine(tr: Tracked, index: number, text: string): Tracked {
  const lines = [...tr.doc.lines];
  lines[index] = text;
  return { doc: { ...tr.doc, lines }, ids: tr.ids, touched: new Set([...tr.touched, tr.ids[index] as number]) };
}

export const textOf = (tr: Tracked): string => printDoc(tr.doc);

export type OpKind = 'SWAP' | 'DEL' | 'INS.PRE' | 'INS.POST' | 'INS.HEAD' | 'INS.TAIL' | 'SWAP.BLK' | 'DEL.BLK' | 'INS.BLK.POST';

/** An op as written: lines `a`..`b` (a === b for single-line ops, both 0 for HEAD/TAIL). */
export interface Op {
  kind: OpKind;
  a: number;
  b: number;
  body: string[];
}

/** The op line and its body rows, exactly as the model writes them. */
export function renderOp(op: Op): string[] {
  const range = op.a === op.b ? `${op.a}` : `${op.a}.=${op.b}`;
  const head: Record<OpKind, string> = {
    SWAP: `SWAP ${range}:`,
    DEL: `DEL ${range}`,
    'INS.PRE': `INS.PRE ${op.a}:`,
    'INS.POST': `INS.POST ${op.a}:`,
    'INS.HEAD': 'INS.HEAD:',
    'INS.TAIL': 'INS.TAIL:',
    'SWAP.BLK': `SWAP.BLK ${op.a}:`,
    'DEL.BLK': `DEL.BLK ${op.a}`,
    'INS.BLK.POST': `INS.BLK.POST ${op.a}:`,
  };
  const bodyless = op.kind === 'DEL' || op.kind === 'DEL.BLK';
  return [head[op.kind], ...(bodyless ? [] : op.body.map((t) => `+${t}`))];
}

export function renderSection(path: string, tag: string, ops: readonly Op[]): string {
  return [`[${path}#${tag}]`, ...ops.flatMap(renderOp)].join('\n');
}

/**
 * An edit by line identity: lines `first`..`last` (a block op's `last` is the end of the block the
 * model meant), or the anchor `first` of an insert; 0 for INS.HEAD/INS.TAIL.
 */
export interface SemOp {
  kind: OpKind;
  first: number;
  last: number;
  body: string[];
}

/** The ops (numbers of `tr`) and splices that carry out `sem` on `tr`; undefined when a line it names is gone. */
export function resolve(sem: readonly SemOp[], tr: Tracked): { ops: Op[]; splices: Splice[] } | undefined {
  const ops: Op[] = [];
  const splices: Splice[] = [];
  for (const s of sem) {
    const a = tr.ids.indexOf(s.first);
    const b = tr.ids.indexOf(s.last);
    const n = tr.doc.lines.length;
    if (s.kind === 'INS.HEAD' || s.kind === 'INS.TAIL') {
      ops.push({ kind: s.kind, a: 0, b: 0, body: s.body });
      splices.push(s.kind === 'INS.HEAD' ? { from: 0, to: 0, body: s.body } : { from: n, to: n, body: s.body });
      continue;
    }
    if (a < 0 || b < a) return undefined;
    const single = s.kind === 'INS.PRE' || s.kind === 'INS.POST' || s.kind.endsWith('.BLK') || s.kind === 'INS.BLK.POST';
    ops.push({ kind: s.kind, a: a + 1, b: single ? a + 1 : b + 1, body: s.body });
    if (s.kind === 'INS.PRE') splices.push({ from: a, to: a, body: s.body });
    else if (s.kind === 'INS.POST') splices.push({ from: a + 1, to: a + 1, body: s.body });
    else if (s.kind === 'INS.BLK.POST') splices.push({ from: b + 1, to: b + 1, body: s.body });
    else splices.push({ from: a, to: b + 1, body: s.kind === 'DEL' || s.kind === 'DEL.BLK' ? [] : s.body });
  }
  return { ops, splices };
}

/** The identities `sem` relies on in `seen`: every replaced, deleted or block line, and insert anchors. */
export function reliedIds(sem: readonly SemOp[], seen: Tracked): number[][] {
  return sem.map((s) => {
    if (s.kind === 'INS.HEAD' || s.kind === 'INS.TAIL') return [];
    if (s.kind === 'INS.PRE' || s.kind === 'INS.POST') return [s.first];
    return seen.ids.slice(seen.ids.indexOf(s.first), seen.ids.indexOf(s.last) + 1);
  });
}

/**
 * Whether `sem`, planned on `seen`, can still be applied to `current` without guessing: every
 * relied-on line still exists with its text, and each range is still contiguous (nothing inserted
 * inside it).
 */
export function recoverable(sem: readonly SemOp[], seen: Tracked, current: Tracked): boolean {
  return reliedIds(sem, seen).every((ids) => {
    const at = ids.map((id) => current.ids.indexOf(id));
    return at.every((p, i) => p >= 0 && !current.touched.has(ids[i] as number) && (i === 0 || p === (at[i - 1] as number) + 1));
  });
}

/** The file text after carrying out `sem` on `tr`, or undefined when it cannot be located. */
export function intendedText(sem: readonly SemOp[], tr: Tracked): string | undefined {
  const r = resolve(sem, tr);
  return r ? printDoc(applySplices(tr.doc, r.splices)) : undefined;
}

/** Normalized Levenshtein similarity in [0, 1] (1 = equal); long texts are compared on their first 2,000 code units. */
export function similarity(x: string, y: string): number {
  const a = x.slice(0, 2000);
  const b = y.slice(0, 2000);
  if (a === b) return 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row.push(Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost));
    }
    prev = row;
  }
  return 1 - (prev[b.length] as number) / Math.max(a.length, b.length);
}
