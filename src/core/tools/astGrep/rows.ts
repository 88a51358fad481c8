import type { SgNode } from '@ast-grep/napi';
import type { SourceLines } from './lines';
import { expandRewrite } from './rewrite';

/** A shown line longer than this (UTF-16 units) is clipped. */
const MAX_LINE_CHARS = 2_000;

function clip(line: string): string {
  return line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}… [line clipped at ${MAX_LINE_CHARS} characters]` : line;
}

/** The rows of one match: its lines, or with a rewrite its preview. */
export function matchRows(display: string, node: SgNode, lines: SourceLines, rewrite: string | undefined): string[] | { tooLarge: number } {
  const { start, end } = node.range();
  // A match ending at the start of a line does not take that line.
  const lastLine = end.line > start.line && end.column === 0 ? end.line - 1 : end.line;
  const spanned: string[] = [];
  for (let line = start.line; line <= lastLine; line++) spanned.push(lines.line(line));
  if (rewrite === undefined) return spanned.map((text, i) => `${display}:${start.line + i + 1}:${clip(text)}`);
  const indent = /^[ \t]*/.exec(spanned[0] ?? '')?.[0] ?? '';
  const expansion = expandRewrite(rewrite, node, lines.text, indent);
  if (!expansion.ok) return { tooLarge: expansion.estimate };
  const startByte = lines.byteOffset(start.index);
  const endByte = startByte + Buffer.byteLength(node.text(), 'utf8');
  const replaced = lines.before(start.line, start.index) + expansion.text + lines.after(end.index, lastLine);
  return [
    `${display}:${start.line + 1}: bytes [${startByte}, ${endByte})`,
    ...spanned.map((text) => `-${clip(text)}`),
    ...replaced.split('\n').map((text) => `+${clip(text.endsWith('\r') ? text.slice(0, -1) : text)}`),
  ];
}

