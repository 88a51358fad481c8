/**
 * The HTTP layer under both providers: one undici Agent per provider (connection reuse, connect
 * timeout), POSTs with the headers timeout, and the byte-idle watchdog. The watchdog is undici's
 * `bodyTimeout`: it measures the gap between body chunks on the socket and pauses while the consumer
 * applies backpressure, so a slow consumer never reads as a stalled server. undici's timers tick about
 * every half second, so a timeout fires up to about a second late: noise next to the 90 s default.
 */
import { Agent, request, type Dispatcher } from 'undici';
import type { ProviderTiming } from '../provider';
import { toProviderError, type ProviderContext } from './errors';

export type HttpResponse = Dispatcher.ResponseData;

export function createAgent(timing: ProviderTiming): Agent {
  return new Agent({
    connect: { timeout: timing.connectMs },
    headersTimeout: timing.headersMs,
    bodyTimeout: timing.idleMs,
  });
}

export interface JsonPost {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** Sends the POST and waits for the response headers; throws ProviderError (connect, stalled, cancelled…). */
export async function postJson(agent: Agent, post: JsonPost, ctx: ProviderContext, signal: AbortSignal): Promise<HttpResponse> {
  try {
    return await request(post.url, {
      method: 'POST',
      dispatcher: agent,
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...post.headers },
      body: JSON.stringify(post.body),
      signal,
    });
  } catch (err) {
    throw toProviderError(err, ctx, signal, 'request');
  }
}

/** Enough of an error body for a 300-character excerpt, even after JSON unwrapping. */
const ERROR_BODY_BYTES = 16 * 1024;

/**
 * Reads the start of an error response and releases the rest (a short body is read to its end so
 * the connection can be reused; a long one is destroyed). A body that fails midway yields what
 * arrived: the status already says what went wrong, the text only adds detail.
 */
export async function readErrorBody(response: HttpResponse): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      chunks.push(buffer);
      size += buffer.length;
      if (size >= ERROR_BODY_BYTES) break;
    }
  } catch (err) {
    chunks.push(Buffer.from(` [body cut: ${err instanceof Error ? err.name : 'error'}]`));
  } finally {
    if (!response.body.destroyed) response.body.destroy();
  }
  return Buffer.concat(chunks).subarray(0, ERROR_BODY_BYTES).toString('utf8');
}
