import * as path from 'node:path';
import type { LanguageId } from '../astGrep/languages';
import type { OutlineSymbol } from '../astGrep/outline/types';

/**
 * Cross-file references, counted from the text alone: every identifier-shaped token of a file that
 * names a symbol another file defines, and can see, is one reference. No tree walk (visiting nodes
 * from JavaScript costs about 4.5 µs each); comments and strings count too, which is why ranking is
 * approximate.
 */
export interface References {
  /** Name → (referencing file index → occurrences), only for files that do not define the name. */
  byName: Map<string, Map<number, number>>;
  /** Name → the definitions of that name (imports and impl blocks excluded). */
  definers: Map<string, Definition[]>;
  /** Folder and language family of each file, for visibility. */
  dirs: readonly string[];
  families: readonly string[];
  tokensScanned: number;
  /** The token limit stopped the scan: files from `filesScanned` on were not counted. */
  capped: boolean;
  filesScanned: number;
}

/** One definition of a name. */
export interface Definition {
  file: number;
  /** A member of a type (method, field, variant): it gives a symbol score, never a file-graph edge. */
  member: boolean;
  /**
   * Who can name it: every file (exported), files of the same folder (unexported Go, Rust and
   * Python names: a Go package, sibling Rust modules, Python's `_private` by convention), or only
   * its own file (unexported TypeScript).
   */
  scope: 'public' | 'folder' | 'file';
}

const IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*/g;
const TRAILING_IDENTIFIER = /[A-Za-z_$][A-Za-z0-9_$]*$/;

/** One-character names are too common to mean a reference. */
const MIN_NAME_CHARS = 2;

/** The identifier other files use for a symbol: its name, or the last part of a qualified one (Go's `(*T).Run` → `Run`). */
export function referenceName(symbol: OutlineSymbol): string | undefined {
  if (symbol.imported || symbol.type === 'impl') return undefined;
  const name = TRAILING_IDENTIFIER.exec(symbol.name)?.[0];
  return name === undefined || name.length < MIN_NAME_CHARS ? undefined : name;
}

/** Which files define each name: top-level symbols and their members, never imports or impl blocks. */
export function definersOf(files: readonly { language: LanguageId; symbols: readonly OutlineSymbol[] }[]): Map<string, Definition[]> {
  const definers = new Map<string, Definition[]>();
  const add = (symbol: OutlineSymbol, file: number, member: boolean, exported: boolean, unexported: Definition['scope']): void => {
    const name = referenceName(symbol);
    if (name === undefined) return;
    const list = definers.get(name);
    const definition: Definition = { file, member, scope: exported ? 'public' : unexported };
    if (list === undefined) definers.set(name, [definition]);
    else list.push(definition);
  };
  files.forEach((file, index) => {
    const unexported = file.language === 'typescript' || file.language === 'tsx' ? 'file' : 'folder';
    for (const symbol of file.symbols) {
      add(symbol, index, false, symbol.exported, unexported);
      // A member is as visible as its type allows (a TypeScript interface's fields are not marked export).
      for (const member of symbol.members) add(member, index, true, symbol.exported && (member.exported || unexported === 'file'), unexported);
    }
  });
  return definers;
}

/** TypeScript and TSX name each other's symbols; the other languages only their own. */
export function familyOf(language: LanguageId): string {
  return language === 'tsx' ? 'typescript' : language;
}

/** Whether file `from` can name the definition: same language family, and in its scope (see Definition.scope). */
export function visible(definition: Definition, from: number, refs: Pick<References, 'dirs' | 'families'>): boolean {
  const { dirs, families } = refs;
  if (families[definition.file] !== families[from]) return false;
  return definition.scope === 'public' || (definition.scope === 'folder' && dirs[definition.file] === dirs[from]);
}

/**
 * Counts, file by file, the tokens that name a symbol defined and visible elsewhere, until
 * `maxTokens` identifier tokens have been scanned in all. `step` runs between files; it returns
 * false once the deadline has passed (the count stops there) and throws on cancellation.
 */
export function countReferences(files: readonly { display: string; language: LanguageId; text: string }[], definers: Map<string, Definition[]>, maxTokens: number, step: () => boolean): References {
  const dirs = files.map((f) => path.posix.dirname(f.display));
  const families = files.map((f) => familyOf(f.language));
  const byName = new Map<string, Map<number, number>>();
  let tokens = 0;
  let capped = false;
  let filesScanned = 0;
  for (let index = 0; index < files.length && !capped; index++) {
    if (!step()) break;
    const { text } = files[index] as { text: string };
    // Whether a name counts in this file, decided once per name and file.
    const counted = new Map<string, boolean>();
    IDENTIFIER.lastIndex = 0;
    let match: RegExpExecArray | null;
    while ((match = IDENTIFIER.exec(text)) !== null) {
      if (++tokens > maxTokens) {
        capped = true;
        break;
      }
      const name = match[0];
      let wanted = counted.get(name);
      if (wanted === undefined) {
        const defined = definers.get(name);
        // A name the file defines itself is its own use, not a reference to another file.
        wanted = defined !== undefined && !defined.some((d) => d.file === index) && defined.some((d) => visible(d, index, { dirs, families }));
        counted.set(name, wanted);
      }
      if (!wanted) continue;
      let counts = byName.get(name);
      if (counts === undefined) byName.set(name, (counts = new Map()));
      counts.set(index, (counts.get(index) ?? 0) + 1);
    }
    if (!capped) filesScanned++;
  }
  return { byName, definers, dirs, families, tokensScanned: Math.min(tokens, maxTokens), capped, filesScanned };
}
