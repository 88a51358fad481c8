/**
 * The session file's events: one JSON object a line (JSON Lines), each stamped with `at` (epoch ms).
 * The file keeps the raw record of a run — tool results as the tool returned them, hidden reminder
 * injections — so a later run can resume the provider conversation from it (`transcriptFromSession`).
 * Display-only data (diffs) is never part of an event.
 */
import { z } from 'zod';
import type { RunOutcome } from '../../activity';
import type { ToolCall, Usage } from '../messages';
import type { ToolMetadata, ToolResult } from '../../tools/result';

export const SESSION_FORMAT_VERSION = 1;

export type SessionEventBody =
  | { type: 'session_start'; v: typeof SESSION_FORMAT_VERSION; id: string; cwd: string; provider: string; model: string; createdAt: number }
  | { type: 'user'; text: string }
  | { type: 'assistant'; turn: number; text: string; toolCalls: ToolCall[]; usage?: Usage }
  /** The raw tool result: `content` as the tool returned it, `providerContent` when the provider saw a summary. */
  | {
      type: 'tool_result';
      turn: number;
      callId: string;
      tool: string;
      status: 'success' | 'error';
      content: string;
      providerContent?: string;
      metadata: ToolMetadata;
    }
  /** A token-triggered reminder the loop injected; hidden from the visible transcript. */
  | { type: 'ttsr_injection'; hidden: true; turn: number; rule: string; reminder: string; source: 'text' | 'tool_arguments' }
  | { type: 'cancelled'; turn: number | null; tools: string[] }
  | { type: 'run_end'; outcome: RunOutcome; error?: string };

export type SessionEvent = SessionEventBody & { at: number };
export type SessionEventType = SessionEvent['type'];
export type SessionStartEvent = Extract<SessionEvent, { type: 'session_start' }>;

const at = z.number().int().nonnegative();
const turn = z.number().int().nonnegative();
const metadataValue = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.string()).readonly(), z.array(z.number()).readonly()]);
const toolCall = z.object({ id: z.string(), name: z.string(), arguments: z.string() });
const usage = z.object({ inputTokens: z.number(), outputTokens: z.number(), cachedInputTokens: z.number().optional() });

/**
 * Validates one event, on write and on load. Objects strip unknown keys, which is what keeps a
 * `display` field a caller passed along with a ToolResult out of the file.
 */
export const sessionEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('session_start'),
    at,
    v: z.literal(SESSION_FORMAT_VERSION),
    id: z.string().min(1),
    cwd: z.string().min(1),
    provider: z.string(),
    model: z.string(),
    createdAt: at,
  }),
  z.object({ type: z.literal('user'), at, text: z.string() }),
  z.object({ type: z.literal('assistant'), at, turn, text: z.string(), toolCalls: z.array(toolCall), usage: usage.optional() }),
  z.object({
    type: z.literal('tool_result'),
    at,
    turn,
    callId: z.string(),
    tool: z.string(),
    status: z.enum(['success', 'error']),
    content: z.string(),
    providerContent: z.string().optional(),
    metadata: z.record(z.string(), metadataValue),
  }),
  z.object({
    type: z.literal('ttsr_injection'),
    at,
    hidden: z.literal(true),
    turn,
    rule: z.string(),
    reminder: z.string(),
    source: z.enum(['text', 'tool_arguments']),
  }),
  z.object({ type: z.literal('cancelled'), at, turn: turn.nullable(), tools: z.array(z.string()) }),
  z.object({ type: z.literal('run_end'), at, outcome: z.enum(['completed', 'failed', 'cancelled', 'turn_limit']), error: z.string().optional() }),
]) satisfies z.ZodType<SessionEvent>;

/** The tool_result event body for a ToolResult: the raw result, without its display-only `display`. */
export function toolResultEvent(turn: number, callId: string, tool: string, result: ToolResult): Extract<SessionEventBody, { type: 'tool_result' }> {
  const { status, content, providerContent, metadata } = result;
  return { type: 'tool_result', turn, callId, tool, status, content, ...(providerContent === undefined ? {} : { providerContent }), metadata };
}

export type SessionErrorCode = 'exists' | 'corrupt' | 'invalid_event' | 'closed' | 'write_failed';

/** A session file that cannot be created, read, or appended to; `path` names the file. */
export class SessionError extends Error {
  constructor(
    message: string,
    readonly code: SessionErrorCode,
    readonly path: string,
  ) {
    super(message);
    this.name = 'SessionError';
  }
}
