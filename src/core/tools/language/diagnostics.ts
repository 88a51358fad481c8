import { z } from 'zod';
import { defineTool } from '../definition';
import { success, type ToolResult } from '../result';
import type { ToolRuntime } from '../runtime';
import { capRows, diagnosticRow, displayPath, languagesOf, limitSchema, needsLanguages, notReadyGuidance, resolveFile, sortDiagnostics } from './format';
import type { Diagnostic, DiagnosticSeverity } from './port';

const DESCRIPTION = `Problems (type errors, lint findings) that VS Code's language services report: for one file, or a workspace summary without a path.

Arguments: {"path": "src/example.ts", "limit": 50} or {} for the workspace.
With a path the file is opened in the background and its language service is waited for (up to about 8 s). Without one the answer is what VS Code currently holds (files its language services have looked at): counts per severity, then the first rows, errors first.
Rows: path:line:column: severity source(code): message. Limits: limit default 50, max 500; output at most 64 KiB; messages are one line, redacted, clipped.
These complement project checks (tsc, tests, linters); they do not replace them.`;

const SEVERITIES: readonly DiagnosticSeverity[] = ['error', 'warning', 'info', 'hint'];

export const diagnosticsTool = defineTool({
  name: 'diagnostics',
  aliases: [],
  description: DESCRIPTION,
  mutates: false,
  unavailable: needsLanguages('diagnostics'),
  input: z.strictObject({
    path: z.string().min(1).optional().describe('File to check; omit for a workspace summary'),
    limit: limitSchema,
  }),
  async execute(args, ctx) {
    const languages = languagesOf('diagnostics', ctx.runtime);
    if (args.path === undefined) {
      const answer = await languages.workspaceDiagnostics(ctx.runtime.root, ctx.signal);
      return workspaceSummary(ctx.runtime, answer.items, args.limit);
    }
    const file = await resolveFile(ctx.runtime, 'diagnostics', args.path);
    const answer = await languages.fileDiagnostics(file.absolute, ctx.signal);
    if (!answer.ready) return success(notReadyGuidance('diagnostics', file.display, answer), { path: file.display, count: 0, ready: false });
    const sorted = sortDiagnostics(answer.items);
    const { shown, hidden } = capRows(sorted.map((d) => diagnosticRow(ctx.runtime.root, d)), args.limit);
    const lines = shown.length ? shown : [`No diagnostics for ${file.display}: its language service reports no problems.`];
    if (hidden > 0) lines.push(`… ${hidden} more diagnostics not shown; raise limit (max 500) to see more.`);
    return success(lines.join('\n'), { path: file.display, count: sorted.length, ...countsOf(sorted), truncated: hidden > 0, ready: true, ...sourcesOf(sorted) });
  },
});

function countsOf(items: readonly Diagnostic[]): Record<'errors' | 'warnings', number> {
  return { errors: items.filter((d) => d.severity === 'error').length, warnings: items.filter((d) => d.severity === 'warning').length };
}

function sourcesOf(items: readonly Diagnostic[]): { sources?: string[] } {
  const sources = [...new Set(items.flatMap((d) => (d.source ? [d.source] : [])))].sort();
  return sources.length ? { sources } : {};
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}

/** `Workspace diagnostics: 2 errors, 1 warning, 0 info, 0 hints in 2 files.` then the first rows. */
function workspaceSummary(runtime: ToolRuntime, items: readonly Diagnostic[], limit: number): ToolResult {
  const sorted = sortDiagnostics(items);
  const files = new Set(sorted.map((d) => displayPath(runtime.root, d.path)));
  const counts = SEVERITIES.map((s) => {
    const count = sorted.filter((d) => d.severity === s).length;
    return s === 'info' ? `${count} info` : plural(count, s);
  }).join(', ');
  const { shown, hidden } = capRows(sorted.map((d) => diagnosticRow(runtime.root, d)), limit);
  const lines = [`Workspace diagnostics: ${counts} in ${plural(files.size, 'file')}.`, ...shown];
  if (sorted.length === 0) {
    lines.push('VS Code holds diagnostics only for files its language services have looked at (open files, loaded projects); pass a path to check one file.');
  }
  if (hidden > 0) lines.push(`… ${hidden} more diagnostics not shown; raise limit (max 500) or pass a path.`);
  return success(lines.join('\n'), { count: sorted.length, ...countsOf(sorted), files: files.size, truncated: hidden > 0, ready: true, ...sourcesOf(sorted) });
}
