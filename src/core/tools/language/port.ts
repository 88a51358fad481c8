/**
 * What the language tools (`diagnostics`, `references`, `definition`, `symbols`) and the edit
 * diagnostics injection ask of the editor. The VS Code host answers from VS Code's own language
 * services (no language-server process of ours); the headless CLI has none, so the tools say they
 * need VS Code. Paths are absolute and already checked by the containment rules; positions are
 * 1-based. Implementations bound their own waits and honour `signal`.
 */
export type DiagnosticSeverity = 'error' | 'warning' | 'info' | 'hint';

export interface Diagnostic {
  /** Absolute path. */
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: DiagnosticSeverity;
  message: string;
  /** The language service's code (`2322` for a TypeScript type error) when it gives one. */
  code?: string;
  /** Who reported it (`ts`, `eslint` …). */
  source?: string;
}

export interface Location {
  /** Absolute path (file URIs only; other schemes are left out by the host). */
  path: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
}

export interface DocumentSymbol {
  name: string;
  /** `class`, `function`, `method`, `variable` … (VS Code's SymbolKind name in lower case). */
  kind: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  /** Nested symbols (members of a class …). */
  children: DocumentSymbol[];
}

/**
 * A query's answer. `ready: false` means no provider answered or the language service is still
 * starting (the tool then gives concise guidance instead of an empty list that looks like "none").
 */
export interface LanguageAnswer<T> {
  items: T[];
  ready: boolean;
  /** A short reason when not ready ("no language service for .xyz files", "TypeScript is still starting"). */
  note?: string;
}

export interface LanguageServices {
  /** Diagnostics of one file (opening it in the background so its language service looks at it), waiting for the first answer within a bounded time. */
  fileDiagnostics(path: string, signal: AbortSignal): Promise<LanguageAnswer<Diagnostic>>;
  /** Diagnostics VS Code currently holds for the workspace (files under `root`). */
  workspaceDiagnostics(root: string, signal: AbortSignal): Promise<LanguageAnswer<Diagnostic>>;
  references(path: string, line: number, column: number, includeDeclaration: boolean, signal: AbortSignal): Promise<LanguageAnswer<Location>>;
  definition(path: string, line: number, column: number, signal: AbortSignal): Promise<LanguageAnswer<Location>>;
  symbols(path: string, signal: AbortSignal): Promise<LanguageAnswer<DocumentSymbol>>;
  /**
   * After a successful edit: waits (debounced, bounded) for the edited files' diagnostics to settle
   * and returns them. `ready: false` with no items when no diagnostics arrived within the bound (a
   * slow or absent service), so that "clean" and "no answer" stay apart. Never rejects except on abort.
   */
  diagnosticsAfterEdit(paths: readonly string[], signal: AbortSignal): Promise<LanguageAnswer<Diagnostic>>;
}
