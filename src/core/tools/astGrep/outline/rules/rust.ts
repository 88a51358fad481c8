import type { SgNode } from '@ast-grep/napi';
import type { OutlineSymbol } from '../types';
import { asMember, childOfKind, collapse, fieldOf, fieldText, kindOf, multiline, rangeOf, symbolOf } from '../symbol';

/**
 * Rust: items of a source file (and of an inline `mod m { }` as its members). `exported` is plain
 * `pub` (a crate's API); `pub(crate)`, `pub(super)` and `pub(in …)` are not. Trait items and enum
 * variants are as visible as their trait or enum (exported). An `impl` block has no visibility of
 * its own: a trait impl is exported, an inherent impl when one of its items is `pub`. Impl names are
 * their header after `impl` and its generics: `Point<T>`, `Display for Point<T>`.
 */
function isPub(node: SgNode): boolean {
  const first = node.child(0);
  return first !== null && first.kind() === 'visibility_modifier' && first.text() === 'pub';
}

const SIMPLE: Record<string, string> = {
  function_item: 'function',
  function_signature_item: 'function',
  const_item: 'constant',
  static_item: 'variable',
  type_item: 'typeAlias',
  associated_type: 'typeAlias',
  macro_definition: 'macro',
};

/** One item, or undefined for nodes that are not declarations (attributes, comments, macro calls). */
export function rustItem(node: SgNode, inTrait = false): OutlineSymbol | undefined {
  const kind = node.kind();
  const pub = inTrait || isPub(node);
  const simple = SIMPLE[kind];
  if (simple !== undefined) {
    const name = fieldText(node, 'name');
    if (name === undefined) return undefined;
    // A macro's rules are its body: `macro_rules! name`.
    const body = kind === 'macro_definition' ? (childOfKind(node, '{', '(', '[') ?? null) : (fieldOf(node, 'body') ?? multiline(fieldOf(node, 'value')));
    return symbolOf({ node, name, type: simple, exported: pub, body });
  }
  switch (kind) {
    case 'use_declaration': {
      const argument = fieldText(node, 'argument');
      return argument === undefined ? undefined : symbolOf({ node, name: collapse(argument), type: 'import', exported: pub, imported: true });
    }
    case 'extern_crate_declaration': {
      const name = fieldText(node, 'name');
      return name === undefined ? undefined : symbolOf({ node, name, type: 'import', exported: pub, imported: true });
    }
    case 'struct_item':
    case 'union_item':
    case 'enum_item':
    case 'trait_item':
      return container(node, kind.slice(0, -'_item'.length), pub);
    case 'impl_item':
      return implBlock(node);
    case 'mod_item': {
      const name = fieldText(node, 'name');
      if (name === undefined) return undefined;
      const body = fieldOf(node, 'body');
      const members = body === null ? [] : itemsOf(body, false).map(asMember);
      return symbolOf({ node, name, type: 'module', exported: pub, body, members });
    }
    default:
      return undefined;
  }
}

function itemsOf(body: SgNode, inTrait: boolean): OutlineSymbol[] {
  const out: OutlineSymbol[] = [];
  for (const child of body.namedChildren()) {
    const item = rustItem(child, inTrait);
    if (item !== undefined) out.push(item);
  }
  return out;
}

function container(node: SgNode, type: string, pub: boolean): OutlineSymbol | undefined {
  const name = fieldText(node, 'name');
  if (name === undefined) return undefined;
  const body = fieldOf(node, 'body');
  let members: OutlineSymbol[] = [];
  if (body !== null) {
    if (type === 'trait') members = itemsOf(body, true).map((m) => (m.type === 'function' ? { ...m, type: 'method' } : m));
    else if (type === 'enum') members = variantsOf(body);
    else members = fieldsOf(body);
  }
  return symbolOf({ node, name, type, exported: pub, body, members });
}

function variantsOf(body: SgNode): OutlineSymbol[] {
  const out: OutlineSymbol[] = [];
  for (const child of body.namedChildren()) {
    if (child.kind() !== 'enum_variant') continue;
    const name = fieldText(child, 'name');
    if (name !== undefined) out.push(symbolOf({ node: child, name, type: 'enumMember', exported: true }));
  }
  return out;
}

/** Named fields (`x: T`) or tuple fields, named by position (`0`, `1` …). */
function fieldsOf(body: SgNode): OutlineSymbol[] {
  const out: OutlineSymbol[] = [];
  if (body.kind() === 'field_declaration_list') {
    for (const child of body.namedChildren()) {
      if (child.kind() !== 'field_declaration') continue;
      const name = fieldText(child, 'name');
      if (name !== undefined) out.push(symbolOf({ node: child, name, type: 'field', exported: isPub(child) }));
    }
    return out;
  }
  if (body.kind() !== 'ordered_field_declaration_list') return out;
  // A tuple field is a visibility (optional) followed by a type; attributes may precede either.
  let visibility: SgNode | null = null;
  for (const child of body.namedChildren()) {
    const kind = kindOf(child);
    if (kind === 'attribute_item' || kind.endsWith('comment')) continue;
    if (kind === 'visibility_modifier') {
      visibility = child;
      continue;
    }
    const field = symbolOf({ node: child, name: String(out.length), type: 'field', exported: visibility?.text() === 'pub' });
    if (visibility !== null) {
      field.range.start = rangeOf(visibility).start;
      field.signature = `${collapse(visibility.text())} ${field.signature}`;
    }
    out.push(field);
    visibility = null;
  }
  return out;
}

function implBlock(node: SgNode): OutlineSymbol | undefined {
  const type = fieldOf(node, 'type');
  if (type === null) return undefined;
  const trait = fieldOf(node, 'trait');
  const name = collapse(trait === null ? type.text() : `${trait.text()} for ${type.text()}`);
  const body = fieldOf(node, 'body');
  const members = body === null ? [] : itemsOf(body, trait !== null).map((m) => (m.type === 'function' ? { ...m, type: 'method' } : m));
  const exported = trait !== null || members.some((m) => m.exported);
  return symbolOf({ node, name, type: 'impl', exported, body, members });
}
