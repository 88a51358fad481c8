import type { SgNode } from '@ast-grep/napi';
import type { OutlineSymbol } from '../types';
import { asMember, childOfKind, fieldOf, fieldText, kindOf, multiline, symbolOf } from '../symbol';

/**
 * TypeScript, TSX and JavaScript: imports (named by their module), re-exports (`export … from`:
 * imported and exported), functions, classes, interfaces, type aliases, enums, namespaces and
 * `declare module`, and `const`/`let`/`var` declarations (a function or class value makes a
 * function or class). Exported: an `export` wrapper (`export default` included; an anonymous
 * default is named `default`) or a later `export { name }`. Class members are public unless
 * `private`, `protected` or `#private`; interface and enum members always are. Constructor
 * parameter properties (`constructor(private x: T)`) are properties after their constructor.
 */
export function typescriptItems(node: SgNode): OutlineSymbol[] {
  return declarationsOf(node, node, false, true);
}

/** Names an `export { a, b as c }` clause without a source makes exported. */
export function exportedNames(node: SgNode): string[] {
  if (node.kind() !== 'export_statement' || fieldOf(node, 'source') !== null) return [];
  const value = fieldOf(node, 'value');
  if (value !== null) return value.kind() === 'identifier' ? [value.text()] : [];
  const clause = childOfKind(node, 'export_clause');
  if (clause === undefined) return [];
  return clause.namedChildren().flatMap((specifier) => {
    const name = fieldText(specifier, 'name');
    return name === undefined ? [] : [name];
  });
}

function declarationsOf(decl: SgNode, outer: SgNode, exported: boolean, withMembers: boolean): OutlineSymbol[] {
  const kind = decl.kind();
  switch (kind) {
    case 'import_statement': {
      const source = fieldOf(decl, 'source') ?? fieldOf(childOfKind(decl, 'import_require_clause') ?? decl, 'source');
      return source === null ? [] : [symbolOf({ node: outer, name: unquote(source.text()), type: 'import', exported: false, imported: true })];
    }
    case 'export_statement':
      return exportOf(decl);
    case 'function_declaration':
    case 'generator_function_declaration':
    case 'function_signature':
    case 'function_expression':
      return named(decl, outer, exported, 'function', fieldOf(decl, 'body'));
    case 'class_declaration':
    case 'abstract_class_declaration':
    case 'class': {
      const body = fieldOf(decl, 'body');
      return named(decl, outer, exported, 'class', body, withMembers && body !== null ? classMembers(body) : []);
    }
    case 'interface_declaration': {
      const body = fieldOf(decl, 'body');
      return named(decl, outer, exported, 'interface', body, withMembers && body !== null ? interfaceMembers(body) : []);
    }
    case 'type_alias_declaration':
      return named(decl, outer, exported, 'typeAlias', multiline(fieldOf(decl, 'value')));
    case 'enum_declaration': {
      const body = fieldOf(decl, 'body');
      return named(decl, outer, exported, 'enum', body, withMembers && body !== null ? enumMembers(body) : []);
    }
    case 'lexical_declaration':
    case 'variable_declaration':
      return variablesOf(decl, outer, exported, withMembers);
    case 'ambient_declaration': {
      const inner = decl.namedChildren()[0];
      return inner === undefined ? [] : declarationsOf(inner, outer, exported, withMembers);
    }
    case 'expression_statement': {
      const inner = childOfKind(decl, 'internal_module');
      return inner === undefined ? [] : declarationsOf(inner, outer, exported, withMembers);
    }
    case 'module':
    case 'internal_module': {
      const body = fieldOf(decl, 'body');
      const members = withMembers && body !== null ? body.namedChildren().flatMap((child) => declarationsOf(child, child, false, false)).map(asMember) : [];
      const name = fieldText(decl, 'name');
      return name === undefined ? [] : [symbolOf({ node: outer, name: unquote(name), type: 'module', exported, body, members })];
    }
    default:
      return [];
  }
}

function exportOf(node: SgNode): OutlineSymbol[] {
  const source = fieldOf(node, 'source');
  if (source !== null) return [symbolOf({ node, name: unquote(source.text()), type: 'import', exported: true, imported: true })];
  const declaration = fieldOf(node, 'declaration');
  if (declaration !== null) return declarationsOf(declaration, node, true, true);
  const value = fieldOf(node, 'value');
  // `export default name` marks `name` (see exportedNames); other default values are entries.
  if (value === null || value.kind() === 'identifier') return [];
  const kind = value.kind();
  if (kind === 'function_expression' || kind === 'arrow_function' || kind === 'generator_function') {
    return [symbolOf({ node, name: fieldText(value, 'name') ?? 'default', type: 'function', exported: true, body: fieldOf(value, 'body') })];
  }
  if (kind === 'class') {
    const body = fieldOf(value, 'body');
    return [symbolOf({ node, name: fieldText(value, 'name') ?? 'default', type: 'class', exported: true, body, members: body === null ? [] : classMembers(body) })];
  }
  return [symbolOf({ node, name: 'default', type: 'variable', exported: true, body: multiline(value) })];
}

function named(decl: SgNode, outer: SgNode, exported: boolean, type: string, body: SgNode | null, members: OutlineSymbol[] = []): OutlineSymbol[] {
  const name = fieldText(decl, 'name');
  return name === undefined ? [] : [symbolOf({ node: outer, name, type, exported, body, members })];
}

/** One entry per declarator; a lone declarator covers the whole statement (with its `export`). */
function variablesOf(decl: SgNode, outer: SgNode, exported: boolean, withMembers: boolean): OutlineSymbol[] {
  const declarators = decl.namedChildren().filter((child) => child.kind() === 'variable_declarator');
  const keyword = decl.child(0)?.text() ?? 'var';
  const lone = declarators.length === 1;
  return declarators.flatMap((declarator) => {
    const name = fieldText(declarator, 'name');
    if (name === undefined) return [];
    const node = lone ? outer : declarator;
    const prefix = lone ? undefined : `${exported ? 'export ' : ''}${keyword}`;
    const value = fieldOf(declarator, 'value');
    const valueKind = value?.kind();
    if (value !== null && (valueKind === 'arrow_function' || valueKind === 'function_expression' || valueKind === 'generator_function')) {
      return [symbolOf({ node, name, type: 'function', exported, prefix, body: fieldOf(value, 'body') })];
    }
    if (value !== null && valueKind === 'class') {
      const body = fieldOf(value, 'body');
      return [symbolOf({ node, name, type: 'class', exported, prefix, body, members: withMembers && body !== null ? classMembers(body) : [] })];
    }
    return [symbolOf({ node, name, type: keyword === 'const' ? 'constant' : 'variable', exported, prefix, body: multiline(value) })];
  });
}

const CLASS_MEMBER: Record<string, string> = {
  method_definition: 'method',
  abstract_method_signature: 'method',
  method_signature: 'method',
  public_field_definition: 'property',
  field_definition: 'property',
};

function classMembers(body: SgNode): OutlineSymbol[] {
  const out: OutlineSymbol[] = [];
  for (const member of body.namedChildren()) {
    const base = CLASS_MEMBER[member.kind()];
    if (base === undefined) continue;
    // JavaScript's field_definition names its key `property`; TypeScript's uses `name`.
    const key = fieldOf(member, 'name') ?? fieldOf(member, 'property');
    if (key === null) continue;
    const name = key.text();
    const hidden = name.startsWith('#') || member.children().some((c) => c.kind() === 'accessibility_modifier' && c.text() !== 'public');
    const type = base === 'method' && name === 'constructor' ? 'constructor' : base;
    out.push(symbolOf({ node: member, name, type, exported: !hidden, body: base === 'method' ? fieldOf(member, 'body') : multiline(fieldOf(member, 'value')) }));
    if (type === 'constructor') out.push(...parameterProperties(member));
  }
  return out;
}

/** `constructor(private readonly signal: AbortSignal)` declares the property `signal`. */
function parameterProperties(constructor: SgNode): OutlineSymbol[] {
  const out: OutlineSymbol[] = [];
  for (const parameter of fieldOf(constructor, 'parameters')?.namedChildren() ?? []) {
    const modifiers = parameter.children().filter((c) => kindOf(c) === 'accessibility_modifier' || kindOf(c) === 'readonly' || c.text() === 'override');
    const name = fieldText(parameter, 'pattern');
    if (modifiers.length === 0 || name === undefined) continue;
    const hidden = modifiers.some((m) => kindOf(m) === 'accessibility_modifier' && m.text() !== 'public');
    out.push(symbolOf({ node: parameter, name, type: 'property', exported: !hidden }));
  }
  return out;
}

function interfaceMembers(body: SgNode): OutlineSymbol[] {
  const out: OutlineSymbol[] = [];
  for (const member of body.namedChildren()) {
    const kind = member.kind();
    if (kind === 'construct_signature') {
      out.push(symbolOf({ node: member, name: 'new', type: 'constructor', exported: true }));
      continue;
    }
    if (kind !== 'property_signature' && kind !== 'method_signature') continue;
    const name = fieldText(member, 'name');
    if (name !== undefined) out.push(symbolOf({ node: member, name, type: kind === 'method_signature' ? 'method' : 'property', exported: true, body: multiline(fieldOf(member, 'type')) }));
  }
  return out;
}

function enumMembers(body: SgNode): OutlineSymbol[] {
  const out: OutlineSymbol[] = [];
  for (const member of body.namedChildren()) {
    const kind = member.kind();
    const name = kind === 'enum_assignment' ? fieldText(member, 'name') : kind === 'property_identifier' || kind === 'string' ? member.text() : undefined;
    if (name !== undefined) out.push(symbolOf({ node: member, name: unquote(name), type: 'enumMember', exported: true }));
  }
  return out;
}

function unquote(text: string): string {
  return /^(['"`]).*\1$/s.test(text) ? text.slice(1, -1) : text;
}
