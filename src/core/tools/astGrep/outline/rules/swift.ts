import type { SgNode } from '@ast-grep/napi';
import type { OutlineSymbol } from '../types';
import { childOfKind, collapse, fieldOf, fieldText, kindOf, multiline, symbolOf } from '../symbol';

/**
 * Swift by its default visibility: `internal` is module-wide, not API, so only `public` and `open`
 * are exported. Protocol requirements and enum cases are as visible as their protocol or enum; an
 * extension is exported when it is `public` or one of its members is. The grammar uses one
 * class_declaration kind for class, struct, enum, extension and actor; its keyword tells them
 * apart (an actor outlines as a class). Extensions are named by the type they extend.
 */
function isPublic(node: SgNode): boolean {
  const modifiers = childOfKind(node, 'modifiers');
  if (modifiers === undefined) return false;
  return modifiers.namedChildren().some((m) => kindOf(m) === 'visibility_modifier' && /^(public|open)\b/.test(m.text()));
}

const KEYWORD_TYPES: Record<string, string> = { class: 'class', struct: 'struct', enum: 'enum', extension: 'extension', actor: 'class' };

export function swiftItem(node: SgNode): OutlineSymbol[] {
  if (kindOf(node) === 'import_declaration') {
    const name = childOfKind(node, 'identifier')?.text() ?? collapse(node.text());
    return [symbolOf({ node, name, type: 'import', exported: false, imported: true })];
  }
  return swiftDeclaration(node, undefined, true);
}

/** `inherited`: the visibility protocol requirements and enum cases take from their parent. */
function swiftDeclaration(node: SgNode, inherited: boolean | undefined, withMembers: boolean): OutlineSymbol[] {
  const kind = kindOf(node);
  const exported = inherited ?? isPublic(node);
  const inType = inherited !== undefined || !withMembers;
  switch (kind) {
    case 'class_declaration': {
      const keyword = node.children().find((c) => !c.isNamed() && KEYWORD_TYPES[c.text()] !== undefined)?.text() ?? 'class';
      const type = KEYWORD_TYPES[keyword] ?? 'class';
      const name = fieldText(node, 'name');
      if (name === undefined) return [];
      const body = fieldOf(node, 'body');
      const members = withMembers && body !== null ? swiftMembers(body, type === 'enum' ? exported : undefined) : [];
      const visible = type === 'extension' ? exported || members.some((m) => m.exported) : exported;
      return [symbolOf({ node, name: collapse(name), type, exported: visible, body, members })];
    }
    case 'protocol_declaration': {
      const name = fieldText(node, 'name');
      if (name === undefined) return [];
      const body = fieldOf(node, 'body');
      return [symbolOf({ node, name, type: 'protocol', exported, body, members: withMembers && body !== null ? swiftMembers(body, exported) : [] })];
    }
    case 'function_declaration':
    case 'protocol_function_declaration': {
      const name = fieldText(node, 'name');
      return name === undefined ? [] : [symbolOf({ node, name, type: inType ? 'method' : 'function', exported, body: fieldOf(node, 'body') })];
    }
    case 'init_declaration':
      return [symbolOf({ node, name: 'init', type: 'constructor', exported, body: fieldOf(node, 'body') })];
    case 'property_declaration':
    case 'protocol_property_declaration': {
      const pattern = fieldOf(node, 'name');
      if (pattern === null) return [];
      const name = childOfKind(pattern, 'simple_identifier')?.text() ?? collapse(pattern.text());
      const computed = childOfKind(node, 'computed_property', 'protocol_property_requirements') ?? multiline(fieldOf(node, 'value'));
      const binding = childOfKind(node, 'value_binding_pattern')?.text();
      const type = inType ? 'property' : binding === 'let' ? 'constant' : 'variable';
      return [symbolOf({ node, name, type, exported, body: computed })];
    }
    case 'typealias_declaration':
    case 'associatedtype_declaration': {
      const name = fieldText(node, 'name');
      return name === undefined ? [] : [symbolOf({ node, name, type: 'typeAlias', exported })];
    }
    case 'enum_entry':
      // `case one = 1, two` declares two cases on one line.
      return (node.fieldChildren('name' as never) as SgNode[]).map((name) => symbolOf({ node, name: name.text(), type: 'enumMember', exported }));
    default:
      return [];
  }
}

function swiftMembers(body: SgNode, inherited: boolean | undefined): OutlineSymbol[] {
  const out: OutlineSymbol[] = [];
  for (const child of body.namedChildren()) {
    // Enum cases inherit the enum's visibility; its methods have their own.
    const inherit = kindOf(child) === 'enum_entry' || kindOf(body) === 'protocol_body' ? inherited : undefined;
    out.push(...swiftDeclaration(child, inherit, false));
  }
  return out;
}
