import type { ActivityBody } from '../activity';
import type { ChatMessage, ToolCall, Usage } from './messages';
import { ProviderError, type ModelProvider, type ModelRequest, type ProviderRetry, type StopReason } from './provider';
import type { FiredReminder, ReminderAttempt } from './ports';

export type AttemptOutcome =
  | { kind: 'message'; text: string; toolCalls: ToolCall[]; usage: Usage | undefined; stop: StopReason }
  /** A reminder rule matched: the stream was aborted and the attempt's output is discarded. */
  | { kind: 'reminder'; fired: FiredReminder };

export interface AttemptOptions {
  provider: ModelProvider;
  request: ModelRequest;
  turn: number;
  signal: AbortSignal;
  emit: (body: ActivityBody) => void;
  reminders: ReminderAttempt | undefined;
}

/**
 * Streams one attempt of a model turn, forwarding text as activity and collecting tool calls.
 * When a reminder rule matches a text delta or a completed call's arguments, the stream is aborted
 * at once (before any tool runs) and the match is returned. Throws ProviderError for the
 * provider's failures, including `cancelled` when `signal` aborts.
 */
export async function streamAttempt(options: AttemptOptions): Promise<AttemptOutcome> {
  const { provider, request, turn, emit, reminders } = options;
  const stopStream = new AbortController();
  const signal = AbortSignal.any([options.signal, stopStream.signal]);
  let text = '';
  const toolCalls: ToolCall[] = [];
  let usage: Usage | undefined;
  let stop: StopReason = 'other';
  let fired: FiredReminder | undefined;
  emit({ type: 'message_start', turn });
  try {
    const onRetry = (retry: ProviderRetry): void => emit({ type: 'retry', turn, attempt: retry.attempt, delayMs: retry.delayMs, reason: retry.reason });
    for await (const event of provider.stream({ ...request, onRetry }, signal)) {
      if (event.type === 'text_delta') {
        text += event.text;
        emit({ type: 'text_delta', turn, text: event.text });
        fired = reminders?.onTextDelta(event.text);
      } else if (event.type === 'tool_call_end') {
        const call = { id: event.id, name: event.name, arguments: event.arguments };
        toolCalls.push(call);
        fired = reminders?.onToolCall(call);
      } else if (event.type === 'usage') {
        usage = event.usage;
      } else if (event.type === 'stop') {
        stop = event.reason;
      }
      if (fired) {
        stopStream.abort();
        break;
      }
    }
  } catch (err) {
    // Our own abort after a match surfaces as `cancelled`; only the caller's signal is a real cancel.
    if (!(fired && err instanceof ProviderError && err.kind === 'cancelled' && !options.signal.aborted)) throw err;
  }
  if (fired) return { kind: 'reminder', fired };
  emit({ type: 'message_end', turn, text, toolCalls: toolCalls.length });
  return { kind: 'message', text, toolCalls: withUniqueIds(toolCalls, turn), usage, stop };
}

/** Some local servers send empty or repeated call ids; results must answer each call unambiguously. */
function withUniqueIds(calls: ToolCall[], turn: number): ToolCall[] {
  const seen = new Set<string>();
  return calls.map((call, i) => {
    const id = call.id && !seen.has(call.id) ? call.id : `call_${turn}_${i + 1}`;
    seen.add(id);
    return id === call.id ? call : { ...call, id };
  });
}

/** The conversation message of a finished attempt. */
export function assistantMessage(outcome: Extract<AttemptOutcome, { kind: 'message' }>): ChatMessage {
  return { role: 'assistant', content: outcome.text, toolCalls: outcome.toolCalls };
}
