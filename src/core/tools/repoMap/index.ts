import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../definition';
import { Checkpoint } from '../astGrep/targets';
import { success, type ToolResult } from '../result';
import { collectSources, DEFAULT_COLLECT_LIMITS, type Collection, type CollectLimits, type MapSkipReason } from './collect';
import { REPO_MAP_DESCRIPTION } from './description';
import * as L from './limits';
import { queryTerms } from './query';
import { rankFiles } from './rank';
import { countReferences, definersOf, type References } from './references';
import { renderMap, type RenderedMap } from './render';

const tokensMessage = `must be an integer from ${L.MIN_TOKENS} to ${L.MAX_TOKENS}; omit it for ${L.DEFAULT_TOKENS}`;

const input = z.strictObject({
  path: z.string().min(1, 'must not be empty; give a folder or file, or omit path to map the whole workspace').nullish().describe('Folder or file to map; default the workspace root'),
  query: z
    .string()
    .max(L.MAX_QUERY_CHARS, `must be at most ${L.MAX_QUERY_CHARS} characters; give a few words`)
    .refine((q) => q.trim() !== '', 'must not be blank; give words to rank by, or omit query')
    .nullish()
    .describe('Words that rank matching paths and symbol names higher (case-insensitive, camelCase/snake_case split)'),
  maxTokens: z
    .number(tokensMessage)
    .int(tokensMessage)
    .min(L.MIN_TOKENS, tokensMessage)
    .max(L.MAX_TOKENS, tokensMessage)
    .nullish()
    .describe(`Token budget of the map, ${L.MIN_TOKENS} to ${L.MAX_TOKENS} (default ${L.DEFAULT_TOKENS}); tokens = ceil(UTF-8 bytes / 4)`),
});

export type RepoMapArgs = z.output<typeof input>;

/** Knobs for tests and benchmarks; the registered tool uses the defaults (limits.ts). */
export interface RepoMapToolOptions extends Partial<Omit<CollectLimits, 'deadline'>> {
  deadlineMs?: number;
  maxReferenceTokens?: number;
}

/** Skip reasons, most frequent first. */
function skipCounts(collection: Collection): [MapSkipReason, number][] {
  return [...collection.skipped].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

/** Reasons a narrower path (or a query, which picks the files parsed first) would map more. */
const LIMIT_REASONS: readonly MapSkipReason[] = ['file_limit', 'read_cap', 'symbol_limit'];

/** The notes after the map: what was skipped and why the result may be incomplete. */
function notesOf(collection: Collection, refs: References, deadlineMs: number): string[] {
  const notes: string[] = [];
  const skipped = [...collection.skipped.values()].reduce((a, b) => a + b, 0);
  if (skipped > 0) {
    const limited = LIMIT_REASONS.some((reason) => collection.skipped.has(reason)) ? '; narrow path or add a query to map the files the limits left out' : '';
    notes.push(`[skipped ${skipped} files: ${skipCounts(collection).map(([reason, count]) => `${count} ${reason}`).join(', ')}${limited}]`);
  }
  if (collection.walk !== null && !collection.walk.scan_complete) notes.push('[partial: the folder walk stopped early (entry limit or time); map a narrower path]');
  if (collection.skipped.has('deadline') || (refs.filesScanned < collection.files.length && !refs.capped)) {
    notes.push(`[partial: the ${deadlineMs / 1000} s deadline passed; later files are missing or ranked without their references]`);
  } else if (refs.capped) {
    notes.push(`[references counted in the first ${refs.filesScanned} of ${collection.files.length} files only (token limit); ranking of later files is rougher]`);
  }
  if (collection.files.length === 0) notes.push('[no Rust, Python, TypeScript, TSX or Go files to map here; give another path]');
  return notes;
}

function metadataOf(args: RepoMapArgs, collection: Collection, refs: References, map: RenderedMap, maxTokens: number, partial: boolean) {
  const skipReasons = skipCounts(collection).map(([reason, count]) => `${reason}=${count}`);
  return {
    path: args.path ?? '.',
    ...(args.query !== undefined && args.query !== null ? { query: args.query } : {}),
    files_scanned: collection.scanned,
    files_mapped: map.filesShown,
    symbols: map.symbolsTotal,
    symbols_shown: map.symbolsShown,
    tokens_estimated: map.tokens,
    max_tokens: maxTokens,
    token_estimate: 'ceil(utf8_bytes/4)',
    truncated: map.truncated,
    files_skipped: [...collection.skipped.values()].reduce((a, b) => a + b, 0),
    ...(skipReasons.length > 0 ? { skip_reasons: skipReasons } : {}),
    references_capped: refs.capped,
    partial,
  };
}

/** Builds the repo_map tool; `repoMapTool` is the one with the documented limits. */
export function createRepoMapTool(options: RepoMapToolOptions = {}): ToolDefinition<typeof input> {
  const { deadlineMs = L.DEADLINE_MS, maxReferenceTokens = L.MAX_REFERENCE_TOKENS, ...overrides } = options;
  return defineTool({
    name: 'repo_map',
    aliases: [],
    description: REPO_MAP_DESCRIPTION,
    mutates: false,
    input,
    async execute(args, ctx): Promise<ToolResult> {
      const deadline = Date.now() + deadlineMs;
      const maxTokens = args.maxTokens ?? L.DEFAULT_TOKENS;
      const terms = queryTerms(args.query ?? undefined);
      const collection = await collectSources(args.path ?? undefined, terms, { ...DEFAULT_COLLECT_LIMITS, ...overrides, deadline }, ctx);
      const checkpoint = new Checkpoint(ctx.signal, deadline);
      const refs = countReferences(collection.files, definersOf(collection.files), maxReferenceTokens, () => !checkpoint.expired());
      ctx.signal.throwIfAborted();
      const ranked = rankFiles(collection.files, refs, terms, Date.now());
      const map = renderMap(ranked, maxTokens, notesOf(collection, refs, deadlineMs));
      const partial = collection.partial || (refs.filesScanned < collection.files.length && !refs.capped);
      return success(map.text, metadataOf(args, collection, refs, map, maxTokens, partial));
    },
  });
}

export const repoMapTool = createRepoMapTool();
