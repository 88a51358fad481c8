import * as path from 'node:path';
import type { ToolContext } from '../definition';
import { success, type ToolResult } from '../result';
import { capRows, checkPosition, displayPath, locationRows, notReadyGuidance, resolveFile } from './format';
import type { LanguageAnswer, Location } from './port';

/** Arguments common to the position queries (`references`, `definition`). */
export interface PositionArgs {
  path: string;
  line: number;
  column: number;
  limit: number;
}

/**
 * Runs one position query: containment and position checks, the query, then bounded
 * `path:line:column: text` rows (or guidance when no language service answered).
 */
export async function answerPositionQuery(
  tool: string,
  args: PositionArgs,
  ctx: ToolContext,
  query: (absolute: string) => Promise<LanguageAnswer<Location>>,
  noneFound: (where: string) => string,
): Promise<ToolResult> {
  const file = await resolveFile(ctx.runtime, tool, args.path);
  await checkPosition(ctx.runtime, tool, file, args.line, args.column, ctx.signal);
  const where = `${file.display}:${args.line}:${args.column}`;
  const meta = { path: file.display, line: args.line, column: args.column };
  const answer = await query(file.absolute);
  if (!answer.ready) return success(notReadyGuidance(tool, file.display, answer), { ...meta, count: 0, ready: false });
  const locations = dedupe(ctx.runtime.root, answer.items);
  // Only the rows that can be shown read their file's text.
  const { shown } = capRows(await locationRows(ctx.runtime, locations.slice(0, args.limit), ctx.signal), args.limit);
  const total = locations.length;
  const lines = shown.length ? shown : [noneFound(where)];
  const notShown = total - shown.length;
  if (notShown > 0) lines.push(`… ${notShown} more not shown; raise limit (max 500) to see more.`);
  return success(lines.join('\n'), { ...meta, count: total, truncated: notShown > 0, ready: true });
}

/** One row per start position (providers may repeat one): workspace files first, then by path and position. */
function dedupe(root: string, items: readonly Location[]): Location[] {
  const outside = (l: Location): number => (path.isAbsolute(displayPath(root, l.path)) ? 1 : 0);
  const sorted = [...items].sort((a, b) => outside(a) - outside(b) || a.path.localeCompare(b.path) || a.line - b.line || a.column - b.column);
  const seen = new Set<string>();
  return sorted.filter((item) => {
    const key = `${item.path}\0${item.line}\0${item.column}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
