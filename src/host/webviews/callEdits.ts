import type { ActivityEvent } from '../../core/activity';

/** The part of an applied edit (EditHistory) that links it to a tool call. */
export interface RecordedEdit {
  id: number;
  proposal: { tool: string; files: readonly { display: string }[] };
}

export type ToolEndEvent = Extract<ActivityEvent, { type: 'tool_end' }>;

/**
 * The id of the applied edit a successful `hash_edit`/`write` call made, found by its tool and the
 * files its diffs name (the history does not know call ids); the newest match wins. Undefined when
 * none matches (review mode was not `after`, the edit was reverted, or it is older than the kept ones).
 */
export function editIdForCall(call: ToolEndEvent, edits: readonly RecordedEdit[]): number | undefined {
  const paths = (call.display?.diffs ?? []).map((d) => d.path).sort();
  if (call.status !== 'success' || paths.length === 0) return undefined;
  const key = JSON.stringify(paths);
  for (let i = edits.length - 1; i >= 0; i--) {
    const edit = edits[i];
    if (edit && edit.proposal.tool === call.tool && JSON.stringify(edit.proposal.files.map((f) => f.display).sort()) === key) return edit.id;
  }
  return undefined;
}

/** The unified diffs of a call as one document (display only), or undefined when it has none. */
export function diffDocument(call: ToolEndEvent): string | undefined {
  const diffs = call.display?.diffs ?? [];
  if (diffs.length === 0) return undefined;
  return diffs.map((d) => (d.diff.endsWith('\n') ? d.diff : `${d.diff}\n`)).join('');
}
