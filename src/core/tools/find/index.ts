import { promises as fsp } from 'node:fs';
import { z } from 'zod';
import type { WalkResult } from '../../workspace/types';
import { defineTool, type ToolContext } from '../definition';
import { ToolError } from '../errors';
import { success, type ToolMetadata, type ToolResult } from '../result';
import type { ToolRuntime } from '../runtime';
import { FIND_DESCRIPTION } from './description';
import { FindIndexCache } from './entries';
import { rankPage, type FindKind } from './rank';
import { parseQuery } from './scorer';

export const MAX_QUERY_CHARS = 512;
export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;
/** Provider-visible output cap; paths are added whole. */
export const FIND_OUTPUT_CAP = 64 * 1024;

const input = z.strictObject({
  query: z
    .string()
    .trim()
    .min(1, 'must not be empty or blank; give part of a file or folder name, e.g. {"query": "index.ts"}')
    .max(MAX_QUERY_CHARS, `must be at most ${MAX_QUERY_CHARS} characters after trimming; shorten it to a distinctive part of the name`)
    .describe('Part of a file or folder name or path; space-separated words must all match; a word with / matches the path'),
  kind: z.enum(['files', 'directories', 'mixed']).default('files').describe('files (default), directories, or mixed; directories end with / in output'),
  path: z.string().optional().describe('Existing folder to search in; default the workspace root'),
  limit: z.number().int().min(1).default(DEFAULT_LIMIT).describe(`Results per page, default ${DEFAULT_LIMIT}, capped at ${MAX_LIMIT}`),
  offset: z.number().int().min(0).default(0).describe('Ranked results to skip, for paging'),
});

export type FindArgs = z.output<typeof input>;

/** Prepared indexes per session, so a warm query on an unchanged tree only scores. */
const caches = new WeakMap<ToolRuntime, FindIndexCache>();

export function findIndexCache(runtime: ToolRuntime): FindIndexCache {
  let cache = caches.get(runtime);
  if (cache === undefined) caches.set(runtime, (cache = new FindIndexCache()));
  return cache;
}

const count = (n: number, one: string, many: string): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** Why a partial scan stopped, in words. */
function stopReason(facts: WalkResult['facts']): string {
  const seen = count(facts.entries_scanned, 'entry', 'entries');
  if (facts.entry_limit_reached) return `the walk reached its entry limit after ${seen}`;
  if (facts.timed_out) return `the walk reached its time limit after ${seen}`;
  return `the walk stopped after ${seen}`;
}

/**
 * Ranks one walk's entries for the arguments and builds the result: one path per line under the
 * 64 KiB cap, then `[...]` notes that say what was left out and how to get it.
 */
export function searchWalk(walk: WalkResult, args: FindArgs, cache: FindIndexCache, where: string, signal?: AbortSignal): ToolResult {
  const limit = Math.min(args.limit, MAX_LIMIT);
  const kind: FindKind = args.kind;
  const { index } = cache.get(walk, walk.files, walk.dirs);
  const page = rankPage(index, parseQuery(args.query), kind, args.offset, limit, signal);
  const facts = walk.facts;
  const complete = facts.scan_complete;

  const lines: string[] = [];
  let bytes = 0;
  for (const p of page.paths) {
    const size = Buffer.byteLength(p, 'utf8') + 1;
    if (bytes + size > FIND_OUTPUT_CAP - 1024) break;
    lines.push(p);
    bytes += size;
  }
  const shown = lines.length;
  const capCut = shown < page.paths.length;
  const hasMore = args.offset + shown < page.total;

  const what = kind === 'files' ? 'files' : kind === 'directories' ? 'directories' : 'paths';
  const notes: string[] = [];
  if (args.limit > MAX_LIMIT) notes.push(`[limit ${args.limit} capped at ${MAX_LIMIT}]`);
  if (page.total === 0) {
    notes.push(`[no ${what} match "${args.query}" in ${where}; try fewer or other letters${kind === 'files' ? ', kind "mixed" for folders' : ''}, or grep to search contents]`);
  } else if (args.offset >= page.total) {
    notes.push(`[offset ${args.offset} is past the last of ${count(page.total, 'match', 'matches')}${complete ? '' : ' seen'}; use a smaller offset]`);
  } else if (capCut) {
    notes.push(`[output cap of 64 KiB reached after ${shown} paths; use offset=${args.offset + shown} for more]`);
  } else if (complete && hasMore) {
    notes.push(`[showing ${args.offset + 1}-${args.offset + shown} of ${page.total.toLocaleString('en-US')} matches; use offset=${args.offset + shown} for more]`);
  }
  if (!complete) {
    notes.push(`[partial scan: ${stopReason(facts)}, so only the matches among the entries seen are ranked and total_matched (${page.total}) is a lower bound; paging does not scan further. Narrow path to a smaller folder.]`);
  }
  if (facts.walk_errors > 0) notes.push(`[${count(facts.walk_errors, 'entry', 'entries')} could not be read (permission denied or vanished); their contents are not searched]`);
  for (const warning of walk.warnings) notes.push(`[${warning}]`);

  const metadata: ToolMetadata = {
    path: where,
    kind,
    returned: shown,
    total_matched: page.total,
    total_matched_exact: complete,
    // On a complete scan truncated says the same as has_more: more matches exist than this page shows.
    truncated: complete ? hasMore : true,
    has_more: complete ? hasMore : null,
    scan_complete: complete,
    index_ready: complete,
    entries_scanned: facts.entries_scanned,
    entry_limit_reached: facts.entry_limit_reached,
    timed_out: facts.timed_out,
    walk_errors: facts.walk_errors,
    walk_entries_omitted: facts.walk_entries_omitted,
  };
  if (args.limit > MAX_LIMIT) metadata.limit_capped = true;
  if (walk.warnings.length > 0) metadata.walk_warnings = walk.warnings;
  return success([...lines, ...notes].join('\n'), metadata);
}

/** The folder to search: the root, or `path` after the containment rules, which must be an existing directory. */
async function searchDir(args: FindArgs, ctx: ToolContext): Promise<{ dir: string; display: string }> {
  if (args.path === undefined) return { dir: ctx.runtime.root, display: '.' };
  const resolved = await ctx.runtime.resolve('find', args.path, 'directory');
  const stat = await fsp.stat(resolved.canonical).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') {
      throw new ToolError(`find: ${resolved.display} does not exist; give an existing folder, or omit path to search the whole workspace.`, 'not_found');
    }
    throw new ToolError(`find: ${resolved.display} cannot be read: ${err.code ?? err.message}.`, 'io');
  });
  if (!stat.isDirectory()) {
    throw new ToolError(`find: ${resolved.display} is a file, not a folder; path must be a folder to search in (omit it to search the whole workspace).`);
  }
  return { dir: resolved.canonical, display: resolved.display };
}

export const findTool = defineTool({
  name: 'find',
  aliases: ['fffind'],
  description: FIND_DESCRIPTION,
  mutates: false,
  input,
  async execute(args, ctx): Promise<ToolResult> {
    const { dir, display } = await searchDir(args, ctx);
    const walk = await ctx.runtime.walk(dir, ctx.signal);
    ctx.signal.throwIfAborted();
    return searchWalk(walk, args, findIndexCache(ctx.runtime), display, ctx.signal);
  },
});
