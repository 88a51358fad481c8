import type { ChatMessage, Usage } from './messages';

/** A tool as offered to the model: canonical name, description, JSON Schema of the arguments. */
export interface ModelToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

export interface ModelRequest {
  system: string;
  messages: readonly ChatMessage[];
  tools: readonly ModelToolSpec[];
  /** Upper bound of output tokens for this turn (Anthropic requires one). */
  maxOutputTokens: number;
  /** Told before each retry's wait, so a person sees why the answer is late. */
  onRetry?: (retry: ProviderRetry) => void;
}

export interface ProviderRetry {
  /** 1 for the first retry. */
  attempt: number;
  delayMs: number;
  /** `HTTP 429`, `connect`, `stalled` … */
  reason: string;
}

export type StopReason = 'end' | 'tool_calls' | 'max_tokens' | 'other';

/**
 * What a provider yields while a turn streams, in order. `tool_call_begin`/`tool_call_delta` show
 * progress; `tool_call_end` carries the complete raw arguments (the loop validates them). Every call
 * that begins also ends before `stop`. `usage` may come once or more (the last one wins). `stop` is
 * always the final event of a successful stream.
 */
export type StreamEvent =
  | { type: 'text_delta'; text: string }
  | { type: 'tool_call_begin'; index: number; id: string; name: string }
  | { type: 'tool_call_delta'; index: number; argumentsDelta: string }
  | { type: 'tool_call_end'; index: number; id: string; name: string; arguments: string }
  | { type: 'usage'; usage: Usage }
  | { type: 'stop'; reason: StopReason };

/**
 * The port every model backend implements: OpenAI-compatible Chat Completions and Anthropic
 * Messages in the core (over undici), VS Code's Language Model API in the host. `stream` throws
 * ProviderError for every failure (after its own retries) and stops promptly when `signal` aborts
 * (throwing a ProviderError of kind `cancelled`).
 */
export interface ModelProvider {
  /** `openai`, `anthropic`, `vscode-lm`, … */
  readonly kind: string;
  readonly model: string;
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<StreamEvent>;
  /** Releases pooled connections (keep-alive sockets would hold a CLI process open). */
  close?(): Promise<void>;
}

export type ProviderErrorKind =
  /** HTTP status the provider answered with (after retries when retryable). */
  | 'http'
  /** Could not connect within the connect timeout, or the connection was refused. */
  | 'connect'
  /** No byte arrived for the idle window while a response streamed. */
  | 'stalled'
  /** A chunk was not the JSON the wire format promises. */
  | 'malformed'
  /** The connection closed before the stream's end marker. */
  | 'disconnected'
  | 'cancelled'
  /** Missing or rejected credentials (401/403, or no key configured). */
  | 'auth';

/**
 * A provider failure with a message a person can act on. Messages and fields never contain the
 * API key nor the Authorization / x-api-key header values.
 */
export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    message: string,
    readonly kind: ProviderErrorKind,
    readonly status?: number,
    /** Whether trying the same request again may succeed (429, 5xx, connect, disconnect, stall). */
    readonly retryable = false,
  ) {
    super(message);
  }
}

/** Network behaviour shared by the HTTP providers; defaults in DEFAULT_PROVIDER_TIMING. */
export interface ProviderTiming {
  /** TCP/TLS connect timeout. */
  connectMs: number;
  /** Longest wait for the response headers. */
  headersMs: number;
  /** Byte-idle watchdog: longest gap between two body chunks of a stream. */
  idleMs: number;
  /** Retries after the first attempt, on 429/5xx/connect failures/disconnects before any event. */
  maxRetries: number;
  /** Exponential backoff base and cap; `retry-after` (seconds or HTTP date) wins when present, up to maxRetryDelayMs. */
  baseRetryDelayMs: number;
  maxRetryDelayMs: number;
}

export const DEFAULT_PROVIDER_TIMING: ProviderTiming = {
  connectMs: 10_000,
  headersMs: 120_000,
  idleMs: 90_000,
  maxRetries: 4,
  baseRetryDelayMs: 500,
  maxRetryDelayMs: 30_000,
};

export interface HttpProviderConfig {
  kind: 'openai' | 'anthropic';
  /** e.g. https://api.openai.com/v1, http://127.0.0.1:11434/v1, https://api.anthropic.com (the provider appends its path). */
  baseUrl: string;
  model: string;
  /** Omitted for local servers that need none (Ollama, LM Studio). Never logged nor put in errors. */
  apiKey?: string;
  timing?: Partial<ProviderTiming>;
  /** Extra request headers (OpenRouter's HTTP-Referer …); values are never logged. */
  headers?: Record<string, string>;
}
