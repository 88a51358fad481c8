import type { Attempt } from './attempt';
import { attemptPath, baseAttempt, indentOf, inputFor, sem, tweakAll, type GenContext } from './craft';
import { pickFixture, variantText, type Variant } from './fixtures';
import { intendedText, resolve, similarity, type SemOp } from './model';
import { Rng } from './random';
import type { Lang } from './sources';

/** miscount with its confirm_resend twin, else_block, and messages. */

/** Below this similarity of the addressed lines to the meant ones, a miscount counts as detectable. */
export const DETECTABLE_BELOW = 0.5;

/**
 * The model edited lines K.. (a small change of exactly those lines) but wrote the range off by d.
 * The twin sends the same call into a fresh copy and, when refused, sends it once more: then it
 * must apply as written.
 */
export function miscount(ctx: GenContext, index: number): Attempt[] {
  const rng = Rng.fork(ctx.seed, `miscount:${index}`);
  for (;;) {
    const fx = pickFixture(ctx.pool, rng);
    const { attempt, seen } = baseAttempt(ctx, 'miscount', index, fx);
    const lines = seen.doc.lines;
    const len = rng.int(1, 4);
    const k = rng.int(1, Math.max(1, lines.length - len + 1));
    const d = rng.pick([-5, -4, -3, -2, -1, 1, 2, 3, 4, 5]);
    const meant = lines.slice(k - 1, k - 1 + len);
    if (k + d < 1 || k + d + len - 1 > lines.length || meant.every((l) => l.trim() === '')) continue;
    const body = tweakAll(meant, rng);
    if (body.every((l, i) => l === meant[i])) continue;
    const addressed = lines.slice(k + d - 1, k + d - 1 + len);
    const sim = similarity(addressed.join('\n'), meant.join('\n'));
    const meantOps = [sem(seen, 'SWAP', k, k + len - 1, body)];
    const writtenOps = [sem(seen, 'SWAP', k + d, k + d + len - 1, body)];
    attempt.subclass = sim < DETECTABLE_BELOW ? 'detectable' : 'undetectable';
    attempt.note = `meant SWAP ${k}.=${k + len - 1}, wrote ${k + d}.=${k + d + len - 1} (d=${d}, similarity ${sim.toFixed(2)})`;
    attempt.input = inputFor(attempt.path, writtenOps, seen);
    attempt.intended = intendedText(meantOps, seen) ?? null;
    attempt.mayRefuse = true;
    attempt.retry = { path: attempt.path, ops: resolve(meantOps, seen)?.ops ?? [], expected: attempt.intended ?? '' };

    const twin = baseAttempt(ctx, 'confirm_resend', index, fx);
    const asWritten = [sem(twin.seen, 'SWAP', k + d, k + d + len - 1, body)];
    const confirm = twin.attempt;
    confirm.subclass = attempt.subclass;
    confirm.note = `${attempt.note}; the same call sent again after a refusal must apply as written`;
    confirm.input = inputFor(confirm.path, asWritten, twin.seen);
    confirm.intended = intendedText(asWritten, twin.seen) ?? null;
    confirm.resend = true;
    confirm.retry = { path: confirm.path, ops: resolve(asWritten, twin.seen)?.ops ?? [], expected: confirm.intended ?? '' };
    return [attempt, confirm];
  }
}

interface Construct {
  kind: string;
  lines: string[];
  /** The clause the block continues into; undefined for a block that needs no continuation. */
  clause?: string;
}

/** The constructs, unindented; the meant block is all of their lines. */
function constructs(py: boolean, rng: Rng): Construct[] {
  const n = rng.int(1, 9);
  if (py) {
    return [
      { kind: 'py_elif', clause: 'elif', lines: [`if item.count > ${n}:`, '    total += item.count', 'elif item.count > 0:', '    total += 1', 'else:', '    skipped += 1'] },
      { kind: 'py_try', clause: 'except', lines: ['try:', '    value = int(item.raw)', 'except ValueError:', '    value = 0', 'finally:', '    seen += 1'] },
      { kind: 'py_control', lines: ['for part in item.parts:', `    total += part * ${n}`] },
    ];
  }
  return [
    { kind: 'else_braceless', clause: 'else', lines: [`if (item.count > ${n}) {`, '  total += item.count;', '} else', '  skipped++;'] },
    { kind: 'else_if_braceless', clause: 'else', lines: [`if (item.count > ${n}) {`, '  total += item.count;', '} else if (item.count === 0)', '  skipped++;'] },
    { kind: 'else_next_line', clause: 'else', lines: [`if (item.count > ${n}) {`, '  total += item.count;', '}', 'else {', '  skipped++;', '}'] },
    { kind: 'catch_next_line', clause: 'catch', lines: ['try {', '  value = JSON.parse(item.raw);', '}', 'catch (err) {', '  value = null;', '}', 'finally {', '  seen++;', '}'] },
    { kind: 'chain_braceless', clause: 'else', lines: [`if (item.count > ${n}) {`, '  total += item.count;', '} else if (item.count > 0) {', '  total += 1;', '} else', '  skipped++;'] },
    { kind: 'control_else', lines: [`if (item.count > ${n}) {`, '  total += item.count;', '} else {', '  skipped++;', '}'] },
    { kind: 'control_try', lines: ['try {', '  value = JSON.parse(item.raw);', '} catch (err) {', '  value = null;', '} finally {', '  seen++;', '}'] },
  ];
}

const ELSE_VARIANTS: readonly Variant[] = ['plain', 'crlf', 'bom', 'nofinal', 'tabs', 'unicode'];

/** SWAP.BLK / DEL.BLK / INS.BLK.POST at the first line of an if/try construct inside a function. */
export function elseBlock(ctx: GenContext, index: number): Attempt {
  const rng = Rng.fork(ctx.seed, `else_block:${index}`);
  const lang = rng.pick(['ts', 'js', 'py'] as const);
  const py = lang === 'py';
  const c = rng.pick(constructs(py, rng));
  const ind = py ? '    ' : '  ';
  const head = py
    ? ['import os', '', '', 'def tally(items, options):', '    total = 0', '    skipped = 0', '    seen = 0', '    for item in items:']
    : [lang === 'ts' ? "import type { Item } from './types';" : "'use strict';", '', 'export function tally(items, options) {', '  let total = 0;', '  let skipped = 0;', '  let seen = 0;', '  let value = null;', '  for (const item of items) {'];
  const inner = ind + ind;
  const tail = py ? ['    return total', '', '', 'def empty():', '    return []'] : ['  }', '  return total;', '}', '', 'export function empty() {', '  return [];', '}'];
  const text = [...head, ...c.lines.map((l) => inner + l), ...tail].join('\n') + '\n';
  const variant = rng.pick(ELSE_VARIANTS);
  const name = `tally.${lang}`;
  const fxText = variantText({ name, lang, text, origin: 'generated' }, variant, rng);
  const { attempt, seen } = baseAttempt(ctx, 'else_block', index, { name, lang, text: fxText, origin: 'generated', variant });
  const s = head.length + 1;
  const e = s + c.lines.length - 1;
  const op = rng.pick(['SWAP.BLK', 'DEL.BLK', 'INS.BLK.POST'] as const);
  const body = op === 'SWAP.BLK' ? tweakAll(seen.doc.lines.slice(s - 1, e), rng) : [indentOf(seen.doc.lines[s - 1] ?? '') + (py ? 'seen += 1' : 'seen++;')];
  const meant: SemOp[] = [sem(seen, op, s, e, op === 'DEL.BLK' ? [] : body)];
  const explicit: SemOp[] = [op === 'SWAP.BLK' ? sem(seen, 'SWAP', s, e, body) : op === 'DEL.BLK' ? sem(seen, 'DEL', s, e) : sem(seen, 'INS.POST', e, e, body)];
  attempt.subclass = c.kind;
  attempt.note = `${op} ${s} on ${c.kind}: the meant block is lines ${s}-${e}`;
  attempt.input = inputFor(attempt.path, meant, seen);
  attempt.intended = intendedText(meant, seen) ?? null;
  attempt.mayRefuse = c.clause !== undefined;
  if (c.clause) attempt.checks.push({ name: 'else_block: a refusal names the continuation', needle: c.clause, whenRefused: true });
  attempt.retry = { path: attempt.path, ops: resolve(explicit, seen)?.ops ?? [], expected: attempt.intended ?? '' };
  return attempt;
}

const MESSAGE_KINDS = ['mistyped_path', 'short_tag', 'other_tag', 'missing_plus'] as const;

/** A swap of two letters in the file name (not the extension). */
function typo(path: string): string {
  const slash = path.lastIndexOf('/');
  const name = path.slice(slash + 1);
  const dot = name.lastIndexOf('.');
  const stem = name.slice(0, dot);
  const swapped = stem.length > 2 ? stem.slice(0, 1) + stem[2] + stem[1] + stem.slice(3) : `${stem}x`;
  return path.slice(0, slash + 1) + (swapped === stem ? `${stem}x` : swapped) + name.slice(dot);
}

/**
 * The text with one line naming `mark`, so its tag is this file's alone: the pool's files are
 * copied many times, and a tag several files share would let the message name any of them.
 */
function withMark(text: string, lang: Lang, mark: string): string {
  const lines = text.split('\n');
  const comment: Record<Lang, string> = { ts: `// ${mark}`, js: `// ${mark}`, css: `/* ${mark} */`, py: `# ${mark}`, yaml: `# ${mark}`, md: `<!-- ${mark} -->`, json: `  "copy": "${mark}",` };
  lines.splice(lang === 'json' ? 1 : 0, 0, comment[lang]);
  return lines.join('\n');
}

export function messages(ctx: GenContext, index: number): Attempt {
  const rng = Rng.fork(ctx.seed, `messages:${index}`);
  const kind = MESSAGE_KINDS[index % MESSAGE_KINDS.length] ?? 'short_tag';
  for (;;) {
    const fx = pickFixture(ctx.pool, rng);
    const other = pickFixture(ctx.pool, rng);
    const { attempt, seen } = baseAttempt(ctx, 'messages', index, fx);
    const lines = seen.doc.lines;
    const len = kind === 'missing_plus' ? rng.int(2, 3) : rng.int(1, 2);
    const a = rng.int(1, Math.max(1, lines.length - len + 1));
    const body = tweakAll(lines.slice(a - 1, a - 1 + len), rng);
    // Rows that could not parse as anything but forgotten text: not blank, no header, no '+'.
    if (body.length < len || (kind === 'missing_plus' && body.some((r) => r.trim() === '' || /^\s*[[+]/.test(r)))) continue;
    const valid = [sem(seen, 'SWAP', a, a + len - 1, body)];
    const otherPath = attemptPath('messages', index, `other-${other.name}`);
    attempt.files[otherPath] = withMark(other.text, other.lang, otherPath);
    const good = inputFor(attempt.path, valid, seen);
    const rows = good.split('\n');
    attempt.subclass = kind;
    attempt.intended = null;
    attempt.mayRefuse = true;
    attempt.retry = { path: attempt.path, ops: resolve(valid, seen)?.ops ?? [], expected: intendedText(valid, seen) ?? '' };
    if (kind === 'mistyped_path') {
      const wrong = typo(attempt.path);
      attempt.input = [`[${wrong}#{{TAG}}]`, ...rows.slice(1)].join('\n');
      attempt.mustNotExist = wrong;
      attempt.checks.push({ name: 'mistyped path: says use find', needle: 'use find' });
      attempt.note = `header path ${wrong} instead of ${attempt.path}`;
    } else if (kind === 'short_tag') {
      attempt.input = [`[${attempt.path}#{{TAG:${attempt.path}:4}}]`, ...rows.slice(1)].join('\n');
      attempt.checks.push({ name: '4-hex tag: says six hex digits', needle: 'six hex digits' });
      attempt.note = 'header tag cut to 4 hex digits';
    } else if (kind === 'other_tag') {
      attempt.input = [`[${attempt.path}#{{TAG:${otherPath}}}]`, ...rows.slice(1)].join('\n');
      attempt.checks.push({ name: "other file's tag: names that file", needle: `was produced for ${otherPath}` });
      attempt.note = `tag of ${otherPath} used for ${attempt.path}`;
    } else {
      attempt.input = [rows[0], rows[1], ...rows.slice(2).map((r) => r.slice(1))].join('\n');
      attempt.checks.push({ name: "missing '+': names the input rows", needle: `input lines 3-${2 + len}` });
      attempt.note = `every body row of SWAP ${a}.=${a + len - 1} written without '+'`;
    }
    return attempt;
  }
}
