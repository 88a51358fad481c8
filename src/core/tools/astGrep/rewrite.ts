import type { SgNode } from '@ast-grep/napi';
import { MAX_REPLACEMENT_BYTES } from './limits';

/** `$$$NAME`, `$NAME` and `$_` in a rewrite template (always written with `$`, in every language). */
const METAVARIABLE = /\$\$\$([A-Z_][A-Z0-9_]*)|\$([A-Z_][A-Z0-9_]*)/g;

/** The source text one capture stands for: a single node, or the span of a `$$$` list. */
function captureText(match: SgNode, source: string, multiple: boolean, name: string): string {
  if (!multiple) return match.getMatch(name)?.text() ?? '';
  const nodes = match.getMultipleMatches(name);
  if (nodes.length === 0) return '';
  const first = nodes[0] as SgNode;
  const last = nodes[nodes.length - 1] as SgNode;
  return source.slice(first.range().start.index, last.range().end.index);
}

export type Expansion = { ok: true; text: string } | { ok: false; estimate: number };

/**
 * The replacement for one match: the template with each metavariable replaced by what it
 * captured (an unmatched one by nothing), and every template line after the first indented like
 * the match's first line, as ast-grep re-indents a fix. The size is estimated first — template
 * plus every capture it uses — and nothing is built past MAX_REPLACEMENT_BYTES.
 */
export function expandRewrite(template: string, match: SgNode, source: string, indent: string, cap = MAX_REPLACEMENT_BYTES): Expansion {
  const captures = new Map<string, string>();
  let estimate = Buffer.byteLength(template, 'utf8');
  for (const m of template.matchAll(METAVARIABLE)) {
    const key = m[0];
    let text = captures.get(key);
    if (text === undefined) {
      text = captureText(match, source, m[1] !== undefined, (m[1] ?? m[2]) as string);
      captures.set(key, text);
    }
    estimate += Buffer.byteLength(text, 'utf8');
    if (estimate > cap) return { ok: false, estimate };
  }
  const indented = template.split('\n').join('\n' + indent);
  return { ok: true, text: indented.replace(METAVARIABLE, (whole) => captures.get(whole) ?? '') };
}
