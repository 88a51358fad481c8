import { Agent, request } from 'undici';
import { readCapped } from '../../net/body';
import { ToolError } from '../errors';
import type { SearchArgs } from './args';

/** Exa's public API; tests give their own server on 127.0.0.1 through the tool's options only. */
export const EXA_BASE_URL = 'https://api.exa.ai';
/** Characters of page text requested per result. */
export const EXA_TEXT_CHARS = 10_000;
/** Bytes of one response read at most. */
export const EXA_RESPONSE_CAP = 2 * 1024 * 1024;
export const EXA_CONNECT_TIMEOUT_MS = 5_000;
export const EXA_REQUEST_TIMEOUT_MS = 20_000;

export interface ExaResult {
  title: string | undefined;
  url: string;
  publishedDate: string | undefined;
  text: string;
}

const RECENCY_DAYS = { day: 1, week: 7, month: 30, year: 365 } as const;

/** The `startPublishedDate` of a recency filter: the current UTC date minus 1, 7, 30 or 365 days. */
export function startPublishedDate(recency: keyof typeof RECENCY_DAYS, now: Date): string {
  const day = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(day - RECENCY_DAYS[recency] * 86_400_000).toISOString();
}

export function requestBody(args: SearchArgs, now: Date): Record<string, unknown> {
  return {
    query: args.query,
    numResults: args.limit,
    ...(args.include.length > 0 ? { includeDomains: args.include } : {}),
    ...(args.exclude.length > 0 ? { excludeDomains: args.exclude } : {}),
    ...(args.recency !== undefined ? { startPublishedDate: startPublishedDate(args.recency, now) } : {}),
    contents: { text: { maxCharacters: EXA_TEXT_CHARS } },
  };
}

const str = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** The results of Exa's /search, as far as they are well formed. */
function resultsOf(json: unknown): ExaResult[] {
  const results = (json as { results?: unknown } | null)?.results;
  if (!Array.isArray(results)) throw new ToolError('web: the search service answered without a results list; try again later.');
  return results.flatMap((entry: Record<string, unknown>) => {
    const url = str(entry?.url);
    return url === undefined ? [] : [{ title: str(entry.title), url, publishedDate: str(entry.publishedDate), text: str(entry.text) ?? '' }];
  });
}

/**
 * One Exa search with the key from the environment only (never settings, SecretStorage or auth
 * files): 5 s to connect, 20 s in all, at most 2 MiB read, cancellation honoured. The key never
 * appears in an error.
 */
export async function exaSearch(args: SearchArgs, key: string, signal: AbortSignal, baseUrl = EXA_BASE_URL, now = new Date()): Promise<ExaResult[]> {
  const agent = new Agent({ connectTimeout: EXA_CONNECT_TIMEOUT_MS });
  const timeout = AbortSignal.timeout(EXA_REQUEST_TIMEOUT_MS);
  try {
    const response = await request(`${baseUrl.replace(/\/$/, '')}/search`, {
      dispatcher: agent,
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': key, accept: 'application/json' },
      body: JSON.stringify(requestBody(args, now)),
      signal: AbortSignal.any([signal, timeout]),
    });
    const { bytes, truncated } = await readCapped(response.body, EXA_RESPONSE_CAP);
    if (truncated) throw new ToolError(`web: the search response passed ${EXA_RESPONSE_CAP / 1024 / 1024} MiB and was dropped; ask for fewer results.`);
    const text = bytes.toString('utf8');
    if (response.statusCode === 401 || response.statusCode === 403) throw new ToolError(`web: the search service refused EXA_API_KEY (HTTP ${response.statusCode}); check the key in the environment VS Code or magi runs in.`);
    if (response.statusCode === 429) throw new ToolError('web: the search service is rate limiting (HTTP 429); wait and search again.');
    if (response.statusCode >= 400) throw new ToolError(`web: the search service failed (HTTP ${response.statusCode}); try again later.`);
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      throw new ToolError('web: the search service answered with something other than JSON; try again later.');
    }
    return resultsOf(json);
  } catch (err) {
    if (err instanceof ToolError) throw err;
    if (signal.aborted) throw signal.reason;
    if (timeout.aborted) throw new ToolError(`web: the search service did not answer within ${EXA_REQUEST_TIMEOUT_MS / 1000} s; try again.`);
    throw new ToolError(`web: the search service could not be reached: ${(err as Error).message.split(key).join('[redacted]')}`);
  } finally {
    await agent.close();
  }
}
