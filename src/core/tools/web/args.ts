import { z } from 'zod';
import { ToolError } from '../errors';

/** Search results per call: default and bounds. */
export const DEFAULT_RESULTS = 5;
export const MAX_RESULTS = 10;
export const MAX_QUERY_CHARS = 512;
export const MAX_DOMAINS = 20;

const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

/** What providers see; every field but `operation` may be null, meaning omitted. */
export const webFields = {
  operation: z.enum(['search', 'open']).describe('search (the web, via Exa) or open (one public URL or a reference from a search)'),
  query: nullable(z.string()).describe(`search: 1 to ${MAX_QUERY_CHARS} characters`),
  limit: nullable(z.number().int()).describe(`search: results, 1 to ${MAX_RESULTS} (default ${DEFAULT_RESULTS})`),
  domainFilter: nullable(z.array(z.string())).describe(`search: up to ${MAX_DOMAINS} bare domains; prefix - to exclude`),
  recencyFilter: nullable(z.enum(['day', 'week', 'month', 'year'])).describe('search: only pages published in the last day, week, month or year'),
  url: nullable(z.string()).describe('open: a public http(s) URL'),
  reference: nullable(z.string()).describe('open: a web:<ref> reference from an earlier result'),
};

/** The older web_search/code_search fields: refused with guidance, never silently ignored. */
const legacyFields = { queries: z.unknown().optional(), numResults: z.unknown().optional(), includeContent: z.unknown().optional(), maxTokens: z.unknown().optional() };

export const webInput = z.strictObject({ ...webFields, ...legacyFields });
export type WebArgs = z.output<typeof webInput>;

export interface SearchArgs {
  operation: 'search';
  query: string;
  limit: number;
  include: string[];
  exclude: string[];
  recency: 'day' | 'week' | 'month' | 'year' | undefined;
}

export type OpenArgs = { operation: 'open'; url: string; reference?: undefined } | { operation: 'open'; reference: string; url?: undefined };

const SEARCH_ONLY = ['query', 'limit', 'domainFilter', 'recencyFilter'] as const;
const OPEN_ONLY = ['url', 'reference'] as const;

function refuse(args: WebArgs, operation: 'search' | 'open', fields: readonly (keyof WebArgs)[]): void {
  const given = fields.filter((field) => args[field] !== undefined && args[field] !== null);
  if (given.length === 0) return;
  const example = JSON.stringify({ operation, ...Object.fromEntries(given.map((field) => [field, null])) });
  throw new ToolError(`web: operation "${operation}" does not take ${given.map((f) => `\`${f}\``).join(', ')}; omit ${given.length > 1 ? 'them' : 'it'} or set ${given.length > 1 ? 'them' : 'it'} to null, e.g. ${example}.`);
}

const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** One domainFilter entry: a bare ASCII domain, `-` in front to exclude. */
function domainOf(entry: string): { domain: string; exclude: boolean } {
  const trimmed = entry.trim();
  const exclude = trimmed.startsWith('-');
  const domain = (exclude ? trimmed.slice(1) : trimmed).toLowerCase();
  const why =
    domain === '' ? 'is empty'
    : /[\s]/.test(domain) ? 'contains whitespace'
    : domain.includes('://') ? 'has a scheme; give the bare domain'
    : domain.includes('/') ? 'has a path; give the bare domain'
    : domain.includes(':') ? 'has a port; give the bare domain'
    : domain.length > 253 ? 'is longer than 253 characters'
    : !/^[\x21-\x7e]+$/.test(domain) ? 'is not ASCII (write an IDN in its xn-- form)'
    : domain.split('.').some((label) => !LABEL.test(label)) ? 'has an empty or invalid label (letters, digits and inner hyphens, at most 63 characters)'
    : undefined;
  if (why !== undefined) throw new ToolError(`web: domainFilter entry ${JSON.stringify(entry)} ${why}, e.g. "rust-lang.org" or "-old.rust-lang.org".`);
  return { domain, exclude };
}

/** Checks one call's fields against its operation; nothing goes to the network before this passes. */
export function validateWebArgs(args: WebArgs): SearchArgs | OpenArgs {
  const legacy = (Object.keys(legacyFields) as (keyof typeof legacyFields)[]).filter((field) => args[field] !== undefined);
  if (legacy.length > 0) {
    throw new ToolError(`web: ${legacy.map((f) => `\`${f}\``).join(', ')} belong to the retired web_search/code_search tools; web takes one query per call: {"operation": "search", "query": "...", "limit": 5}.`);
  }
  if (args.operation === 'search') {
    refuse(args, 'search', OPEN_ONLY);
    const query = (args.query ?? '').trim();
    if (query === '') throw new ToolError('web: search needs a nonblank `query`, e.g. {"operation": "search", "query": "Rust release notes"}.');
    if (query.length > MAX_QUERY_CHARS) throw new ToolError(`web: \`query\` is ${query.length} characters; at most ${MAX_QUERY_CHARS}.`);
    const limit = args.limit ?? DEFAULT_RESULTS;
    if (limit < 1 || limit > MAX_RESULTS) throw new ToolError(`web: \`limit\` must be 1 to ${MAX_RESULTS} (got ${limit}).`);
    const domains = args.domainFilter ?? [];
    if (domains.length > MAX_DOMAINS) throw new ToolError(`web: domainFilter has ${domains.length} entries; at most ${MAX_DOMAINS}.`);
    const parsed = domains.map(domainOf);
    return {
      operation: 'search',
      query,
      limit,
      include: parsed.filter((d) => !d.exclude).map((d) => d.domain),
      exclude: parsed.filter((d) => d.exclude).map((d) => d.domain),
      recency: args.recencyFilter ?? undefined,
    };
  }
  refuse(args, 'open', SEARCH_ONLY);
  const url = args.url ?? undefined;
  const reference = args.reference ?? undefined;
  if ((url === undefined) === (reference === undefined)) {
    throw new ToolError('web: open takes exactly one of `url` or `reference`, e.g. {"operation": "open", "url": "https://www.rust-lang.org/"} or {"operation": "open", "reference": "web:…"}.');
  }
  return url !== undefined ? { operation: 'open', url } : { operation: 'open', reference: reference as string };
}
