import { z } from 'zod';
import { defineTool } from '../definition';
import { success } from '../result';
import { capRows, cleanText, languagesOf, limitSchema, needsLanguages, notReadyGuidance, resolveFile } from './format';
import type { DocumentSymbol } from './port';

const DESCRIPTION = `Outline of one file's symbols (classes, functions, methods, variables …) from VS Code's language services (the same as the Outline view).

Arguments: {"path": "src/example.ts", "limit": 50}
Rows: name (kind) line:column, members indented two spaces under their container; positions are 1-based and point at the symbol's name, ready for references or definition. Limits: limit (symbols, depth first) default 50, max 500; output at most 64 KiB.`;

/** The outline depth first, two spaces per level. */
function outlineRows(symbols: readonly DocumentSymbol[], depth = 0): string[] {
  const ordered = [...symbols].sort((a, b) => a.line - b.line || a.column - b.column);
  return ordered.flatMap((s) => [`${'  '.repeat(depth)}${cleanText(s.name, 120)} (${s.kind}) ${s.line}:${s.column}`, ...outlineRows(s.children, depth + 1)]);
}

export const symbolsTool = defineTool({
  name: 'symbols',
  aliases: [],
  description: DESCRIPTION,
  mutates: false,
  unavailable: needsLanguages('symbols'),
  input: z.strictObject({
    path: z.string().min(1).describe('File to outline'),
    limit: limitSchema,
  }),
  async execute(args, ctx) {
    const languages = languagesOf('symbols', ctx.runtime);
    const file = await resolveFile(ctx.runtime, 'symbols', args.path);
    const answer = await languages.symbols(file.absolute, ctx.signal);
    if (!answer.ready) return success(notReadyGuidance('symbols', file.display, answer), { path: file.display, count: 0, ready: false });
    const rows = outlineRows(answer.items);
    const { shown, hidden } = capRows(rows, args.limit);
    const lines = shown.length ? shown : [`${file.display} declares no symbols its language service reports.`];
    if (hidden > 0) lines.push(`… ${hidden} more symbols not shown; raise limit (max 500) to see more.`);
    return success(lines.join('\n'), { path: file.display, count: rows.length, truncated: hidden > 0, ready: true });
  },
});
