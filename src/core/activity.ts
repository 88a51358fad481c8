/**
 * The activity stream: every step of an agent run as a typed event. The CLI (`magi run --json`
 * prints one per line), the host and the webviews consume exactly these types.
 *
 * Protocol
 * - Events of one run share `runId`; `seq` counts from 1 without gaps per run, so a consumer that
 *   missed some asks for a replay from its last `seq`.
 * - `agent` names who acted: `main` for the top-level agent, `main/2` for the second task of a
 *   `subagents` call it made, `main/2/1` below that. Child events are forwarded so a person can
 *   watch them; the parent model only ever sees the bounded per-task results.
 * - Safe by construction: `tool_start` carries a summary built from the seeds' visible-output rules
 *   (bash: its intent; read: the requested paths; write: path and size; hash_edit: input bytes —
 *   never file contents or replacement payloads). `tool_end.output` is the bounded visible output
 *   (for `subagents` only the aggregate summary). `tool_end.display` is display-only (diffs): it is
 *   neither in the provider transcript nor in the session file.
 * - Every run ends with exactly one `run_end`.
 */
import type { ToolDisplay, ToolMetadata } from './tools/result';

export const ACTIVITY_PROTOCOL_VERSION = 1;

export interface ActivityBase {
  runId: string;
  seq: number;
  /** Milliseconds since the epoch. */
  at: number;
  agent: string;
}

export type RunOutcome = 'completed' | 'failed' | 'cancelled' | 'turn_limit';

export type ActivityBody =
  | { type: 'run_start'; task: string; cwd: string; provider: string; model: string; sessionFile: string | null; resumed: boolean }
  | { type: 'turn_start'; turn: number; attempt: number }
  | { type: 'message_start'; turn: number }
  | { type: 'text_delta'; turn: number; text: string }
  | { type: 'message_end'; turn: number; text: string; toolCalls: number }
  | { type: 'tool_start'; turn: number; callId: string; tool: string; summary: ToolMetadata; mutates: boolean }
  /** Progress of a running call (a subagent task finished, a long command is still running). */
  | { type: 'tool_update'; callId: string; tool: string; message: string }
  | {
      type: 'tool_end';
      turn: number;
      callId: string;
      tool: string;
      status: 'success' | 'error';
      metadata: ToolMetadata;
      /** Bounded visible output (ACTIVITY_OUTPUT_CAP bytes); for subagents only the aggregate summary. */
      output: string;
      outputTruncated: boolean;
      durationMs: number;
      /** UTF-8 bytes of the raw arguments and of the provider-visible result. */
      bytesIn: number;
      bytesOut: number;
      /** Estimated tokens the result added to the context (bytes / 4, rounded up). */
      tokens: number;
      display?: ToolDisplay;
    }
  | { type: 'reminder'; turn: number; rule: string; source: 'text' | 'tool_arguments'; attempt: number }
  | { type: 'usage'; turn: number; inputTokens: number; outputTokens: number; totalInputTokens: number; totalOutputTokens: number }
  | { type: 'retry'; turn: number; attempt: number; delayMs: number; reason: string }
  | { type: 'error'; turn: number | null; kind: string; message: string }
  /** The run was cancelled; `tools` lists the calls that were running and were aborted. */
  | { type: 'cancelled'; turn: number | null; tools: string[] }
  | { type: 'run_end'; outcome: RunOutcome; turns: number; durationMs: number; finalText: string; error?: string };

export type ActivityEvent = ActivityBase & ActivityBody;
export type ActivityType = ActivityEvent['type'];

/** Bytes of tool output an activity event carries at most. */
export const ACTIVITY_OUTPUT_CAP = 16 * 1024;

export type ActivityListener = (event: ActivityEvent) => void;
