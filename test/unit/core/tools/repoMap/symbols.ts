import type { OutlineSymbol } from '../../../../../src/core/tools/astGrep/outline/types';

/** An outline symbol as extractOutline gives it, for the ranking and rendering tests. */
export function symbol(name: string, line: number, parts: Partial<OutlineSymbol> = {}): OutlineSymbol {
  return {
    name,
    type: 'function',
    signature: `function ${name}()`,
    firstLine: `function ${name}() {`,
    exported: true,
    imported: false,
    range: { start: { line, column: 1 }, end: { line: line + 1, column: 1 } },
    members: [],
    ...parts,
  };
}
