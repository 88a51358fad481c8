/**
 * Mission Control's view model: one row per tool call of the main agent, across runs, in start
 * order. Subagents' own calls are not listed: their `subagents` row carries the aggregate summary.
 * Outputs and diffs are kept for the newest KEEP_OUTPUTS finished calls only, so 10,000 rows stay
 * light in memory and in the persisted state.
 */
import type { ActivityEntry } from '../protocol';
import type { Reducer } from '../shared/store';
import { endFacts, toolTitle, truncationBadges } from '../shared/format';

export const KEEP_OUTPUTS = 100;

export type CallStatus = 'running' | 'success' | 'error' | 'cancelled';
export const CALL_STATUSES: readonly CallStatus[] = ['running', 'success', 'error', 'cancelled'];

export interface CallRow {
  runId: string;
  callId: string;
  tool: string;
  /** From the safe start summary (bash intent, read paths …). */
  title: string;
  status: CallStatus;
  /** Bumped on every change, so the list redraws only rows that changed. */
  version: number;
  startedAt: number;
  mutates: boolean;
  durationMs: number | null;
  bytesIn: number | null;
  bytesOut: number | null;
  tokens: number | null;
  badges: string[];
  facts: string;
  progress: string;
  /** Bounded visible output; null while running or once dropped for newer calls. */
  output: string | null;
  outputDropped: boolean;
  diffs: { path: string; diff: string }[];
}

export interface MissionModel {
  rows: CallRow[];
  /** `${runId} ${callId}` → index in rows. */
  index: Record<string, number>;
  /** Tools seen, in first-seen order (the tool filter's choices). */
  tools: string[];
  /** Indices of finished rows still holding their output, oldest first. */
  kept: number[];
  /** The task of each run, for the detail view. */
  tasks: Record<string, string>;
}

const keyOf = (runId: string, callId: string): string => `${runId} ${callId}`;

function rowOf(model: MissionModel, runId: string, callId: string): CallRow | undefined {
  const at = model.index[keyOf(runId, callId)];
  return at === undefined ? undefined : model.rows[at];
}

export function applyToMission(model: MissionModel, { event }: ActivityEntry): void {
  if (event.agent !== 'main') return;
  switch (event.type) {
    case 'run_start':
      model.tasks[event.runId] = event.task.slice(0, 200);
      break;
    case 'tool_start': {
      model.index[keyOf(event.runId, event.callId)] = model.rows.length;
      if (!model.tools.includes(event.tool)) model.tools.push(event.tool);
      model.rows.push({
        runId: event.runId,
        callId: event.callId,
        tool: event.tool,
        title: toolTitle(event.tool, event.summary),
        status: 'running',
        version: 0,
        startedAt: event.at,
        mutates: event.mutates,
        durationMs: null,
        bytesIn: null,
        bytesOut: null,
        tokens: null,
        badges: [],
        facts: '',
        progress: '',
        output: null,
        outputDropped: false,
        diffs: [],
      });
      break;
    }
    case 'tool_update': {
      const row = rowOf(model, event.runId, event.callId);
      if (!row) break;
      row.progress = event.message;
      row.version++;
      break;
    }
    case 'tool_end': {
      const at = model.index[keyOf(event.runId, event.callId)];
      const row = at === undefined ? undefined : model.rows[at];
      if (at === undefined || !row) break;
      Object.assign(row, {
        status: event.status,
        durationMs: event.durationMs,
        bytesIn: event.bytesIn,
        bytesOut: event.bytesOut,
        tokens: event.tokens,
        badges: truncationBadges(event.metadata, event.outputTruncated),
        facts: event.tool === 'subagents' ? (event.output.split('\n', 1)[0] ?? '') : endFacts(event.tool, event.metadata),
        progress: '',
        output: event.output,
        diffs: event.display?.diffs ?? [],
      });
      row.version++;
      model.kept.push(at);
      while (model.kept.length > KEEP_OUTPUTS) {
        const old = model.rows[model.kept.shift() as number];
        if (!old) continue;
        old.output = null;
        old.diffs = [];
        old.outputDropped = true;
        old.version++;
      }
      break;
    }
    case 'cancelled':
      for (const row of model.rows) {
        if (row.runId !== event.runId || row.status !== 'running') continue;
        row.status = 'cancelled';
        row.version++;
      }
      break;
    default:
      // The other events (text, turns, usage …) are the chat's; Mission Control lists tool calls.
      break;
  }
}

export const missionReducer: Reducer<MissionModel> = {
  initial: () => ({ rows: [], index: {}, tools: [], kept: [], tasks: {} }),
  apply: applyToMission,
  accepts: (value): value is MissionModel =>
    typeof value === 'object' && value !== null && Array.isArray((value as MissionModel).rows) && typeof (value as MissionModel).index === 'object',
};
