/** When to try a failed request again: `retry-after` when the provider sent one, else backoff with jitter. */
import type { IncomingHttpHeaders } from 'node:http';
import type { ProviderTiming } from '../provider';

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The wait the provider asked for, in milliseconds, or undefined when it asked for none (or for
 * something unreadable). Reads OpenAI's `retry-after-ms` first, then `retry-after` as seconds or as an
 * HTTP date (a date in the past means "now").
 */
export function parseRetryAfter(headers: IncomingHttpHeaders, now = Date.now()): number | undefined {
  const ms = headerValue(headers, 'retry-after-ms')?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return Math.ceil(Number(ms));
  const value = headerValue(headers, 'retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.ceil(Number(value) * 1000);
  // An HTTP date names its month; without the letter check Date.parse would read "-5" as a year.
  const date = /[a-z]/i.test(value) ? Date.parse(value) : Number.NaN;
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/**
 * Delay before retry number `retry` (0 for the first retry). A provider-given wait is honoured as is,
 * up to maxRetryDelayMs; otherwise exponential backoff with "equal jitter" (half fixed, half random),
 * so that many clients failing together do not come back together.
 */
export function retryDelayMs(
  retry: number,
  timing: Pick<ProviderTiming, 'baseRetryDelayMs' | 'maxRetryDelayMs'>,
  retryAfterMs?: number,
  random: () => number = Math.random,
): number {
  if (retryAfterMs !== undefined) return Math.min(retryAfterMs, timing.maxRetryDelayMs);
  const ceiling = Math.min(timing.maxRetryDelayMs, timing.baseRetryDelayMs * 2 ** retry);
  return Math.round(ceiling / 2 + (random() * ceiling) / 2);
}

/** Waits `ms`, or less when `signal` aborts; never rejects (the caller checks `signal.aborted`). */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}
