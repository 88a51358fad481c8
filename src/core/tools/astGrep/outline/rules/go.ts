import type { SgNode } from '@ast-grep/napi';
import type { OutlineSymbol } from '../types';
import { childOfKind, collapse, fieldOf, fieldText, kindOf, multiline, symbolOf } from '../symbol';

/**
 * Go: imports (one entry per import spec, named by its path), functions, methods, types, vars and
 * consts. Exported is Go's rule: the name starts with an upper-case letter. A method is a top-level
 * entry named as Go's method expression names it: `(*Point).Move` for a pointer receiver,
 * `Point.Area` for a value receiver (type arguments dropped: `Pair.Key`). A struct's members are
 * its fields (an embedded field is named by its type), an interface's its methods. A grouped
 * declaration (`type ( … )`, `var ( … )`) gives one entry per spec and name, signed with its keyword.
 */
function isExported(name: string): boolean {
  return /^\p{Lu}/u.test(name);
}

export function goItem(node: SgNode): OutlineSymbol[] {
  switch (node.kind()) {
    case 'import_declaration':
      return specsOf(node, 'import_spec_list').map((spec) => {
        const path = fieldText(spec, 'path') ?? spec.text();
        return symbolOf({ ...specNode(node, spec), name: path.replace(/^["`]|["`]$/g, ''), type: 'import', exported: false, imported: true });
      });
    case 'function_declaration': {
      const name = fieldText(node, 'name');
      return name === undefined ? [] : [symbolOf({ node, name, type: 'function', exported: isExported(name), body: fieldOf(node, 'body') })];
    }
    case 'method_declaration':
      return methodOf(node);
    case 'type_declaration':
      return specsOf(node, '').flatMap((spec) => typeSpecOf(node, spec));
    case 'var_declaration':
      return valuesOf(node, 'var_spec_list', 'variable');
    case 'const_declaration':
      return valuesOf(node, '', 'constant');
    default:
      return [];
  }
}

/** The specs of a declaration: its direct spec children, or those of its parenthesised list. */
function specsOf(node: SgNode, listKind: string): SgNode[] {
  const list = listKind === '' ? undefined : childOfKind(node, listKind);
  return (list ?? node).namedChildren().filter((child) => kindOf(child).endsWith('_spec') || kindOf(child) === 'type_alias');
}

/** A lone spec covers its whole declaration (`type Point struct`); a grouped one only itself, with the keyword as prefix. */
function specNode(declaration: SgNode, spec: SgNode): { node: SgNode; prefix?: string } {
  return isGrouped(declaration) ? { node: spec, prefix: keywordOf(declaration) } : { node: declaration };
}

function isGrouped(declaration: SgNode): boolean {
  return childOfKind(declaration, '(') !== undefined || childOfKind(declaration, 'var_spec_list', 'import_spec_list') !== undefined;
}

function keywordOf(declaration: SgNode): string {
  return declaration.child(0)?.text() ?? '';
}

function typeSpecOf(declaration: SgNode, spec: SgNode): OutlineSymbol[] {
  const name = fieldText(spec, 'name');
  if (name === undefined) return [];
  const { node, prefix } = specNode(declaration, spec);
  const exported = isExported(name);
  const type = fieldOf(spec, 'type');
  if (spec.kind() === 'type_alias') return [symbolOf({ node, name, type: 'typeAlias', exported, prefix })];
  if (type?.kind() === 'struct_type') {
    const fields = childOfKind(type, 'field_declaration_list');
    return [symbolOf({ node, name, type: 'struct', exported, prefix, body: fields ?? null, members: fields === undefined ? [] : structFields(fields) })];
  }
  if (type?.kind() === 'interface_type') {
    return [symbolOf({ node, name, type: 'interface', exported, prefix, body: childOfKind(type, '{') ?? null, members: interfaceMethods(type) })];
  }
  // `type Celsius float64`: a defined type, outlined with the alias type.
  return [symbolOf({ node, name, type: 'typeAlias', exported, prefix })];
}

function structFields(list: SgNode): OutlineSymbol[] {
  const out: OutlineSymbol[] = [];
  for (const field of list.namedChildren()) {
    if (field.kind() !== 'field_declaration') continue;
    const names = field.fieldChildren('name' as never) as SgNode[];
    if (names.length === 0) {
      // Embedded: named by its type without pointer or package (`*pkg.Base` → `Base`).
      const typeText = fieldText(field, 'type') ?? field.text();
      const name = typeText.replace(/^\*/, '').replace(/\[.*$/s, '').split('.').pop() ?? typeText;
      out.push(symbolOf({ node: field, name, type: 'field', exported: isExported(name) }));
      continue;
    }
    for (const name of names) out.push(symbolOf({ node: field, name: name.text(), type: 'field', exported: isExported(name.text()) }));
  }
  return out;
}

function interfaceMethods(type: SgNode): OutlineSymbol[] {
  const out: OutlineSymbol[] = [];
  for (const element of type.namedChildren()) {
    if (element.kind() !== 'method_elem') continue;
    const name = fieldText(element, 'name');
    if (name !== undefined) out.push(symbolOf({ node: element, name, type: 'method', exported: isExported(name) }));
  }
  return out;
}

function methodOf(node: SgNode): OutlineSymbol[] {
  const name = fieldText(node, 'name');
  const receiver = fieldOf(node, 'receiver')?.namedChildren().find((c) => c.kind() === 'parameter_declaration');
  if (name === undefined) return [];
  const receiverType = receiver === undefined ? '' : collapse(fieldText(receiver, 'type') ?? '');
  const base = receiverType.replace(/^\*\s*/, '').replace(/\[.*\]$/s, '');
  const qualified = receiverType.startsWith('*') ? `(*${base}).${name}` : base === '' ? name : `${base}.${name}`;
  return [symbolOf({ node, name: qualified, type: 'method', exported: isExported(name), body: fieldOf(node, 'body') })];
}

/** `var a, B = 1, 2` gives `a` and `B`, each with the spec's range. */
function valuesOf(declaration: SgNode, listKind: string, type: string): OutlineSymbol[] {
  const out: OutlineSymbol[] = [];
  for (const spec of specsOf(declaration, listKind)) {
    const { node, prefix } = specNode(declaration, spec);
    const body = multiline(fieldOf(spec, 'value'));
    for (const name of spec.namedChildren().filter((c) => c.kind() === 'identifier')) {
      out.push(symbolOf({ node, name: name.text(), type, exported: isExported(name.text()), prefix, body: body === null ? null : body.range().start.index - node.range().start.index }));
    }
  }
  return out;
}
