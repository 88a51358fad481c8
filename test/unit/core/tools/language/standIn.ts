import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Settings, type SettingsTree } from '../../../../../src/core/settings';
import { createDefaultRegistry } from '../../../../../src/core/tools';
import { dispatchTool } from '../../../../../src/core/tools/dispatch';
import type { Diagnostic, DocumentSymbol, LanguageAnswer, LanguageServices, Location } from '../../../../../src/core/tools/language/port';
import type { ToolResult } from '../../../../../src/core/tools/result';
import { ToolRuntime } from '../../../../../src/core/tools/runtime';

/**
 * A plain LanguageServices standing in for VS Code: it answers with what a test put in it and
 * records every call, so the tools' validation, containment, formatting, caps and guidance can be
 * checked without an editor.
 */
export class TableLanguageServices implements LanguageServices {
  diagnostics = new Map<string, LanguageAnswer<Diagnostic>>();
  workspace: Diagnostic[] = [];
  locations: LanguageAnswer<Location> = { items: [], ready: true };
  outline: LanguageAnswer<DocumentSymbol> = { items: [], ready: true };
  afterEdit: () => Promise<LanguageAnswer<Diagnostic>> = () => Promise.resolve({ items: [], ready: true });
  readonly calls: string[] = [];

  fileDiagnostics(file: string): Promise<LanguageAnswer<Diagnostic>> {
    this.calls.push(`fileDiagnostics ${file}`);
    return Promise.resolve(this.diagnostics.get(file) ?? { items: [], ready: true });
  }

  workspaceDiagnostics(root: string): Promise<LanguageAnswer<Diagnostic>> {
    this.calls.push(`workspaceDiagnostics ${root}`);
    return Promise.resolve({ items: this.workspace, ready: true });
  }

  references(file: string, line: number, column: number, includeDeclaration: boolean): Promise<LanguageAnswer<Location>> {
    this.calls.push(`references ${file}:${line}:${column} ${includeDeclaration}`);
    return Promise.resolve(this.locations);
  }

  definition(file: string, line: number, column: number): Promise<LanguageAnswer<Location>> {
    this.calls.push(`definition ${file}:${line}:${column}`);
    return Promise.resolve(this.locations);
  }

  symbols(file: string): Promise<LanguageAnswer<DocumentSymbol>> {
    this.calls.push(`symbols ${file}`);
    return Promise.resolve(this.outline);
  }

  diagnosticsAfterEdit(paths: readonly string[]): Promise<LanguageAnswer<Diagnostic>> {
    this.calls.push(`diagnosticsAfterEdit ${paths.join(',')}`);
    return this.afterEdit();
  }
}

export interface LanguageWorkspace {
  root: string;
  runtime: ToolRuntime;
  languages: TableLanguageServices;
  write(rel: string, content: string): Promise<string>;
  run(tool: string, args: unknown): Promise<ToolResult>;
  cleanup(): Promise<void>;
}

/** A real temp workspace whose runtime has the stand-in language services (or none, as in the CLI). */
export async function languageWorkspace(settings: SettingsTree = {}, withLanguages = true): Promise<LanguageWorkspace> {
  const base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-lang-')));
  const root = path.join(base, 'ws');
  await fsp.mkdir(root);
  const languages = new TableLanguageServices();
  const runtime = await ToolRuntime.create({ root, settings: new Settings(settings), ...(withLanguages ? { languages } : {}) });
  const registry = createDefaultRegistry();
  return {
    root,
    runtime,
    languages,
    async write(rel, content) {
      const abs = path.join(root, rel);
      await fsp.mkdir(path.dirname(abs), { recursive: true });
      await fsp.writeFile(abs, content);
      return abs;
    },
    run: async (tool, args) => (await dispatchTool(registry, runtime, tool, args)).result,
    cleanup: () => fsp.rm(base, { recursive: true, force: true }),
  };
}

/** A diagnostic at a 1-based position, one line long. */
export function diag(file: string, line: number, column: number, severity: Diagnostic['severity'], message: string, extra: Partial<Diagnostic> = {}): Diagnostic {
  return { path: file, line, column, endLine: line, endColumn: column + 1, severity, message, ...extra };
}

export function loc(file: string, line: number, column: number): Location {
  return { path: file, line, column, endLine: line, endColumn: column + 1 };
}
