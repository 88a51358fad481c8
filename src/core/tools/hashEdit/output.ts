import { success, type ToolResult } from '../result';
import { unifiedDiff } from './diff';
import type { Prepared } from './section';

/**
 * The model-facing result: per file a `[display#NEWTAG]` header (the tag for the next edit) and
 * the changed lines as `LINE:TEXT` at their new numbers; plus a display-only unified diff.
 */

/** Changed rows shown per file; the rest is counted in a marker, since the model can read them. */
export const MAX_SHOWN_ROWS = 200;

type EditItem = Extract<Prepared, { kind: 'edit' }>;

function lineRange(start: number, count: number): string {
  return count === 1 ? `line ${start}` : `lines ${start}-${start + count - 1}`;
}

/** Every transcript row of one edited file, in new-file order, with the new line it is at or next to. */
function changedRows(item: EditItem): { text: string; line: number }[] {
  const rows: { text: string; line: number }[] = [];
  for (const hunk of item.hunks) {
    if (hunk.newCount === 0) {
      rows.push({ text: `(deleted old ${lineRange(hunk.oldStart, hunk.oldCount)})`, line: Math.max(1, hunk.newStart) });
      continue;
    }
    for (let k = 0; k < hunk.newCount; k++) {
      const line = hunk.newStart + k;
      rows.push({ text: `${line}:${item.after.lines[line - 1] ?? ''}`, line });
    }
  }
  return rows;
}

function editSection(item: EditItem): { text: string; truncated: boolean } {
  const display = item.target.resolved.display;
  const out = [`[${display}#${item.newTag}]`];
  if (item.recovered) {
    out.push(`(recovered from stale tag #${item.target.section.tag}: the file had changed since that read, but every line the ops rely on is unchanged and was found in the current file, so the edit was applied there; the rows below are at current line numbers)`);
  }
  if (item.emptyLastRowKept) {
    out.push(`(the body's last row is an empty line at the end of a file that had no final newline; it is kept as a line, so the file now ends with a newline)`);
  }
  const rows = changedRows(item);
  out.push(...rows.slice(0, MAX_SHOWN_ROWS).map((row) => row.text));
  const hidden = rows.slice(MAX_SHOWN_ROWS);
  const first = hidden[0]?.line ?? 1;
  const last = Math.min(hidden[hidden.length - 1]?.line ?? first, item.after.lines.length);
  if (hidden.length > 0) out.push(`… ${hidden.length} more changed lines not shown; read ${display}:${first}-${Math.max(first, last)} to see them.`);
  return { text: out.join('\n'), truncated: hidden.length > 0 };
}

function diffOf(item: EditItem): string {
  return unifiedDiff(item.target.resolved.display, item.before, item.after, item.hunks);
}

export function formatResult(items: readonly Prepared[]): ToolResult {
  const blocks: string[] = [];
  const paths: string[] = [];
  const diffs: { path: string; diff: string }[] = [];
  let truncated = false;
  let recovered = false;
  let ops = 0;
  for (const item of items) {
    const display = item.target.resolved.display;
    ops += item.target.section.ops.length;
    paths.push(display);
    switch (item.kind) {
      case 'edit': {
        const section = editSection(item);
        blocks.push(section.text);
        truncated ||= section.truncated;
        recovered ||= item.recovered;
        diffs.push({ path: display, diff: diffOf(item) });
        break;
      }
      case 'move':
        paths.push(item.dest.display);
        blocks.push(`[${item.dest.display}#${item.snapshot.tag}]\nmoved ${display} to ${item.dest.display}; the content is unchanged, so tag #${item.snapshot.tag} and its line numbers stay valid at the new path.`);
        break;
      case 'remove':
        blocks.push(`removed ${display}; its tags no longer apply.`);
        break;
    }
  }
  return success(blocks.join('\n\n'), { paths, files_changed: items.length, ops, recovered, truncated }, diffs.length ? { diffs } : undefined);
}
