import type { SgNode } from '@ast-grep/napi';
import type { OutlineSymbol } from '../types';
import { collapse, fieldOf, fieldText, multiline, symbolOf } from '../symbol';

/**
 * Python: module-level imports, functions, classes and assignments (a decorated definition keeps
 * its decorators in range and signature). Exported: a name without a leading `_`, or a dunder
 * (`__init__`, `__all__`). Class members: methods (`__init__` is the constructor), nested classes
 * and class-level assignments as fields. Imports inside `if`/`try` blocks are not outlined.
 */
function isPublic(name: string): boolean {
  return !name.startsWith('_') || (name.length > 4 && name.startsWith('__') && name.endsWith('__'));
}

export function pythonItem(node: SgNode, inClass = false): OutlineSymbol[] {
  switch (node.kind()) {
    case 'import_statement': {
      const names = node.fieldChildren('name' as never).map((n: SgNode) => collapse(n.text()));
      return [symbolOf({ node, name: names.join(', '), type: 'import', exported: false, imported: true })];
    }
    case 'import_from_statement': {
      const module = fieldText(node, 'module_name');
      return module === undefined ? [] : [symbolOf({ node, name: collapse(module), type: 'import', exported: false, imported: true })];
    }
    case 'decorated_definition': {
      const definition = fieldOf(node, 'definition');
      return definition === null ? [] : definitionOf(node, definition, inClass);
    }
    case 'function_definition':
    case 'class_definition':
      return definitionOf(node, node, inClass);
    case 'expression_statement':
      return assignmentsOf(node, inClass);
    default:
      return [];
  }
}

function definitionOf(node: SgNode, definition: SgNode, inClass: boolean): OutlineSymbol[] {
  const name = fieldText(definition, 'name');
  if (name === undefined) return [];
  const body = fieldOf(definition, 'body');
  const exported = isPublic(name);
  if (definition.kind() === 'class_definition') {
    const members: OutlineSymbol[] = [];
    if (!inClass && body !== null) for (const child of body.namedChildren()) members.push(...pythonItem(child, true));
    return [symbolOf({ node, name, type: 'class', exported, body, members })];
  }
  const type = !inClass ? 'function' : name === '__init__' ? 'constructor' : 'method';
  return [symbolOf({ node, name, type, exported, body })];
}

/** `NAME = …` and `name: T = …` with a plain name on the left; tuple targets and attributes are not declarations. */
function assignmentsOf(node: SgNode, inClass: boolean): OutlineSymbol[] {
  const assignment = node.child(0);
  if (assignment === null || assignment.kind() !== 'assignment') return [];
  const left = fieldOf(assignment, 'left');
  if (left === null || left.kind() !== 'identifier') return [];
  const name = left.text();
  const type = inClass ? 'field' : /^[A-Z][A-Z0-9_]*$/.test(name) ? 'constant' : 'variable';
  return [symbolOf({ node, name, type, exported: isPublic(name), body: multiline(fieldOf(assignment, 'right')) })];
}
