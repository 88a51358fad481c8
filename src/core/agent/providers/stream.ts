/**
 * The attempt loop shared by both wire formats: send, check the status, parse SSE, decode, and retry
 * what is worth retrying — but only while nothing has reached the caller, since a turn that already
 * streamed text cannot be replayed without the caller seeing it twice.
 */
import type { Agent } from 'undici';
import { ProviderError, type ProviderRetry, type StreamEvent } from '../provider';
import { afterAttempts, cancelledError, disconnectedError, excerpt, httpError, toProviderError, where, type ProviderContext } from './errors';
import { postJson, readErrorBody, type HttpResponse, type JsonPost } from './http';
import { parseRetryAfter, retryDelayMs, sleep } from './retry';
import { SseParser, type SseMessage } from './sse';

/** Turns one provider's SSE messages into StreamEvents; a fresh one per attempt. */
export interface WireDecoder {
  /** Events for one message, in order; throws ProviderError for an error event or a malformed chunk. */
  accept(message: SseMessage): StreamEvent[];
  /** The end marker arrived; nothing after it matters. */
  readonly finished: boolean;
  /** A stream that ends here without the marker is still whole (OpenAI-compatible servers that omit `[DONE]`). */
  readonly completeWithoutMarker: boolean;
  /** The closing events: ends of calls still open, the usage, then the stop. */
  close(): StreamEvent[];
}

export interface WireExchange {
  post: JsonPost;
  createDecoder(): WireDecoder;
}

export async function* streamWithRetries(agent: Agent, exchange: WireExchange, ctx: ProviderContext, signal: AbortSignal, onRetry?: (retry: ProviderRetry) => void): AsyncGenerator<StreamEvent> {
  for (let attempt = 0; ; attempt++) {
    if (signal.aborted) throw cancelledError(ctx);
    let yielded = 0;
    let retryAfterMs: number | undefined;
    let failure: ProviderError;
    try {
      const response = await postJson(agent, exchange.post, ctx, signal);
      if (response.statusCode < 200 || response.statusCode > 299) {
        retryAfterMs = parseRetryAfter(response.headers);
        const body = await readErrorBody(response);
        throw httpError(ctx, response.statusCode, excerpt(body, ctx.secrets));
      }
      for await (const event of decodeBody(response, exchange.createDecoder(), ctx, signal)) {
        yielded++;
        yield event;
      }
      return;
    } catch (err) {
      failure = toProviderError(err, ctx, signal, 'body');
    }
    if (failure.kind === 'cancelled') throw failure;
    if (!failure.retryable || yielded > 0 || attempt >= ctx.timing.maxRetries) throw afterAttempts(failure, attempt + 1);
    const delayMs = retryDelayMs(attempt, ctx.timing, retryAfterMs);
    onRetry?.({ attempt: attempt + 1, delayMs, reason: failure.status !== undefined ? `HTTP ${failure.status}` : failure.kind });
    await sleep(delayMs, signal);
  }
}

async function* decodeBody(response: HttpResponse, decoder: WireDecoder, ctx: ProviderContext, signal: AbortSignal): AsyncGenerator<StreamEvent> {
  const { body } = response;
  try {
    const contentType = String(response.headers['content-type'] ?? '');
    if (contentType.includes('application/json')) {
      // A server that ignored `stream: true`, or reports an error with status 200.
      const text = await readErrorBody(response);
      throw new ProviderError(
        `${where(ctx)} answered with JSON instead of an event stream: ${excerpt(text, ctx.secrets)}. Check that the base URL points at a streaming ${ctx.kind}-compatible API.`,
        'malformed',
      );
    }
    const parser = new SseParser();
    for await (const chunk of body) {
      for (const message of parser.push(chunk as Uint8Array)) {
        yield* decoder.accept(message);
        if (decoder.finished) {
          yield* decoder.close();
          return;
        }
      }
    }
    for (const message of parser.end()) yield* decoder.accept(message);
    if (!decoder.finished && !decoder.completeWithoutMarker) throw disconnectedError(ctx, 'the stream ended before its end marker');
    yield* decoder.close();
  } catch (err) {
    throw toProviderError(err, ctx, signal, 'body');
  } finally {
    // Releases the connection when the caller stops early or the stream failed; a no-op after a clean end.
    if (!body.destroyed) body.destroy();
  }
}
