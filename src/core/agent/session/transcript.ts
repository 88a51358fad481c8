/**
 * Rebuilds the provider conversation from a session's events, for resuming. Providers reject an
 * assistant tool call that no tool message answers, so a call the session never recorded a result
 * for (the run crashed or was cancelled mid-tool) gets a synthetic error result.
 */
import type { ChatMessage, ToolCall } from '../messages';
import type { SessionEvent } from './types';

export const INTERRUPTED_CALL_MESSAGE = 'interrupted: the call did not finish (session resumed)';

/**
 * The ChatMessages the events describe, in order. Throws when a tool_result answers no pending call
 * (or answers one twice): such a transcript would be refused by every provider, and the session
 * writer never produces one.
 */
export function transcriptFromSession(events: readonly SessionEvent[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  // Calls of the latest assistant message still waiting for their result, by id.
  let pending = new Map<string, ToolCall>();

  const closePending = (): void => {
    for (const call of pending.values()) {
      messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: INTERRUPTED_CALL_MESSAGE, isError: true });
    }
    pending = new Map();
  };

  for (const event of events) {
    switch (event.type) {
      case 'user':
        closePending();
        messages.push({ role: 'user', content: event.text });
        break;
      case 'assistant':
        closePending();
        messages.push({ role: 'assistant', content: event.text, toolCalls: event.toolCalls.map((call) => ({ ...call })) });
        pending = new Map(event.toolCalls.map((call) => [call.id, call]));
        break;
      case 'tool_result': {
        if (!pending.delete(event.callId)) {
          throw new Error(`Session tool_result for call ${event.callId} (${event.tool}) answers no pending tool call of the preceding assistant message`);
        }
        messages.push({ role: 'tool', toolCallId: event.callId, name: event.tool, content: event.providerContent ?? event.content, isError: event.status === 'error' });
        break;
      }
      case 'ttsr_injection':
        closePending();
        messages.push({ role: 'reminder', content: event.reminder });
        break;
      case 'session_start':
      case 'cancelled':
      case 'run_end':
        break;
      default: {
        const unknown: never = event;
        throw new Error(`Unhandled session event ${JSON.stringify(unknown)}`);
      }
    }
  }
  closePending();
  return messages;
}
