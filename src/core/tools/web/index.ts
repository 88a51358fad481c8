import { z } from 'zod';
import { checkPublicUrl } from '../../net/publicUrl';
import { fetchPublic, OPEN_LIMITS, systemTransport, type FetchLimits, type FetchTransport } from '../../net/pinnedFetch';
import { redact } from '../../redact';
import { defineTool, type ToolContext, type ToolDefinition } from '../definition';
import { ToolError } from '../errors';
import { OutputBudget } from '../read/budget';
import { success, type ToolResult } from '../result';
import { validateWebArgs, webFields, webInput, type OpenArgs, type SearchArgs } from './args';
import { WEB_DESCRIPTION } from './description';
import { EXA_BASE_URL, EXA_TEXT_CHARS, exaSearch } from './exa';
import { pageText } from './extract';
import type { PageSnapshot } from './snapshots';

/** Provider-visible output, UTF-8 bytes. */
export const WEB_OUTPUT_CAP = 48 * 1024;
/** Characters of each search result's excerpt shown (the whole extract stays in its snapshot). */
export const EXCERPT_CHARS = 1_200;
/** Tokens of an opened page's text. */
export const OPEN_TOKEN_BUDGET = 5_000;

/** Knobs for tests only: where Exa is, whose environment holds the key, how URLs are reached. No setting reaches these. */
export interface WebToolOptions {
  exaBaseUrl?: string;
  env?: Readonly<Record<string, string | undefined>>;
  transport?: FetchTransport;
  limits?: FetchLimits;
  now?: () => Date;
}

const MISSING_KEY = 'web: search needs EXA_API_KEY in the environment (it is never read from settings or stored keys). For VS Code, export it in the shell or profile VS Code is started from (or the remote host\'s environment) and restart VS Code; for the CLI, export it before running magi. URL open needs no key.';

function excerpt(text: string): string {
  const flat = text.replace(/\s*\n\s*\n\s*/g, '\n').trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS)}…` : flat;
}

async function search(args: SearchArgs, ctx: ToolContext, options: WebToolOptions): Promise<ToolResult> {
  const key = (options.env ?? process.env).EXA_API_KEY?.trim();
  if (key === undefined || key === '') throw new ToolError(MISSING_KEY);
  const results = await exaSearch(args, key, ctx.signal, options.exaBaseUrl ?? EXA_BASE_URL, options.now?.() ?? new Date());
  const budget = new OutputBudget(WEB_OUTPUT_CAP);
  let shown = 0;
  let dropped = 0;
  for (const result of results) {
    try {
      checkPublicUrl(result.url);
    } catch (err) {
      if (!(err instanceof ToolError)) throw err;
      dropped++;
      continue;
    }
    const title = result.title === undefined ? undefined : redact(result.title, [key]);
    const snapshot = ctx.runtime.pages.add({ url: result.url, title, text: redact(result.text, [key]), truncated: result.text.length >= EXA_TEXT_CHARS });
    const lines = [`[${shown + 1}] ${title ?? result.url}`, `URL: ${result.url}`, `Reference: ${snapshot.reference}`];
    if (result.publishedDate !== undefined) lines.push(`Published: ${result.publishedDate.slice(0, 10)}`);
    if (snapshot.text !== '') lines.push(excerpt(snapshot.text));
    lines.push('');
    if (!budget.addRecord(lines)) break;
    shown++;
  }
  if (shown === 0 && !budget.truncated) budget.note(`No results for ${JSON.stringify(args.query)}${dropped > 0 ? ` (${dropped} non-public URL(s) left out)` : ''}.`);
  else budget.note(`Open a result with {"operation": "open", "reference": "web:…"} for its stored text, or its URL for the live page.`);
  if (budget.truncated) budget.note(`[truncated: output reached the ${WEB_OUTPUT_CAP / 1024} KiB cap]`);
  return success(budget.text(), { operation: 'search', backend: 'exa', query: args.query, results: shown, urls_dropped: dropped, truncated: budget.truncated || shown < results.length - dropped });
}

function pageOutput(snapshot: PageSnapshot, cached: boolean, extra: Record<string, string | number | boolean>): ToolResult {
  const budget = new OutputBudget(WEB_OUTPUT_CAP);
  budget.add(`URL: ${snapshot.url}`);
  if (snapshot.title !== undefined) budget.add(`Title: ${snapshot.title}`);
  budget.add(`Reference: ${snapshot.reference}${cached ? ' (stored snapshot)' : ''}`);
  budget.add('');
  for (const line of snapshot.text.split('\n')) if (!budget.add(line)) break;
  const truncated = budget.truncated || snapshot.truncated;
  if (truncated) budget.note('[truncated: the page text was cut (text budget, snapshot size or output cap)]');
  return success(budget.text(), { operation: 'open', url: snapshot.url, reference: snapshot.reference, cached, truncated, ...extra });
}

async function open(args: OpenArgs, ctx: ToolContext, options: WebToolOptions): Promise<ToolResult> {
  if (args.reference !== undefined) {
    const snapshot = ctx.runtime.pages.get(args.reference.trim());
    if (snapshot === undefined) throw new ToolError(`web: ${args.reference} is unknown or was evicted (the last 64 pages are kept, never across sessions); open its public URL again for a new reference.`);
    return pageOutput(snapshot, true, {});
  }
  const page = await fetchPublic(args.url as string, ctx.signal, options.transport ?? systemTransport, options.limits ?? OPEN_LIMITS);
  if (page.status >= 400) throw new ToolError(`web: ${page.url} answered HTTP ${page.status}.`);
  const text = pageText(page.body, page.contentType, page.url, OPEN_TOKEN_BUDGET);
  const snapshot = ctx.runtime.pages.add({ url: page.url, title: text.title, text: text.text, truncated: text.truncated || page.truncated });
  return pageOutput(snapshot, false, { status: page.status, method: text.method, tokens: text.tokens, bytes: page.body.length, download_truncated: page.truncated });
}

export function createWebTool(options: WebToolOptions = {}): ToolDefinition<typeof webInput> {
  return defineTool({
    name: 'web',
    aliases: [],
    description: WEB_DESCRIPTION,
    mutates: false,
    input: webInput,
    providerInput: z.strictObject(webFields),
    async execute(raw, ctx): Promise<ToolResult> {
      const args = validateWebArgs(raw);
      return args.operation === 'search' ? search(args, ctx, options) : open(args, ctx, options);
    },
  });
}

export const webTool = createWebTool();
