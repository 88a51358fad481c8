import * as path from 'node:path';
import type { LanguageId } from '../astGrep/languages';
import type { OutlineSymbol } from '../astGrep/outline/types';

/**
 * Cross-file references, counted from the text alone: every identifier-shaped token of a file that
 * names a symbol another file defines, and can see, is one reference. Seeing it takes the same
 * language family, the symbol's scope, and — from another folder — the file's module name among
 * the referencing file's tokens, as an import or a qualified name writes it (`./settings`,
 * `from models import`, `server.Start`, `config::load`). No tree walk (visiting nodes from
 * JavaScript costs about 4.5 µs each); comments and strings count too, which is why ranking is
 * approximate.
 */
export interface References {
  /** Name → (referencing file index → occurrences), only for files that do not define the name. */
  byName: Map<string, Map<number, number>>;
  /** Name → the definitions of that name (imports and impl blocks excluded). */
  definers: Map<string, Definition[]>;
  /** Per file, for visibility: its folder, language family, module names (undefined: reachable by none in particular), and the module names its text mentions. */
  dirs: readonly string[];
  families: readonly string[];
  modules: readonly (readonly string[] | undefined)[];
  mentions: readonly ReadonlySet<string>[];
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

/** Stems that name their folder's module rather than a module of their own. */
const FOLDER_STEMS = new Set(['index', '__init__', 'mod']);
/** A Rust crate root is named by the crate (Cargo.toml), which is not looked up: any file may name it. */
const CRATE_ROOTS = new Set(['lib', 'main']);

/**
 * The names another folder's file writes to reach this file's symbols: a Go file's package is its
 * folder; otherwise the file's stem (up to its first dot), or the folder for an index, `__init__` or
 * `mod` file. Undefined when it cannot be told (a Rust crate root, a name that is no identifier).
 */
export function moduleNames(display: string, language: LanguageId): string[] | undefined {
  const folder = path.posix.basename(path.posix.dirname(display));
  const stem = path.posix.basename(display).split('.')[0] ?? '';
  if (language === 'rust' && CRATE_ROOTS.has(stem)) return undefined;
  const name = language === 'go' || FOLDER_STEMS.has(stem) ? folder : stem;
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name) ? [name] : undefined;
}

/** Whether file `from` can name the definition (see References). */
export function visible(definition: Definition, from: number, refs: Pick<References, 'dirs' | 'families' | 'modules' | 'mentions'>): boolean {
  const { dirs, families } = refs;
  const to = definition.file;
  if (families[to] !== families[from]) return false;
  if (dirs[to] === dirs[from]) return definition.scope !== 'file';
  if (definition.scope !== 'public') return false;
  const modules = refs.modules[to];
  const mentioned = refs.mentions[from];
  return modules === undefined || mentioned === undefined || modules.some((m) => mentioned.has(m));
}

/**
 * Counts, file by file, the tokens that name a symbol defined elsewhere and visible from the file,
 * until `maxTokens` identifier tokens have been scanned in all. `step` runs between files; it
 * returns false once the deadline has passed (the count stops there) and throws on cancellation.
 */
export function countReferences(files: readonly { display: string; language: LanguageId; text: string }[], definers: Map<string, Definition[]>, maxTokens: number, step: () => boolean): References {
  const dirs = files.map((f) => path.posix.dirname(f.display));
  const families = files.map((f) => familyOf(f.language));
  const modules = files.map((f) => moduleNames(f.display, f.language));
  const moduleSet = new Set(modules.flatMap((m) => m ?? []));
  const mentions: Set<string>[] = files.map(() => new Set());
  const refs: References = { byName: new Map(), definers, dirs, families, modules, mentions, tokensScanned: 0, capped: false, filesScanned: 0 };
  for (let index = 0; index < files.length && !refs.capped; index++) {
    if (!step()) break;
    const { text } = files[index] as { text: string };
    // A file's mentions are known only once it is read whole (imports may come anywhere), so names are judged after.
    const named = new Map<string, number>();
    const mentioned = mentions[index] as Set<string>;
    IDENTIFIER.lastIndex = 0;
    let match: RegExpExecArray | null;
    while ((match = IDENTIFIER.exec(text)) !== null) {
      if (refs.tokensScanned >= maxTokens) {
        refs.capped = true;
        break;
      }
      refs.tokensScanned++;
      const name = match[0];
      if (definers.has(name)) named.set(name, (named.get(name) ?? 0) + 1);
      if (moduleSet.has(name)) mentioned.add(name);
    }
    for (const [name, count] of named) {
      const defined = definers.get(name) as Definition[];
      // A name the file defines itself is its own use, not a reference to another file.
      if (defined.some((d) => d.file === index) || !defined.some((d) => visible(d, index, refs))) continue;
      let counts = refs.byName.get(name);
      if (counts === undefined) refs.byName.set(name, (counts = new Map()));
      counts.set(index, count);
    }
    if (!refs.capped) refs.filesScanned++;
  }
  return refs;
}
