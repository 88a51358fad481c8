import type { SgNode } from '@ast-grep/napi';
import type { LanguageId } from '../languages';
import { goItem } from './rules/go';
import { javaItem, kotlinItem } from './rules/jvm';
import { pythonItem } from './rules/python';
import { rustItem } from './rules/rust';
import { swiftItem } from './rules/swift';
import { exportedNames, typescriptItems } from './rules/typescript';
import type { ExtractOutline, OutlineSymbol } from './types';

/** The symbols one top-level node declares (none for statements, comments, attributes …). */
type TopLevelRule = (node: SgNode) => OutlineSymbol[];

const RULES: Partial<Record<LanguageId, TopLevelRule>> = {
  rust: (node) => {
    const item = rustItem(node);
    return item === undefined ? [] : [item];
  },
  python: (node) => pythonItem(node),
  go: goItem,
  typescript: typescriptItems,
  tsx: typescriptItems,
  javascript: typescriptItems,
  java: javaItem,
  kotlin: kotlinItem,
  swift: swiftItem,
};

/**
 * The bundled outline rules: visits only the root's direct children and, for declarations with a
 * body, that body's direct children (never whole trees: each visited node costs a native call).
 * Languages without rules give an empty outline.
 */
export const extractOutline: ExtractOutline = (root, language) => {
  const rule = RULES[language];
  if (rule === undefined) return [];
  const out: OutlineSymbol[] = [];
  const lateExports = new Set<string>();
  const isScript = language === 'typescript' || language === 'tsx' || language === 'javascript';
  for (const node of root.children()) {
    out.push(...rule(node));
    if (isScript) for (const name of exportedNames(node)) lateExports.add(name);
  }
  // `export { a }` and `export default a` may come after the declarations they export.
  if (lateExports.size > 0) {
    for (let i = 0; i < out.length; i++) {
      const symbol = out[i];
      if (symbol !== undefined && !symbol.exported && !symbol.imported && lateExports.has(symbol.name)) out[i] = { ...symbol, exported: true };
    }
  }
  return out;
};
