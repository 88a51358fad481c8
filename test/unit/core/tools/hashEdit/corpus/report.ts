import type { Outcome, Verdict } from './run';
import type { CheckResult } from './session';

/** Tallies and the printed table, check summary and failure examples. */

export interface Row {
  label: string;
  attempts: number;
  counts: Record<Verdict, number>;
  retryTried: number;
  retryOk: number;
}

const VERDICTS: readonly Verdict[] = ['exact', 'wrong', 'refused', 'over_refused', 'partial', 'crash'];

/** The table's row of an outcome: its category, with miscount split into detectable and undetectable. */
export function rowLabel(o: Outcome): string {
  return o.attempt.category === 'miscount' ? `miscount (${o.attempt.subclass})` : o.attempt.category;
}

export function tally(outcomes: readonly Outcome[]): Row[] {
  const rows = new Map<string, Row>();
  const total: Row = { label: 'total', attempts: 0, counts: zero(), retryTried: 0, retryOk: 0 };
  for (const o of outcomes) {
    const label = rowLabel(o);
    let row = rows.get(label);
    if (!row) rows.set(label, (row = { label, attempts: 0, counts: zero(), retryTried: 0, retryOk: 0 }));
    for (const r of [row, total]) {
      r.attempts++;
      r.counts[o.verdict]++;
      if (o.retried !== undefined) {
        r.retryTried++;
        if (o.retried) r.retryOk++;
      }
    }
  }
  return [...rows.values(), total];
}

function zero(): Record<Verdict, number> {
  return { exact: 0, wrong: 0, refused: 0, over_refused: 0, partial: 0, crash: 0 };
}

export function formatTable(rows: readonly Row[]): string {
  const head = ['category', 'attempts', 'exact', 'wrong', 'refused', 'over-refused', 'partial', 'crash', 'retry ok'];
  const body = rows.map((r) => [r.label, String(r.attempts), ...VERDICTS.map((v) => String(r.counts[v])), r.retryTried ? `${r.retryOk}/${r.retryTried} (${Math.round((100 * r.retryOk) / r.retryTried)}%)` : '-']);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? '').length)));
  const line = (cells: readonly string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

export interface CheckRow {
  name: string;
  pass: number;
  fail: number;
  example?: CheckResult;
}

export function summarizeChecks(checks: readonly CheckResult[]): CheckRow[] {
  const rows = new Map<string, CheckRow>();
  for (const c of checks) {
    let row = rows.get(c.name);
    if (!row) rows.set(c.name, (row = { name: c.name, pass: 0, fail: 0 }));
    if (c.pass) row.pass++;
    else {
      row.fail++;
      row.example ??= c;
    }
  }
  return [...rows.values()];
}

export function formatChecks(rows: readonly CheckRow[]): string {
  const width = Math.max(...rows.map((r) => r.name.length), 5);
  return rows.map((r) => `${r.name.padEnd(width)}  pass ${String(r.pass).padStart(4)}  fail ${String(r.fail).padStart(4)}`).join('\n');
}

const show = (line: string): string => {
  const visible = line.replace(/\r/g, '␍').replace(/\uFEFF/g, '<BOM>');
  return visible.length > 110 ? `${visible.slice(0, 110)}…(${visible.length} chars)` : visible;
};

/** The first differing line of two texts, with two lines of context from each. */
export function firstDifference(expected: string, got: string): string {
  const e = expected.split('\n');
  const g = got.split('\n');
  let i = 0;
  while (i < e.length && i < g.length && e[i] === g[i]) i++;
  if (i === e.length && i === g.length) return '(identical)';
  const from = Math.max(0, i - 2);
  const out: string[] = [];
  for (let k = from; k < Math.min(e.length, i + 3); k++) out.push(`  want ${k + 1}: ${show(e[k] ?? '')}`);
  for (let k = from; k < Math.min(g.length, i + 3); k++) out.push(`  got  ${k + 1}: ${show(g[k] ?? '')}`);
  return out.join('\n');
}

const FAILING: readonly Verdict[] = ['wrong', 'partial', 'crash', 'over_refused'];

/** Up to `max` failing attempts per row, each with its input and expected-vs-got. */
export function failureExamples(outcomes: readonly Outcome[], max: number): string {
  const byRow = new Map<string, Outcome[]>();
  for (const o of outcomes) {
    if (!FAILING.includes(o.verdict)) continue;
    const list = byRow.get(rowLabel(o)) ?? [];
    if (list.length < max) byRow.set(rowLabel(o), [...list, o]);
  }
  const parts: string[] = [];
  for (const [label, list] of byRow) {
    parts.push(`== ${label}`);
    for (const o of list) {
      const a = o.attempt;
      parts.push(`-- ${a.id} [${o.verdict}] ${a.lang}/${a.variant} ${a.origin} ${a.path}: ${a.note}`);
      parts.push(...o.sent.split('\n').slice(0, 8).map((l) => `  > ${show(l)}`));
      if (o.detail) parts.push(`  ! ${show(o.detail.split('\n')[0] ?? '')}`);
      if (o.verdict !== 'over_refused' && o.verdict !== 'crash') parts.push(firstDifference(o.expected, o.after));
    }
  }
  return parts.join('\n');
}

/** Refusals of stale attempts the oracle could place: acceptable, but each is a retry a model must make. */
export function recoverableRefusals(outcomes: readonly Outcome[], max: number): string {
  const parts: string[] = [];
  for (const category of ['stale_outside', 'stale_session'] as const) {
    const placeable = outcomes.filter((o) => o.attempt.category === category && o.attempt.intended !== null);
    const refused = placeable.filter((o) => o.verdict === 'refused');
    parts.push(`${category}: ${refused.length} of ${placeable.length} recoverable attempts refused`);
    for (const o of refused.slice(0, max)) parts.push(`  ${o.attempt.id} (${o.attempt.subclass}): ${show(o.detail.split('\n')[0] ?? '')}`);
  }
  return parts.join('\n');
}
