/**
 * The messages between the extension host and Magi's webviews (the chat side panel and Mission
 * Control), both ways unions keyed by `type`, handled by exhaustive switches. A message of an
 * unknown type is ignored (a newer host talking to an older webview, or the reverse).
 *
 * Activity flows as deltas: the host keeps every run's events in one store, numbering them with a
 * store-wide `n` (1, 2, 3 … without gaps, across runs and chats). It sends each new entry once
 * (`activity`). A webview that was hidden or reloaded sends `ready` with the last `n` it holds
 * (0 when it has none) and the host answers `replay` with every entry after it, in order, then
 * carries on with `activity`. So a webview never receives the whole history on each update.
 *
 * The DOM contract the tests drive (data-testid attributes):
 *   chat: chat-input (textarea), chat-send, chat-cancel, chat-new, chat-sessions (select),
 *         chat-messages, user-message, assistant-message, tool-card (data-tool, data-status)
 *   Mission Control: activity-list, activity-row (data-call-id, data-tool, data-status),
 *         filter-tool (select), filter-status (select), activity-detail, detail-output,
 *         detail-diff, open-diff, revert
 */
import type { ActivityEvent } from '../src/core/activity';

export type { ActivityEvent };

/** The safe metadata of a tool call (`tool_start.summary`, `tool_end.metadata`). */
export type ToolMetadata = Extract<ActivityEvent, { type: 'tool_start' }>['summary'];

/** One stored activity event and its store-wide number. */
export interface ActivityEntry {
  n: number;
  event: ActivityEvent;
  /** `task` for a Magi: Run Task run (shown in Mission Control, not in the chat); absent for a chat's own runs. */
  source?: 'task';
}

/** A session the chat can reopen. */
export interface SessionSummary {
  /** Absolute path of the session file (an opaque id for the webview). */
  file: string;
  /** The first task of the session, clipped to 120 characters. */
  title: string;
  /** Epoch ms of the session's start. */
  createdAt: number;
}

export type HostMessage =
  /** New entries, oldest first; each `n` is one more than the last one sent. */
  | { type: 'activity'; entries: ActivityEntry[] }
  /** The answer to `ready`: every entry after `afterN`, oldest first. */
  | { type: 'replay'; afterN: number; entries: ActivityEntry[] }
  /** Chat state: which chat is shown, whether a task runs, the sessions it can reopen. */
  | { type: 'chat_state'; chatId: string; running: boolean; sessions: SessionSummary[] }
  /** The transcript of a reopened session, as entries to render from scratch (replaces the chat's view). */
  | { type: 'chat_reset'; chatId: string }
  /** Something the person should know (no folder open, no provider configured …). */
  | { type: 'notice'; level: 'info' | 'error'; message: string };

export type WebviewMessage =
  /** The script has loaded (or reloaded) and holds entries up to `lastN` (0: none). */
  | { type: 'ready'; lastN: number }
  /** Chat: run this task in the current chat. */
  | { type: 'send'; text: string }
  | { type: 'cancel' }
  | { type: 'new_chat' }
  | { type: 'open_session'; file: string }
  /** Mission Control: open VS Code's diff editor for a successful hash_edit/write call. */
  | { type: 'open_diff'; runId: string; callId: string }
  /** Mission Control: revert the files a call changed (after-mode history). */
  | { type: 'revert'; runId: string; callId: string };

/**
 * Type guard the webviews use before their exhaustive switch: a known `type` with fields of the
 * right shapes. Anything else (an unknown type, a malformed message) is ignored.
 */
export function isHostMessage(value: unknown): value is HostMessage {
  if (typeof value !== 'object' || value === null) return false;
  const m = value as Record<string, unknown>;
  switch (m.type) {
    case 'activity':
      return Array.isArray(m.entries);
    case 'replay':
      return typeof m.afterN === 'number' && Array.isArray(m.entries);
    case 'chat_state':
      return typeof m.chatId === 'string' && typeof m.running === 'boolean' && Array.isArray(m.sessions) && m.sessions.every(isSessionSummary);
    case 'chat_reset':
      return typeof m.chatId === 'string';
    case 'notice':
      return (m.level === 'info' || m.level === 'error') && typeof m.message === 'string';
    default:
      return false;
  }
}

function isSessionSummary(value: unknown): value is SessionSummary {
  if (typeof value !== 'object' || value === null) return false;
  const s = value as Record<string, unknown>;
  return typeof s.file === 'string' && typeof s.title === 'string' && typeof s.createdAt === 'number';
}
