import { promises as fsp } from 'node:fs';
import { z } from 'zod';
import type { WalkResult } from '../../workspace/types';
import { defineTool, type ToolContext, type ToolDefinition } from '../definition';
import { ToolError } from '../errors';
import { OutputBudget } from '../read/budget';
import { success, type ToolResult } from '../result';
import { GREP_DESCRIPTION } from './description';
import { runSearch, type SearchOutcome } from './engine';
import { candidatesOf, singleFile, type Candidates } from './files';
import { writePage } from './format';
import * as L from './limits';
import { grepMetadata, grepNotes } from './metadata';
import { compilePattern } from './patterns';
import { sharedWorkerPool, type GrepWorkerPool } from './workers';

const patternSchema = z
  .string()
  .min(1, 'must not be empty; give a regex or literal text to search for')
  .max(L.MAX_PATTERN_CHARS, `must be at most ${L.MAX_PATTERN_CHARS} characters; search for a shorter distinctive part`);

const fields = {
  patterns: z.array(patternSchema).min(1).max(L.MAX_PATTERNS).describe(`1 to ${L.MAX_PATTERNS} case-sensitive regexes (JavaScript syntax), OR semantics, matched per line`),
  path: z.string().optional().describe('File or folder to search; default the workspace root'),
  mode: z.enum(['ranked', 'raw']).default('ranked').describe('ranked (default): grouped by file, best files first, labelled; raw: flat path:line:text rows in path order'),
  limit: z.number().int().min(1).max(L.MAX_LIMIT).default(L.DEFAULT_LIMIT).describe(`Primary matching lines per page, default ${L.DEFAULT_LIMIT}, at most ${L.MAX_LIMIT}`),
  offset: z.number().int().min(0).default(0).describe('Primary matching lines to skip, for paging'),
  context: z.number().int().min(0).max(L.MAX_CONTEXT).default(L.DEFAULT_CONTEXT).describe(`Lines of context before and after each primary line, 0 to ${L.MAX_CONTEXT}`),
};

const input = z.strictObject({
  ...fields,
  patterns: fields.patterns.optional(),
  /** The older seed's single pattern, accepted only when a session is replayed. */
  pattern: patternSchema.optional(),
});

export type GrepArgs = z.output<typeof input>;

/** Knobs for tests and benchmarks; the tool registered for providers uses the defaults (the seed's limits). */
export interface GrepToolOptions {
  deadlineMs?: number;
  maxFiles?: number;
  /** The walk's entry limit (default the walker's 100,000). */
  walkMaxEntries?: number;
  callReadCap?: number;
  pool?: () => GrepWorkerPool;
}

function patternsOf(args: GrepArgs, replay: boolean): string[] {
  if (args.patterns !== undefined && args.pattern !== undefined) {
    throw new ToolError('grep: give either `patterns` or the legacy `pattern`, not both; use {"patterns": [...]}.');
  }
  if (args.pattern !== undefined && !replay) {
    throw new ToolError(`grep: the single \`pattern\` field is only accepted when replaying an old session; use {"patterns": [${JSON.stringify(args.pattern)}]}.`);
  }
  const patterns = args.patterns ?? (args.pattern !== undefined ? [args.pattern] : undefined);
  if (patterns === undefined) throw new ToolError('grep: `patterns` is required: {"patterns": ["fn run"]}.');
  return patterns;
}

interface Target {
  display: string;
  candidates: Candidates;
  walk: WalkResult | null;
}

/** What to search: the walk of a folder, or one file (followed if a symlink, as ripgrep follows the paths it is given). */
async function targetOf(args: GrepArgs, ctx: ToolContext, options: GrepToolOptions, deadline: number): Promise<Target> {
  const { runtime } = ctx;
  let dir = runtime.root;
  let display = '.';
  if (args.path !== undefined) {
    const resolved = await runtime.resolve('grep', args.path, 'read');
    const stat = await fsp.stat(resolved.canonical).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') {
        throw new ToolError(`grep: ${resolved.display} does not exist; give an existing file or folder, or omit path to search the whole workspace.`, 'not_found');
      }
      throw new ToolError(`grep: ${resolved.display} cannot be read: ${err.code ?? err.message}.`, 'io');
    });
    if (stat.isFile()) {
      return { display: resolved.display, candidates: singleFile(resolved.canonical, resolved.display), walk: null };
    }
    if (!stat.isDirectory()) throw new ToolError(`grep: ${resolved.display} is not a regular file or folder (a FIFO, socket or device); it is never read.`);
    dir = resolved.canonical;
    display = resolved.display;
  }
  const walk = await runtime.walk(dir, ctx.signal, { timeoutMs: Math.max(0, deadline - Date.now()), maxEntries: options.walkMaxEntries });
  return { display, candidates: candidatesOf(walk, dir, options.maxFiles ?? L.MAX_FILES), walk };
}

/** Builds the grep tool; `grepTool` is the one with the seed's limits. */
export function createGrepTool(options: GrepToolOptions = {}): ToolDefinition<typeof input> {
  const deadlineMs = options.deadlineMs ?? L.DEADLINE_MS;
  const pool = options.pool ?? sharedWorkerPool;
  return defineTool({
    name: 'grep',
    aliases: ['ffgrep'],
    description: GREP_DESCRIPTION,
    mutates: false,
    input,
    providerInput: z.strictObject(fields),
    async execute(args, ctx): Promise<ToolResult> {
      const started = Date.now();
      const patterns = patternsOf(args, ctx.replay).map(compilePattern);
      // Workers start (on a first call) while the main thread walks.
      const workers = pool();
      workers.warm();
      const target = await targetOf(args, ctx, options, started + deadlineMs);
      ctx.signal.throwIfAborted();
      const raw = args.mode === 'raw';
      const outcome: SearchOutcome = await runSearch({
        files: target.candidates.paths,
        strategy: raw && args.offset + args.limit <= 64 ? 'sequential' : 'parallel',
        pool: workers,
        deadline: started + deadlineMs,
        signal: ctx.signal,
        config: {
          base: target.candidates.base,
          patterns,
          mode: args.mode,
          context: args.context,
          need: args.offset + args.limit + 1,
          keepFiles: args.offset + args.limit,
          hitsPerFile: L.RANKED_HITS_PER_FILE,
          fileReadCap: L.FILE_READ_CAP,
          maxLineChars: L.MAX_LINE_CHARS,
          callReadCap: options.callReadCap ?? L.CALL_READ_CAP,
        },
      });
      ctx.signal.throwIfAborted();
      const budget = new OutputBudget(L.OUTPUT_CAP);
      const pathOf = (index: number): string => target.candidates.display[index] ?? '?';
      const page = writePage({ mode: args.mode, offset: args.offset, limit: args.limit, context: args.context, files: outcome.files, pathOf, budget });
      const facts = { args, patterns, target, outcome, page, pathOf };
      for (const note of grepNotes(facts)) budget.note(note);
      return success(budget.text(), grepMetadata(facts));
    },
  });
}

export const grepTool = createGrepTool();
