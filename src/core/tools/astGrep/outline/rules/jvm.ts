import type { SgNode } from '@ast-grep/napi';
import type { OutlineSymbol } from '../types';
import { childOfKind, collapse, fieldOf, fieldText, kindOf, multiline, symbolOf } from '../symbol';

/**
 * Java and Kotlin, each by its default visibility. Java: `public` or `protected` is exported
 * (package-private is not: it is no part of a library's API); interface and annotation members
 * are public unless `private`, enum constants always. Kotlin: public by default, so everything but
 * `private`, `protected` and `internal` is exported. Imports are named by what they import
 * (`java.util.List`, `static java.lang.Math.*`, `a.b.C as D`). A record outlines as a class, an
 * annotation type as an interface, a Kotlin `object` (and a companion) as an object.
 */
function modifierWords(node: SgNode): string[] {
  const modifiers = childOfKind(node, 'modifiers');
  return modifiers === undefined ? [] : modifiers.text().split(/\s+/);
}

// ---- Java ----

const JAVA_TYPES: Record<string, string> = {
  class_declaration: 'class',
  record_declaration: 'class',
  interface_declaration: 'interface',
  annotation_type_declaration: 'interface',
  enum_declaration: 'enum',
};

export function javaItem(node: SgNode): OutlineSymbol[] {
  if (kindOf(node) === 'import_declaration') {
    const name = collapse(node.text()).replace(/^import\s+/, '').replace(/\s*;$/, '');
    return [symbolOf({ node, name, type: 'import', exported: false, imported: true })];
  }
  return javaDeclaration(node, false, true);
}

/** `implicitPublic`: members of an interface or annotation type. */
function javaDeclaration(node: SgNode, implicitPublic: boolean, withMembers: boolean): OutlineSymbol[] {
  const kind = kindOf(node);
  const words = modifierWords(node);
  const exported = words.includes('public') || words.includes('protected') || (implicitPublic && !words.includes('private'));
  const type = JAVA_TYPES[kind];
  if (type !== undefined) {
    const name = fieldText(node, 'name');
    if (name === undefined) return [];
    const body = fieldOf(node, 'body');
    const memberPublic = type === 'interface';
    const members = withMembers && body !== null ? javaMembers(body, memberPublic) : [];
    return [symbolOf({ node, name, type, exported, body, members })];
  }
  switch (kind) {
    case 'method_declaration':
    case 'annotation_type_element_declaration':
    case 'constructor_declaration':
    case 'compact_constructor_declaration': {
      const name = fieldText(node, 'name');
      if (name === undefined) return [];
      const method = kind === 'method_declaration' || kind === 'annotation_type_element_declaration';
      return [symbolOf({ node, name, type: method ? 'method' : 'constructor', exported, body: fieldOf(node, 'body') })];
    }
    case 'field_declaration':
    case 'constant_declaration': {
      const declarators = node.namedChildren().filter((child) => kindOf(child) === 'variable_declarator');
      const first = declarators[0];
      const body = first === undefined ? null : multiline(fieldOf(first, 'value'));
      const fieldType = kind === 'constant_declaration' ? 'constant' : 'field';
      return declarators.flatMap((declarator) => {
        const name = fieldText(declarator, 'name');
        return name === undefined ? [] : [symbolOf({ node, name, type: fieldType, exported, body })];
      });
    }
    case 'enum_constant': {
      const name = fieldText(node, 'name');
      return name === undefined ? [] : [symbolOf({ node, name, type: 'enumMember', exported: true, body: fieldOf(node, 'body') })];
    }
    default:
      return [];
  }
}

function javaMembers(body: SgNode, implicitPublic: boolean): OutlineSymbol[] {
  const out: OutlineSymbol[] = [];
  for (const child of body.namedChildren()) {
    // An enum's methods and fields follow its constants, after a `;`, in their own node.
    if (kindOf(child) === 'enum_body_declarations') out.push(...javaMembers(child, implicitPublic));
    else out.push(...javaDeclaration(child, implicitPublic, false));
  }
  return out;
}

// ---- Kotlin: this grammar names no fields, so parts are found by kind ----

function kotlinExported(node: SgNode): boolean {
  const words = modifierWords(node);
  return !words.includes('private') && !words.includes('protected') && !words.includes('internal');
}

function kotlinName(node: SgNode, ...kinds: string[]): string | undefined {
  return childOfKind(node, ...kinds)?.text();
}

export function kotlinItem(node: SgNode): OutlineSymbol[] {
  if (kindOf(node) === 'import_list') return node.namedChildren().flatMap((header) => kotlinImport(header));
  if (kindOf(node) === 'import_header') return kotlinImport(node);
  return kotlinDeclaration(node, false, true);
}

function kotlinImport(header: SgNode): OutlineSymbol[] {
  if (kindOf(header) !== 'import_header') return [];
  const name = collapse(header.text()).replace(/^import\s+/, '').replace(/\s*;$/, '');
  return [symbolOf({ node: header, name, type: 'import', exported: false, imported: true })];
}

function kotlinDeclaration(node: SgNode, inType: boolean, withMembers: boolean): OutlineSymbol[] {
  const exported = kotlinExported(node);
  switch (kindOf(node)) {
    case 'class_declaration': {
      const name = kotlinName(node, 'type_identifier');
      if (name === undefined) return [];
      const keyword = node.children().find((c) => !c.isNamed() && (c.text() === 'interface' || c.text() === 'enum' || c.text() === 'class'));
      const type = keyword?.text() === 'interface' ? 'interface' : keyword?.text() === 'enum' ? 'enum' : 'class';
      const body = childOfKind(node, 'class_body', 'enum_class_body') ?? null;
      const members = withMembers ? kotlinMembers(node, body) : [];
      return [symbolOf({ node, name, type, exported, body, members })];
    }
    case 'object_declaration':
    case 'companion_object': {
      const name = kotlinName(node, 'type_identifier') ?? 'Companion';
      const body = childOfKind(node, 'class_body') ?? null;
      return [symbolOf({ node, name, type: 'object', exported, body, members: withMembers ? kotlinMembers(node, body) : [] })];
    }
    case 'function_declaration': {
      const name = kotlinName(node, 'simple_identifier');
      return name === undefined ? [] : [symbolOf({ node, name, type: inType ? 'method' : 'function', exported, body: childOfKind(node, 'function_body') ?? null })];
    }
    case 'secondary_constructor':
      return [symbolOf({ node, name: 'constructor', type: 'constructor', exported })];
    case 'property_declaration': {
      const variable = childOfKind(node, 'variable_declaration', 'multi_variable_declaration');
      if (variable === undefined) return [];
      const name = collapse(kindOf(variable) === 'variable_declaration' ? (kotlinName(variable, 'simple_identifier') ?? variable.text()) : variable.text());
      const isVar = childOfKind(node, 'binding_pattern_kind')?.text() === 'var';
      const type = inType ? 'property' : isVar ? 'variable' : 'constant';
      // The initializer (or a getter/delegate) follows the declared name and type.
      const after = variable.range().end.index - node.range().start.index;
      return [symbolOf({ node, name, type, exported, body: node.text().slice(after).includes('\n') ? after : null })];
    }
    case 'type_alias': {
      const name = kotlinName(node, 'type_identifier');
      return name === undefined ? [] : [symbolOf({ node, name, type: 'typeAlias', exported })];
    }
    case 'enum_entry': {
      const name = kotlinName(node, 'simple_identifier');
      return name === undefined ? [] : [symbolOf({ node, name, type: 'enumMember', exported: true, body: childOfKind(node, 'class_body') ?? null })];
    }
    default:
      return [];
  }
}

/** Primary-constructor `val`/`var` parameters are properties too; then the body's declarations. */
function kotlinMembers(node: SgNode, body: SgNode | null): OutlineSymbol[] {
  const out: OutlineSymbol[] = [];
  const primary = childOfKind(node, 'primary_constructor');
  for (const parameter of primary?.namedChildren() ?? []) {
    if (kindOf(parameter) !== 'class_parameter' || childOfKind(parameter, 'binding_pattern_kind') === undefined) continue;
    const name = kotlinName(parameter, 'simple_identifier');
    if (name !== undefined) out.push(symbolOf({ node: parameter, name, type: 'property', exported: kotlinExported(parameter) }));
  }
  if (body !== null) for (const child of body.namedChildren()) out.push(...kotlinDeclaration(child, true, false));
  return out;
}
