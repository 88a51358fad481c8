/**
 * Every way an HTTP provider fails, as a ProviderError a person can act on: it names the provider
 * kind, the base URL's host, the HTTP status and a short, redacted excerpt of what the provider said,
 * and it says what to check. Nothing here ever carries the API key or extra header values.
 */
import { ProviderError, type ProviderErrorKind, type ProviderTiming } from '../provider';
import { redact } from '../../redact';

/** What an error message may name about the provider, plus the values it must never contain. */
export interface ProviderContext {
  kind: 'openai' | 'anthropic';
  /** host[:port] of the base URL. */
  host: string;
  model: string;
  timing: ProviderTiming;
  hasApiKey: boolean;
  /** The API key and extra header values: redacted wherever they might appear. */
  secrets: readonly string[];
}

const EXCERPT_CHARS = 300;
export function where(ctx: ProviderContext): string {
  return `${ctx.kind} provider at ${ctx.host}`;
}

/** The provider's own words about an error: `error.message` of a JSON body when there is one, else the text; one line, redacted, ≤300 chars. */
export function excerpt(body: string, secrets: readonly string[]): string {
  let text = body;
  try {
    const parsed: unknown = JSON.parse(body);
    const message = errorMessageOf(parsed);
    if (message) text = message;
  } catch {
    // Not JSON (an HTML error page, a proxy's text): the raw text is the best excerpt there is.
  }
  const line = redact(text.replace(/\s+/g, ' ').trim(), secrets);
  return line.length > EXCERPT_CHARS ? `${line.slice(0, EXCERPT_CHARS - 1)}…` : line;
}

/** `error.message` (OpenAI and Anthropic bodies), a string `error`, or a top-level `message`. */
export function errorMessageOf(value: unknown): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as Record<string, unknown>;
  const error = record.error;
  if (typeof error === 'string') return error;
  if (typeof error === 'object' && error !== null) {
    const message = (error as Record<string, unknown>).message;
    if (typeof message === 'string') return message;
  }
  return typeof record.message === 'string' ? record.message : undefined;
}

function said(text: string): string {
  return text ? `: ${text}` : '';
}

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || (status >= 500 && status <= 599);
}

/** The provider answered with a non-2xx status (or sent an error event carrying one). */
export function httpError(ctx: ProviderContext, status: number, providerText: string): ProviderError {
  const head = `${where(ctx)} answered HTTP ${status}${said(providerText)}.`;
  const make = (kind: ProviderErrorKind, advice: string): ProviderError =>
    new ProviderError(`${head} ${advice}`, kind, status, isRetryableStatus(status));
  if (status === 401 || status === 403) {
    return make('auth', ctx.hasApiKey
      ? 'The API key was rejected: check the key (the variable or setting it comes from) and that it belongs to this base URL.'
      : 'No API key is configured for this provider: set one.');
  }
  if (status === 404) return make('http', `Check the base URL and the model name "${ctx.model}".`);
  if (status === 400 || status === 413 || status === 422) {
    return make('http', `The request was refused: check the model name "${ctx.model}" and its limits (context length, output tokens).`);
  }
  if (status === 429) return make('http', 'Rate limited: wait, or lower the request rate or the plan\'s usage.');
  if (status === 529) return make('http', 'The provider is overloaded: try again later.');
  if (status >= 500) return make('http', 'The provider failed: try again later.');
  return make('http', 'Check the base URL and the model name.');
}

export function cancelledError(ctx: ProviderContext): ProviderError {
  return new ProviderError(`${where(ctx)}: request cancelled.`, 'cancelled');
}

export function malformedError(ctx: ProviderContext, detail: string): ProviderError {
  return new ProviderError(
    `${where(ctx)} sent a stream chunk that is not the ${ctx.kind} wire format (${redact(detail, ctx.secrets)}). Check that the base URL points at a ${ctx.kind}-compatible API.`,
    'malformed',
  );
}

export function disconnectedError(ctx: ProviderContext, detail: string): ProviderError {
  return new ProviderError(`${where(ctx)} closed the connection before the response ended (${detail}). Try again.`, 'disconnected', undefined, true);
}

/** Adds the attempt count to an error that survived retries. */
export function afterAttempts(error: ProviderError, attempts: number): ProviderError {
  if (attempts < 2) return error;
  return new ProviderError(`${error.message} (gave up after ${attempts} attempts)`, error.kind, error.status, error.retryable);
}

const TLS_CODE = /^(ERR_TLS|ERR_SSL|CERT_|UNABLE_TO_|DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH)/;

function codeOf(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  return codeOf((err as { cause?: unknown }).cause);
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

/**
 * Turns anything thrown while sending a request or reading its body into a ProviderError. `phase`
 * says whether response headers had arrived, which decides what an unknown error most likely was.
 */
export function toProviderError(err: unknown, ctx: ProviderContext, signal: AbortSignal, phase: 'request' | 'body'): ProviderError {
  if (signal.aborted) return cancelledError(ctx);
  if (err instanceof ProviderError) return err;
  const code = codeOf(err);
  const connect = (what: string, retryable: boolean, advice = 'Check the base URL and that the server is running and reachable.'): ProviderError =>
    new ProviderError(`${where(ctx)}: ${what}. ${advice}`, 'connect', undefined, retryable);
  switch (code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return connect(`could not connect within ${seconds(ctx.timing.connectMs)}`, true);
    case 'ECONNREFUSED':
      return connect('connection refused', true);
    case 'ENOTFOUND':
      return connect('the host name does not resolve', false, 'Check the base URL.');
    case 'EAI_AGAIN':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ETIMEDOUT':
      return connect(`could not connect (${code})`, true);
    case 'UND_ERR_HEADERS_TIMEOUT':
      return new ProviderError(`${where(ctx)} sent no response headers within ${seconds(ctx.timing.headersMs)}. Try again; the server may be overloaded.`, 'stalled', undefined, true);
    case 'UND_ERR_BODY_TIMEOUT':
      return new ProviderError(`${where(ctx)} sent nothing for ${seconds(ctx.timing.idleMs)} while the response streamed. Try again.`, 'stalled', undefined, true);
    case 'UND_ERR_SOCKET':
    case 'UND_ERR_CLOSED':
    case 'ECONNRESET':
    case 'EPIPE':
      return disconnectedError(ctx, code);
  }
  const detail = redact(err instanceof Error ? err.message : String(err), ctx.secrets).slice(0, 200);
  if (code && TLS_CODE.test(code)) return connect(`TLS failed (${code}: ${detail})`, false, 'Check the base URL\'s scheme and certificate.');
  if (phase === 'body') return disconnectedError(ctx, code ?? detail);
  return connect(`the request could not be sent (${code ?? detail})`, false);
}
