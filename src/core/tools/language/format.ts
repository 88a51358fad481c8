import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { redact } from '../../redact';
import { ToolError } from '../errors';
import type { ToolRuntime } from '../runtime';
import type { ResolvedPath } from '../../fs/containment';
import { MAX_FILE_BYTES, parseText } from '../textDoc';
import type { Diagnostic, DiagnosticSeverity, LanguageAnswer, LanguageServices, Location } from './port';

/**
 * What the language tools share: their `unavailable` reason, argument schemas, the containment
 * check of a file argument, row formatting (redacted, clipped) and the output cap.
 */

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 500;
/** Cap of a language tool's whole content. */
export const MAX_OUTPUT_BYTES = 64 * 1024;
/** A location row's source text and a diagnostic's message are clipped to these. */
export const MAX_LINE_TEXT_CHARS = 200;
export const MAX_MESSAGE_CHARS = 500;

export const limitSchema = z.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT).describe(`Most rows to return (default ${DEFAULT_LIMIT}, max ${MAX_LIMIT})`);
export const lineSchema = z.number().int().min(1).describe('1-based line of the symbol');
export const columnSchema = z.number().int().min(1).describe('1-based column of a character of the symbol name');

function needsVsCode(tool: string): string {
  return `${tool} needs VS Code's language services; run it inside the Magi extension (the headless CLI has none).`;
}

/** The `unavailable` of every language tool: the headless CLI has no language services. */
export function needsLanguages(tool: string): (runtime: ToolRuntime) => string | undefined {
  return (runtime) => (runtime.languages ? undefined : needsVsCode(tool));
}

/** The runtime's language services; dispatch never calls a tool whose `unavailable` answered, so this only guards direct calls. */
export function languagesOf(tool: string, runtime: ToolRuntime): LanguageServices {
  if (!runtime.languages) throw new ToolError(needsVsCode(tool));
  return runtime.languages;
}

/** Resolves a file argument through the containment rules and checks that it is an existing regular file. */
export async function resolveFile(runtime: ToolRuntime, tool: string, requested: string): Promise<ResolvedPath> {
  const resolved = await runtime.resolve(tool, requested, 'read');
  const stat = await fsp.stat(resolved.absolute).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return undefined;
    throw err;
  });
  if (!stat) throw new ToolError(`${tool}: ${resolved.display} does not exist; check the path with find or list_files.`, 'not_found');
  if (!stat.isFile()) throw new ToolError(`${tool}: ${resolved.display} is not a file; pass a source file.`);
  return resolved;
}

/**
 * Checks a 1-based position against the file's text, so that a position past the end gets a
 * message naming the file's size instead of an empty answer. Files over the read cap are not checked.
 */
export async function checkPosition(runtime: ToolRuntime, tool: string, file: ResolvedPath, line: number, column: number, signal: AbortSignal): Promise<void> {
  const bytes = await runtime.files.readFile(file.absolute, signal);
  if (bytes.byteLength > MAX_FILE_BYTES) return;
  const lines = parseText(Buffer.from(bytes).toString('utf8')).lines;
  if (line > lines.length) throw new ToolError(`${tool}: ${file.display} has ${lines.length} lines; line ${line} is past its end. Read the file to find the symbol's line.`);
  const length = (lines[line - 1] ?? '').length;
  if (column > length + 1) throw new ToolError(`${tool}: line ${line} of ${file.display} has ${length} characters; column ${column} is past its end (columns are 1-based).`);
}

/** Root-relative with `/` inside the root, absolute outside it (as ResolvedPath.display). */
export function displayPath(root: string, absolute: string): string {
  const relative = path.relative(root, absolute);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return absolute;
  return relative.split(path.sep).join('/');
}

/** One line, credential-shaped text removed, at most `max` characters. */
export function cleanText(text: string, max: number): string {
  const line = redact(text.replace(/\s+/g, ' ').trim(), []);
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

const SEVERITY_RANK: Record<DiagnosticSeverity, number> = { error: 0, warning: 1, info: 2, hint: 3 };

/** Errors first, then by path and position. */
export function sortDiagnostics(items: readonly Diagnostic[]): Diagnostic[] {
  return [...items].sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column);
}

/** `path:line:column: severity source(code): message`. */
export function diagnosticRow(root: string, d: Diagnostic): string {
  const label = d.source && d.code ? `${d.source}(${d.code})` : d.code ?? d.source;
  return `${displayPath(root, d.path)}:${d.line}:${d.column}: ${d.severity}${label ? ` ${cleanText(label, 40)}` : ''}: ${cleanText(d.message, MAX_MESSAGE_CHARS)}`;
}

/**
 * `path:line:column: text` per location; the text is the line's trimmed source, read once per file
 * and only for files inside the root (the language service may point into libraries elsewhere).
 */
export async function locationRows(runtime: ToolRuntime, locations: readonly Location[], signal: AbortSignal): Promise<string[]> {
  const texts = new Map<string, readonly string[] | undefined>();
  const rows: string[] = [];
  for (const location of locations) {
    signal.throwIfAborted();
    const display = displayPath(runtime.root, location.path);
    if (!texts.has(location.path)) texts.set(location.path, path.isAbsolute(display) ? undefined : await fileLines(runtime, location.path, signal));
    const text = texts.get(location.path)?.[location.line - 1];
    const shown = text === undefined ? '' : cleanText(text, MAX_LINE_TEXT_CHARS);
    rows.push(`${display}:${location.line}:${location.column}${shown ? `: ${shown}` : ''}`);
  }
  return rows;
}

/** The file's lines, or undefined when it cannot be shown (missing, over the cap). */
async function fileLines(runtime: ToolRuntime, absolute: string, signal: AbortSignal): Promise<readonly string[] | undefined> {
  try {
    const bytes = await runtime.files.readFile(absolute, signal);
    return bytes.byteLength > MAX_FILE_BYTES ? undefined : parseText(Buffer.from(bytes).toString('utf8')).lines;
  } catch (err) {
    signal.throwIfAborted();
    // The row keeps its position without the text: a vanished file must not fail the whole answer.
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** The first rows (at most `limit`) whose joined size stays within `maxBytes`; `hidden` counts the rest. The default leaves room for a header and a footer under the output cap. */
export function capRows(rows: readonly string[], limit: number, maxBytes = MAX_OUTPUT_BYTES - 256): { shown: string[]; hidden: number } {
  const shown: string[] = [];
  let bytes = 0;
  for (const row of rows.slice(0, limit)) {
    const size = Buffer.byteLength(row, 'utf8') + 1;
    if (bytes + size > maxBytes) break;
    shown.push(row);
    bytes += size;
  }
  return { shown, hidden: rows.length - shown.length };
}

/** Concise guidance for an answer that is not ready, naming the file type. */
export function notReadyGuidance(tool: string, file: string, answer: LanguageAnswer<unknown>): string {
  const ext = path.extname(file) || path.basename(file);
  const why = answer.note ?? `no language service answered for ${ext} files, or it is still starting`;
  return `${tool}: no answer for ${file}: ${why}. Retry in a few seconds; if it stays empty there is no language service for ${ext} files in this VS Code, so use grep or project checks instead.`;
}
