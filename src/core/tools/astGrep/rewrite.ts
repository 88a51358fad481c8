import type { SgNode } from '@ast-grep/napi';
import { MAX_REPLACEMENT_BYTES } from './limits';

/** `$$$NAME`, `$NAME` and `$_` in a rewrite template (always written with `$`, in every language). */
const METAVARIABLE = /\$\$\$([A-Z_][A-Z0-9_]*)|\$([A-Z_][A-Z0-9_]*)/g;

/** The source text one capture stands for (a single node, or the span of a `$$$` list) and the indentation where it starts. */
function captureOf(match: SgNode, source: string, multiple: boolean, name: string): { text: string; indent: number } {
  let start: number;
  let end: number;
  if (multiple) {
    const nodes = match.getMultipleMatches(name);
    if (nodes.length === 0) return { text: '', indent: 0 };
    start = (nodes[0] as SgNode).range().start.index;
    end = (nodes[nodes.length - 1] as SgNode).range().end.index;
  } else {
    const node = match.getMatch(name);
    if (node === null) return { text: '', indent: 0 };
    ({ start: { index: start }, end: { index: end } } = node.range());
  }
  return { text: source.slice(start, end), indent: spacesBefore(source, 0, start) };
}

export type Expansion = { ok: true; text: string } | { ok: false; estimate: number };

/**
 * ast-grep's indentation at `index`: the spaces that begin its line, or the text from `from` when
 * that is later. Only spaces count; a tab ends the run (ast-grep does not support tabs).
 */
function spacesBefore(text: string, from: number, index: number): number {
  const start = Math.max(from, text.lastIndexOf('\n', index - 1) + 1);
  let count = 0;
  while (start + count < index && text.charCodeAt(start + count) === 32) count++;
  return count;
}

/** Shifts every line after the first of a multi-line text by `delta` spaces (removed where present when negative). */
function shiftLines(text: string, delta: number): string {
  if (delta === 0 || !text.includes('\n')) return text;
  if (delta > 0) return text.split('\n').join('\n' + ' '.repeat(delta));
  const prefix = ' '.repeat(-delta);
  return text.split('\n').map((line) => (line.startsWith(prefix) ? line.slice(prefix.length) : line)).join('\n');
}

/**
 * The replacement for one match, indented the way ast-grep indents a fix: a multi-line capture
 * keeps its layout relative to the metavariable's place in the template, an unmatched
 * metavariable becomes nothing, and every line after the first is then indented by the spaces
 * that begin the match's line (`indent` is that line's leading whitespace). The size is estimated
 * first — template plus every capture it uses — and nothing is built past `cap` bytes.
 */
export function expandRewrite(template: string, match: SgNode, source: string, indent: string, cap = MAX_REPLACEMENT_BYTES): Expansion {
  const captures = new Map<string, { text: string; indent: number }>();
  let estimate = Buffer.byteLength(template, 'utf8');
  const uses = [...template.matchAll(METAVARIABLE)];
  for (const m of uses) {
    const key = m[0];
    let capture = captures.get(key);
    if (capture === undefined) {
      capture = captureOf(match, source, m[1] !== undefined, (m[1] ?? m[2]) as string);
      captures.set(key, capture);
    }
    estimate += Buffer.byteLength(capture.text, 'utf8');
    if (estimate > cap) return { ok: false, estimate };
  }
  let text = '';
  let end = 0;
  for (const m of uses) {
    const capture = captures.get(m[0]) as { text: string; indent: number };
    text += template.slice(end, m.index) + shiftLines(capture.text, spacesBefore(template, end, m.index) - capture.indent);
    end = m.index + m[0].length;
  }
  text += template.slice(end);
  return { ok: true, text: shiftLines(text, /^ */.exec(indent)?.[0].length ?? 0) };
}
