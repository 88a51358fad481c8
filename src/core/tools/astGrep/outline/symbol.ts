import type { Range, SgNode } from '@ast-grep/napi';
import type { OutlineRange, OutlineSymbol } from './types';

/** Characters of a signature or first line; longer text ends in `…`. */
export const MAX_SIGNATURE_CHARS = 512;

/** What a language rule knows about one declaration; `symbolOf` derives the rest from the node. */
export interface Declaration {
  /** The node whose range the symbol covers (an `export` wrapper, a decorated definition …). */
  node: SgNode;
  name: string;
  type: string;
  exported: boolean;
  imported?: boolean;
  /**
   * Where the header ends: the body node (block, class body, field list …), a text index inside
   * `node` (UTF-16, from its start), or null when the whole declaration is its header.
   */
  body?: SgNode | number | null;
  /** Put before the header, for a declaration split off a shared statement (`const a = 1, b = 2`). */
  prefix?: string;
  members?: OutlineSymbol[];
}

function bounded(text: string): string {
  return text.length <= MAX_SIGNATURE_CHARS ? text : `${text.slice(0, MAX_SIGNATURE_CHARS - 1)}…`;
}

/** Whitespace runs (newlines included) as one space, trimmed. */
export function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** napi ranges are 0-based; outline ranges are 1-based, end exclusive (napi's end already is). */
export function rangeOf(node: SgNode): OutlineRange {
  return toOutlineRange(node.range());
}

function toOutlineRange({ start, end }: Range): OutlineRange {
  return { start: { line: start.line + 1, column: start.column + 1 }, end: { line: end.line + 1, column: end.column + 1 } };
}

/**
 * The declaration's text before its body, on one line. napi indices are UTF-16 offsets, as JS
 * strings are; `start` is the declaration's own start index.
 */
function headerOf(text: string, start: number, body: SgNode | number | null | undefined): string {
  let cut = text.length;
  if (typeof body === 'number') cut = body;
  else if (body) cut = body.range().start.index - start;
  return collapse(text.slice(0, Math.max(0, Math.min(cut, text.length))));
}

export function symbolOf(decl: Declaration): OutlineSymbol {
  // Each napi call costs microseconds: the text and range are fetched once.
  const text = decl.node.text();
  const range = decl.node.range();
  const newline = text.indexOf('\n');
  const header = headerOf(text, range.start.index, decl.body);
  return {
    name: decl.name,
    type: decl.type,
    signature: bounded(decl.prefix === undefined ? header : `${decl.prefix} ${header}`),
    firstLine: bounded((newline === -1 ? text : text.slice(0, newline)).trim()),
    exported: decl.exported,
    imported: decl.imported ?? false,
    range: toOutlineRange(range),
    members: decl.members ?? [],
  };
}

/** The text of a field, or undefined when the node has no such field. */
export function fieldText(node: SgNode, field: string): string | undefined {
  return fieldOf(node, field)?.text();
}

/** `field()` with a plain string: the rules handle several grammars, so napi's typed field names do not apply. */
export function fieldOf(node: SgNode, field: string): SgNode | null {
  return (node.field as (name: string) => SgNode | null)(field);
}

/** napi types kinds as a union that admits numbers (kind ids); the rules compare names. */
export function kindOf(node: SgNode): string {
  return String(node.kind());
}

/** The first direct child of one of the kinds, named or not. */
export function childOfKind(node: SgNode, ...kinds: string[]): SgNode | undefined {
  return node.children().find((child) => kinds.includes(kindOf(child)));
}

/** Members as members: their own members left out (outlines show direct members only). */
export function asMember(symbol: OutlineSymbol): OutlineSymbol {
  return symbol.members.length === 0 ? symbol : { ...symbol, members: [] };
}

/** A value that spans lines is cut from a signature (`const TABLE = [ … ]`); a one-line value stays. */
export function multiline(value: SgNode | null): SgNode | null {
  return value !== null && value.text().includes('\n') ? value : null;
}
