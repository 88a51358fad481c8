import { registerDynamicLanguage } from '@ast-grep/napi';
import * as path from 'node:path';

/**
 * The languages `ast_grep` and `repo_map` understand, by ast-grep's lowercase ids. TypeScript, TSX
 * and JavaScript are built into @ast-grep/napi; the others are the prebuilt tree-sitter parsers of
 * the @ast-grep/lang-* packages, registered once per process as dynamic languages.
 */
export const LANGUAGE_IDS = ['rust', 'typescript', 'tsx', 'javascript', 'python', 'go', 'kotlin', 'java', 'swift'] as const;
export type LanguageId = (typeof LANGUAGE_IDS)[number];

interface LanguageInfo {
  /** The name @ast-grep/napi's parse() takes. */
  napi: string;
  extensions: readonly string[];
  /**
   * The character ast-grep puts in place of `$` before parsing a pattern, where `$` cannot start
   * an identifier in the language (so `$A` parses as one).
   */
  expando: string;
}

const INFO: Record<LanguageId, LanguageInfo> = {
  typescript: { napi: 'TypeScript', extensions: ['ts', 'mts', 'cts'], expando: '$' },
  tsx: { napi: 'Tsx', extensions: ['tsx'], expando: '$' },
  javascript: { napi: 'JavaScript', extensions: ['js', 'mjs', 'cjs', 'jsx'], expando: '$' },
  rust: { napi: 'rust', extensions: ['rs'], expando: 'µ' },
  python: { napi: 'python', extensions: ['py', 'pyi'], expando: 'µ' },
  go: { napi: 'go', extensions: ['go'], expando: 'µ' },
  kotlin: { napi: 'kotlin', extensions: ['kt', 'ktm', 'kts'], expando: 'µ' },
  java: { napi: 'java', extensions: ['java'], expando: '$' },
  swift: { napi: 'swift', extensions: ['swift'], expando: 'µ' },
};

const BY_EXTENSION = new Map<string, LanguageId>();
for (const id of LANGUAGE_IDS) for (const ext of INFO[id].extensions) BY_EXTENSION.set(ext, id);

export function isLanguageId(value: string): value is LanguageId {
  return (LANGUAGE_IDS as readonly string[]).includes(value);
}

/** The language of a file by its extension (case-insensitive), or undefined for other files. */
export function languageOfPath(file: string): LanguageId | undefined {
  const ext = path.extname(file).slice(1).toLowerCase();
  return ext === '' ? undefined : BY_EXTENSION.get(ext);
}

export function extensionsOf(language: LanguageId): readonly string[] {
  return INFO[language].extensions;
}

export function expandoOf(language: LanguageId): string {
  return INFO[language].expando;
}

let registered = false;

/** Loads the dynamic parsers on first use; afterwards a no-op. Returns the name napi's parse() takes. */
export function napiLanguage(language: LanguageId): string {
  if (!registered) {
    /* eslint-disable @typescript-eslint/no-require-imports -- the lang packages are CommonJS getters of a prebuilt parser's path */
    registerDynamicLanguage({
      rust: require('@ast-grep/lang-rust'),
      python: require('@ast-grep/lang-python'),
      go: require('@ast-grep/lang-go'),
      kotlin: require('@ast-grep/lang-kotlin'),
      java: require('@ast-grep/lang-java'),
      swift: require('@ast-grep/lang-swift'),
    });
    /* eslint-enable @typescript-eslint/no-require-imports */
    registered = true;
  }
  return INFO[language].napi;
}
