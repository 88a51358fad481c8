import type { SgNode } from '@ast-grep/napi';
import type { LanguageId } from '../languages';

/** 1-based line and column (columns count UTF-16 code units, as the editor does). */
export interface OutlinePosition {
  line: number;
  column: number;
}

/** End-exclusive. Byte offsets are never shown. */
export interface OutlineRange {
  start: OutlinePosition;
  end: OutlinePosition;
}

/**
 * One declaration, import or member found by the bundled outline rules. Types are lower camel
 * case: function, method, constructor, class, struct, enum, enumMember, union, trait, impl,
 * interface, protocol, extension, object, typeAlias, constant, variable, field, property, module,
 * macro, import.
 */
export interface OutlineSymbol {
  name: string;
  type: string;
  /** The declaration's header on one line (whitespace collapsed, body left out). */
  signature: string;
  /** The first source line of the declaration, trimmed. */
  firstLine: string;
  /** Visible outside its file or type: `export`, `pub`, a capitalised Go name, `public` … */
  exported: boolean;
  /** An import or use declaration (type `import`). */
  imported: boolean;
  range: OutlineRange;
  /** Direct members (methods, fields, variants …); empty for members themselves. */
  members: OutlineSymbol[];
}

/**
 * Extracts the top-level symbols of one parsed file, in source order, with their direct members.
 * It runs in a parse worker, which the deadline and cancellation terminate, so it takes no step check.
 */
export type ExtractOutline = (root: SgNode, language: LanguageId) => OutlineSymbol[];
