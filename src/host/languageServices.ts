import { promises as fsp, realpathSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Diagnostic, DocumentSymbol, LanguageAnswer, LanguageServices, Location } from '../core/tools/language/port';
import { locationsOf, symbolsOf, toDiagnostic, toLocation } from './language/convert';
import { abortable, delay } from '../core/waits';
import { diagnosticsSettled } from './language/settle';

/** Bound of the wait for a file's first diagnostics (TypeScript's first answer takes 2.5–5 s). */
export const FIRST_DIAGNOSTICS_MS = 8_000;
/** Silence that counts as "clean" once the file's language service is known to be running. */
const WARM_SILENCE_MS = 2_500;
/** Quiet time after a diagnostics change before a file's answer counts as complete. */
const FILE_QUIET_MS = 500;
/** The edit injection's debounce and its bound. */
export const EDIT_QUIET_MS = 300;
export const EDIT_MAX_MS = 3_000;
/** How long a position query retries an empty answer while its language has never answered. */
const QUERY_WARMUP_MS = 6_000;
const QUERY_RETRY_MS = 400;
/** Plain text has no language service; its files get an answer at once instead of a long wait. */
const PLAIN_TEXT = 'plaintext';

/**
 * The core's `LanguageServices` answered by VS Code's own language services: diagnostics from
 * `vscode.languages.getDiagnostics`, positions through the `vscode.execute*Provider` commands. No
 * language-server process of ours.
 *
 * Diagnostics need the file shown in a tab (TypeScript checks nothing else): a file no tab shows is
 * opened in a preview tab without taking focus.
 *
 * Readiness. A diagnostics change for a file that came after its last text change (in an editor or
 * on disk) means its service has checked the current text; a short quiet time follows, since
 * syntax and semantic results come separately. TypeScript publishes nothing for a file that was
 * clean and stays clean, so silence is ambiguous: once a language is known to be running (it
 * reported diagnostics for some file, or answered a query), a few seconds of silence count as
 * "clean"; before that, the answer is "not ready" with guidance. A position query of a language
 * not yet known to be running first waits for that file's diagnostics (a starting TypeScript
 * answers from a syntax-only server that sees only open files), and retries an empty answer.
 */
export class VsCodeLanguageServices implements LanguageServices, vscode.Disposable {
  /** When each URI's diagnostics last changed (Date.now()). */
  private readonly lastChange = new Map<string, number>();
  /** When each URI's document text last changed (Date.now()). */
  private readonly lastTextChange = new Map<string, number>();
  /** Language ids whose services are known to be running. */
  private readonly warmLanguages = new Set<string>();
  private readonly listeners: vscode.Disposable[];

  constructor() {
    this.listeners = [
      vscode.languages.onDidChangeDiagnostics((event) => {
        const now = Date.now();
        for (const uri of event.uris) {
          const key = uri.toString();
          this.lastChange.set(key, now);
          const language = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key)?.languageId;
          if (language !== undefined) this.warmLanguages.add(language);
        }
      }),
      vscode.workspace.onDidChangeTextDocument((event) => {
        if (event.contentChanges.length > 0) this.lastTextChange.set(event.document.uri.toString(), Date.now());
      }),
    ];
  }

  async fileDiagnostics(file: string, signal: AbortSignal): Promise<LanguageAnswer<Diagnostic>> {
    const uri = vscode.Uri.file(file);
    const key = uri.toString();
    const modified = (await fsp.stat(file)).mtimeMs;
    const document = await abortable(vscode.workspace.openTextDocument(uri), signal);
    await abortable(showForValidation([document], true), signal);
    const current = (): LanguageAnswer<Diagnostic> => ({ items: diagnosticsOf(uri), ready: true });
    const last = this.lastChange.get(key);
    const fresh = this.isFresh(key, modified);
    if (fresh && last !== undefined && Date.now() - last >= FILE_QUIET_MS) return current();
    const language = document.languageId;
    const warm = this.warmLanguages.has(language);
    const maxMs = language === PLAIN_TEXT ? FILE_QUIET_MS : warm ? WARM_SILENCE_MS : FIRST_DIAGNOSTICS_MS;
    if (await diagnosticsSettled(new Set([key]), { quietMs: FILE_QUIET_MS, maxMs, seenAlready: fresh, signal })) return current();
    if (warm) return current();
    // Silence from a service that answers queries is a clean file, not a missing service.
    if (language !== PLAIN_TEXT && symbolsOf(await abortable(documentSymbols(uri), signal)).length > 0) {
      this.warmLanguages.add(language);
      return current();
    }
    return { items: [], ready: false, note: noAnswerNote(document, `no diagnostics arrived within ${FIRST_DIAGNOSTICS_MS / 1000} s`) };
  }

  /** Whether the URI's diagnostics changed after its text last did (and after `modified`, the file's mtime, when given). */
  private isFresh(key: string, modified = 0): boolean {
    const last = this.lastChange.get(key);
    return last !== undefined && last > modified && last > (this.lastTextChange.get(key) ?? 0);
  }

  workspaceDiagnostics(root: string, signal: AbortSignal): Promise<LanguageAnswer<Diagnostic>> {
    signal.throwIfAborted();
    const roots = rootsOf(root);
    const items = vscode.languages
      .getDiagnostics()
      .filter(([uri]) => uri.scheme === 'file' && roots.some((r) => isInside(r, uri.fsPath)))
      .flatMap(([uri, list]) => list.map((d) => toDiagnostic(uri, d)));
    return Promise.resolve({ items, ready: true });
  }

  async references(file: string, line: number, column: number, includeDeclaration: boolean, signal: AbortSignal): Promise<LanguageAnswer<Location>> {
    const answer = await this.query(file, signal, async (uri, position) => {
      const found = await vscode.commands.executeCommand<vscode.Location[] | undefined>('vscode.executeReferenceProvider', uri, position);
      return (found ?? []).filter((l) => l.uri.scheme === 'file').map((l) => toLocation(l.uri, l.range));
    }, line, column);
    if (includeDeclaration || !answer.ready) return answer;
    // The reference command always includes the declaration; its definition's name span is what to drop.
    const definitions = await this.query(file, signal, (uri, position) => definitionsAt(uri, position), line, column);
    const declared = new Set(definitions.items.map(positionKey));
    return { ...answer, items: answer.items.filter((l) => !declared.has(positionKey(l))) };
  }

  definition(file: string, line: number, column: number, signal: AbortSignal): Promise<LanguageAnswer<Location>> {
    return this.query(file, signal, (uri, position) => definitionsAt(uri, position), line, column);
  }

  symbols(file: string, signal: AbortSignal): Promise<LanguageAnswer<DocumentSymbol>> {
    return this.query(file, signal, async (uri) => symbolsOf(await documentSymbols(uri)));
  }

  async diagnosticsAfterEdit(paths: readonly string[], signal: AbortSignal): Promise<LanguageAnswer<Diagnostic>> {
    // An open document reloads from disk by itself; showing it is what makes TypeScript check it again.
    const opened = await Promise.allSettled(paths.map((p) => vscode.workspace.openTextDocument(vscode.Uri.file(p))));
    const documents = opened.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    // A preview tab would replace the one shown before it, and closing a tab cancels its pending check.
    await abortable(showForValidation(documents, documents.length === 1), signal);
    const keys = new Set(documents.map((d) => d.uri.toString()));
    if (keys.size === 0) return { items: [], ready: false, note: 'no edited file could be opened' };
    // An edit through an open editor may have been checked while it was still being saved.
    const fresh = [...keys].every((key) => this.isFresh(key));
    const settled = await diagnosticsSettled(keys, { quietMs: EDIT_QUIET_MS, maxMs: EDIT_MAX_MS, seenAlready: fresh, signal });
    if (!settled) return { items: [], ready: false, note: `no diagnostics within ${EDIT_MAX_MS / 1000} s` };
    return { items: documents.flatMap((d) => diagnosticsOf(d.uri)), ready: true };
  }

  dispose(): void {
    for (const listener of this.listeners) listener.dispose();
  }

  /**
   * Opens the file (so its language service knows it) and runs `run`; an empty answer is retried
   * for a few seconds while the file's language has never answered, then reported as not ready.
   */
  private async query<T>(file: string, signal: AbortSignal, run: (uri: vscode.Uri, position: vscode.Position) => Promise<T[]>, line = 1, column = 1): Promise<LanguageAnswer<T>> {
    const uri = vscode.Uri.file(file);
    const document = await abortable(vscode.workspace.openTextDocument(uri), signal);
    const position = new vscode.Position(line - 1, column - 1);
    const language = document.languageId;
    if (!this.warmLanguages.has(language) && language !== PLAIN_TEXT) {
      // A starting TypeScript answers from its syntax-only server (open files only, so references
      // in other files are missing); its first semantic diagnostics say the project is loaded.
      if ((await this.fileDiagnostics(file, signal)).ready) this.warmLanguages.add(language);
    }
    const warm = this.warmLanguages.has(language);
    const deadline = Date.now() + (warm || language === PLAIN_TEXT ? 0 : QUERY_WARMUP_MS);
    for (;;) {
      const items = await abortable(run(uri, position), signal);
      if (items.length > 0) {
        this.warmLanguages.add(language);
        return { items, ready: true };
      }
      if (Date.now() >= deadline) break;
      await delay(QUERY_RETRY_MS, signal);
    }
    return warm ? { items: [], ready: true } : { items: [], ready: false, note: noAnswerNote(document, 'no language service answered') };
  }
}

/**
 * Shows each document that no tab shows yet, without taking focus. TypeScript checks only files
 * shown in a tab (unless project diagnostics are enabled), so a file opened in the background
 * would never get diagnostics. Plain text has no service to wake.
 */
async function showForValidation(documents: readonly vscode.TextDocument[], preview: boolean): Promise<void> {
  const shown = new Set(vscode.window.tabGroups.all.flatMap((group) => group.tabs).flatMap((tab) => (tab.input instanceof vscode.TabInputText ? [tab.input.uri.toString()] : [])));
  for (const document of documents) {
    if (document.languageId === PLAIN_TEXT || shown.has(document.uri.toString())) continue;
    await vscode.window.showTextDocument(document, { preview, preserveFocus: true });
  }
}

function diagnosticsOf(uri: vscode.Uri): Diagnostic[] {
  return vscode.languages.getDiagnostics(uri).map((d) => toDiagnostic(uri, d));
}

function documentSymbols(uri: vscode.Uri): Thenable<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined> {
  return vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>('vscode.executeDocumentSymbolProvider', uri);
}

async function definitionsAt(uri: vscode.Uri, position: vscode.Position): Promise<Location[]> {
  const found = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[] | undefined>('vscode.executeDefinitionProvider', uri, position);
  return locationsOf(found);
}

function positionKey(l: Location): string {
  return `${l.path}\0${l.line}\0${l.column}`;
}

/** Why a file got no answer, naming its type: plain text has no service, others may be starting. */
function noAnswerNote(document: vscode.TextDocument, what: string): string {
  const ext = path.extname(document.uri.fsPath) || path.basename(document.uri.fsPath);
  if (document.languageId === PLAIN_TEXT) return `no language service answers for ${ext} files`;
  const name = /^(typescript|javascript)(react)?$/.test(document.languageId) ? 'TypeScript' : `the ${document.languageId} language service`;
  return `${what}; ${name} is probably still starting`;
}

/** The root and each workspace folder that is the same directory under another spelling (a symlink). */
function rootsOf(root: string): string[] {
  const roots = [root];
  for (const folder of vscode.workspace.workspaceFolders ?? []) {
    if (folder.uri.scheme !== 'file' || folder.uri.fsPath === root) continue;
    if (realpathOrSelf(folder.uri.fsPath) === root) roots.push(folder.uri.fsPath);
  }
  return roots;
}

function realpathOrSelf(p: string): string {
  try {
    return realpathSync(p);
  } catch (err) {
    // A folder that vanished is not this root; the comparison just fails.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return p;
    throw err;
  }
}

function isInside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
