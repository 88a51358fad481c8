import type { ToolResult } from '../result';
import type { ToolRuntime } from '../runtime';
import { capRows, cleanText, diagnosticRow, sortDiagnostics } from './format';

/** Rows of the appended block; the `diagnostics` tool shows more. */
export const MAX_EDIT_DIAGNOSTICS = 20;
const EDIT_BLOCK_BYTES = 8 * 1024;

/**
 * The edit diagnostics injection (`lsp.enabled`, off by default): after a successful `write` or
 * `hash_edit`, waits for the edited files' diagnostics to settle and appends them to the result as
 * a bounded "Diagnostics after the edit:" block. It never fails the edit: a slow or missing
 * service, a failure of the service, or an abort leaves the result as it was.
 */
export async function withEditDiagnostics(result: ToolResult, runtime: ToolRuntime, paths: readonly string[], signal: AbortSignal): Promise<ToolResult> {
  const languages = runtime.languages;
  if (result.status !== 'success' || !languages || paths.length === 0 || !runtime.settings.bool('lsp.enabled', false)) return result;
  const answer = await languages.diagnosticsAfterEdit(paths, signal).catch((err: unknown) => (err instanceof Error ? err : new Error(String(err))));
  // The edit is already on disk: a diagnostics failure (or the caller's abort) only skips the block.
  if (answer instanceof Error) return { ...result, metadata: { ...result.metadata, diagnostics_after_edit: `skipped: ${cleanText(answer.message, 200)}` } };
  if (!answer.ready) return { ...result, metadata: { ...result.metadata, diagnostics_after_edit: 'skipped: no answer in time' } };
  const sorted = sortDiagnostics(answer.items);
  const { shown, hidden } = capRows(sorted.map((d) => diagnosticRow(runtime.root, d)), MAX_EDIT_DIAGNOSTICS, EDIT_BLOCK_BYTES);
  const block = shown.length ? ['Diagnostics after the edit:', ...shown] : ['Diagnostics after the edit: none.'];
  if (hidden > 0) block.push(`… ${hidden} more; run diagnostics on the file to see them.`);
  return {
    ...result,
    content: `${result.content}\n\n${block.join('\n')}`,
    metadata: { ...result.metadata, diagnostics_after_edit: sorted.length, errors_after_edit: sorted.filter((d) => d.severity === 'error').length },
  };
}
