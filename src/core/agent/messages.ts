/**
 * The provider-neutral conversation: what the loop keeps, what providers translate into their wire
 * format, and what a resumed session rebuilds. Display-only data (diffs) never appears here.
 */

/** One tool call as the model made it; `arguments` is the raw JSON text the model streamed. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

export type ChatMessage =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls: ToolCall[] }
  /** A tool's provider-visible text (`providerText(result)`), answering the call with `toolCallId`. */
  | { role: 'tool'; toolCallId: string; name: string; content: string; isError: boolean }
  /**
   * A system reminder injected mid-conversation (token-triggered reminders). Providers send it as
   * the most authoritative mid-conversation text their format allows (a user-role message wrapped in
   * `<system-reminder>` tags for both Chat Completions and Messages).
   */
  | { role: 'reminder'; content: string };

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Tokens served from the provider's prompt cache, when it reports them. */
  cachedInputTokens?: number;
}
