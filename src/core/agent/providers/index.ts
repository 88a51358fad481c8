/** The HTTP model providers: OpenAI-compatible Chat Completions and Anthropic Messages, over undici. */
import { DEFAULT_PROVIDER_TIMING, ProviderError, type HttpProviderConfig, type ModelProvider, type ModelRequest, type ProviderTiming, type StreamEvent } from '../provider';
import { AnthropicDecoder, anthropicPost } from './anthropic';
import type { ProviderContext } from './errors';
import { createAgent } from './http';
import { OpenAiDecoder, openAiPost } from './openai';
import { streamWithRetries, type WireExchange } from './stream';

/**
 * A ModelProvider for `config.kind`. Throws ProviderError (kind `connect`) right away when the base
 * URL is not an http(s) URL. `stream` follows the ModelProvider contract: ProviderError for every
 * failure after retries (429, 5xx, connect failures, stalls and disconnects, only while nothing was
 * yielded), kind `cancelled` promptly on abort, and the API key never in any error.
 */
export function createHttpProvider(config: HttpProviderConfig): ModelProvider {
  let url: URL;
  try {
    url = new URL(config.baseUrl);
  } catch {
    throw new ProviderError(`${config.kind} provider: base URL "${config.baseUrl}" is not a URL. Use e.g. https://api.openai.com/v1.`, 'connect');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ProviderError(`${config.kind} provider: base URL must start with http:// or https:// (got ${url.protocol}).`, 'connect');
  }
  // Fields set to undefined (an unset setting passed through) keep their defaults instead of erasing them.
  const overrides = Object.fromEntries(Object.entries(config.timing ?? {}).filter(([, value]) => value !== undefined));
  const timing: ProviderTiming = { ...DEFAULT_PROVIDER_TIMING, ...overrides };
  const extraHeaders = config.headers ?? {};
  const ctx: ProviderContext = {
    kind: config.kind,
    host: url.host,
    model: config.model,
    timing,
    hasApiKey: Boolean(config.apiKey),
    secrets: [...(config.apiKey ? [config.apiKey] : []), ...Object.values(extraHeaders)],
  };
  const agent = createAgent(timing);
  const authHeaders: Record<string, string> = {};
  if (config.apiKey) {
    if (config.kind === 'openai') authHeaders.authorization = `Bearer ${config.apiKey}`;
    else authHeaders['x-api-key'] = config.apiKey;
  }
  const headers = { ...extraHeaders, ...authHeaders };
  const exchange = (request: ModelRequest): WireExchange =>
    config.kind === 'openai'
      ? { post: openAiPost(config.baseUrl, config.model, request, headers), createDecoder: () => new OpenAiDecoder(ctx) }
      : { post: anthropicPost(config.baseUrl, config.model, request, headers), createDecoder: () => new AnthropicDecoder(ctx) };
  // Typed with its own `close` so this compiles whether or not the port declares the optional member.
  const provider: ModelProvider & { close(): Promise<void> } = {
    kind: config.kind,
    model: config.model,
    stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<StreamEvent> {
      return streamWithRetries(agent, exchange(request), ctx, signal, request.onRetry);
    },
    /** Closes pooled keep-alive connections once in-flight requests end (idle sockets are unref'd, so this is tidiness, not a must). */
    close: () => agent.close(),
  };
  return provider;
}
