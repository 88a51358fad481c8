import { promises as fsp } from 'node:fs';
import { z } from 'zod';
import { defineTool, type ToolContext } from '../definition';
import { ToolError, messageOf } from '../errors';
import { failure, success, type ToolResult } from '../result';
import { MAX_FILE_BYTES, contentTag, decodeUtf8, parseText } from '../textDoc';
import { READ_DESCRIPTION } from './description';
import { MAX_READ_LINES, parseReadTarget, resolveWindow, type ReadTarget } from './selectors';
import { OutputBudget } from './budget';

const MAX_TARGETS = 8;

const pathsSchema = z.array(z.string()).min(1).max(MAX_TARGETS);

const input = z.strictObject({
  paths: pathsSchema.optional(),
  /** Older single-file form, accepted only when a session is replayed. */
  path: z.string().optional(),
  /** Older revision's window, for replay and scripts; not offered to providers. */
  offset: z.number().int().min(1).optional(),
  limit: z.number().int().min(1).max(MAX_READ_LINES).optional(),
});

type ReadArgs = z.output<typeof input>;

/** The requested targets, after the rules on `paths` and legacy `path`. */
function targetsOf(args: ReadArgs, replay: boolean): string[] {
  if (args.paths !== undefined && args.path !== undefined) {
    throw new ToolError('read: give either `paths` or the legacy `path`, not both; use {"paths": [...]}.');
  }
  if (args.path !== undefined && !replay) {
    throw new ToolError('read: the single `path` field is only accepted when replaying an old session; use {"paths": ["' + args.path + '"]}.');
  }
  const targets = args.paths ?? (args.path !== undefined ? [args.path] : undefined);
  if (targets === undefined) throw new ToolError('read: `paths` is required: {"paths": ["README.md"]}.');
  const blank = targets.findIndex((t) => t.trim() === '');
  if (blank !== -1) throw new ToolError(`read: paths[${blank}] is empty or blank; give a file path.`);
  return targets;
}

/** What one rendered section showed: its tag and the lines from `start` to `shownEnd`. */
interface Shown {
  tag: string;
  start: number;
  shownEnd: number;
  /** The window asked for more than the per-call line limit. */
  cut: boolean;
}

/** Adds `text` to the output as one section, hashline (or raw) within the target's window, with the notes that say how to read on. */
function renderSection(text: string, display: string, parsed: ReadTarget, args: ReadArgs, budget: OutputBudget): Shown {
  const doc = parseText(text);
  const { start, end, cut, implied } = resolveWindow(parsed.window, doc.lines.length, display, args.offset, args.limit);
  const tag = contentTag(text);

  if (!parsed.raw) budget.add(`[${display}#${tag}]`);
  let shownEnd = start - 1;
  for (let n = start; n <= end; n++) {
    const line = doc.lines[n - 1] ?? '';
    if (!budget.add(parsed.raw ? line : `${n}:${line}`)) break;
    shownEnd = n;
  }
  if (budget.exhausted) {
    budget.note(`[output cut by the 1 MiB cap after line ${shownEnd} of ${display}; read ${display}:${shownEnd + 1}-${end} separately]`);
  } else if ((cut || implied) && shownEnd < doc.lines.length) {
    const more = cut ? `at most ${MAX_READ_LINES} lines per call` : `${doc.lines.length} lines in all`;
    budget.note(`[showing lines ${start}-${shownEnd} of ${doc.lines.length} (${more}); read ${display}:${shownEnd + 1}-${Math.min(shownEnd + MAX_READ_LINES, doc.lines.length)} for more]`);
  }
  return { tag, start, shownEnd, cut };
}

/**
 * A `skill://` target, read through the session's skills. It looks like a file section but records
 * no snapshot: skill files are instructions to follow, not files hash_edit may change.
 */
async function readSkill(parsed: ReadTarget, args: ReadArgs, ctx: ToolContext, budget: OutputBudget): Promise<{ display: string; cut: boolean }> {
  const skills = ctx.runtime.skills;
  if (skills === undefined) {
    throw new ToolError(`read: ${parsed.path}: skills are not available in this session; read the skill's files by their local paths instead.`, 'not_found');
  }
  const { display, text } = await skills.read(parsed.path, ctx.signal);
  return { display, cut: renderSection(text, display, parsed, args, budget).cut };
}

/** One target's section: hashline (or raw) text, or the reason it failed. */
async function readTarget(target: string, args: ReadArgs, ctx: ToolContext, budget: OutputBudget): Promise<{ display: string; cut: boolean }> {
  const parsed = parseReadTarget(target);
  if (/^https?:\/\//i.test(parsed.path)) {
    throw new ToolError(`read: ${parsed.path} is a URL, not a file; use web with {"operation": "open", "url": "${parsed.path}"}.`);
  }
  if (/^skill:\/\//i.test(parsed.path)) return readSkill(parsed, args, ctx, budget);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(parsed.path)) {
    throw new ToolError(`read: ${parsed.path} uses an unsupported scheme; read takes local file paths and skill://<name> targets.`);
  }
  const { runtime, signal } = ctx;
  const resolved = await runtime.resolve('read', parsed.path, 'read');
  const stat = await fsp.stat(resolved.absolute).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') throw new ToolError(`read: ${resolved.display} does not exist; use find to locate the file.`, 'not_found');
    throw err;
  });
  if (stat.isDirectory()) throw new ToolError(`read: ${resolved.display} is a directory; use list_files or find to see its contents.`);
  if (!stat.isFile()) throw new ToolError(`read: ${resolved.display} is not a regular file.`);
  if (stat.size > MAX_FILE_BYTES) {
    throw new ToolError(`read: ${resolved.display} is ${stat.size} bytes, over the 1 MiB read cap; use grep to find the part you need, or bash with head/sed.`, 'too_large');
  }
  const bytes = await runtime.files.readFile(resolved.absolute, signal);
  if (bytes.byteLength > MAX_FILE_BYTES) {
    throw new ToolError(`read: ${resolved.display} is ${bytes.byteLength} bytes, over the 1 MiB read cap.`, 'too_large');
  }
  const text = decodeUtf8(bytes, resolved.display);
  const shown = renderSection(text, resolved.display, parsed, args, budget);
  if (!parsed.raw) {
    const visible = Array.from({ length: Math.max(0, shown.shownEnd - shown.start + 1) }, (_, i) => shown.start + i);
    runtime.snapshots.record(resolved.canonical, shown.tag, text, visible);
  }
  return { display: resolved.display, cut: shown.cut };
}

export const readTool = defineTool({
  name: 'read',
  aliases: [],
  description: READ_DESCRIPTION,
  mutates: false,
  input,
  providerInput: z.strictObject({ paths: z.array(z.string().min(1)).min(1).max(MAX_TARGETS).describe('1 to 8 file paths or skill://<name>[/<reference>] targets, each with optional selectors such as :1-200 or :raw') }),
  async execute(args, ctx): Promise<ToolResult> {
    const targets = targetsOf(args, ctx.replay);
    const budget = new OutputBudget(MAX_FILE_BYTES);
    const multi = targets.length > 1;
    const paths: string[] = [];
    let failed = 0;
    let lastError = '';
    let linesCut = false;
    for (const target of targets) {
      ctx.signal.throwIfAborted();
      if (budget.exhausted) {
        budget.note(`[${target} not read: the 1 MiB output cap was reached; read it separately]`);
        continue;
      }
      if (multi) budget.add(`--- FILE: ${target} ---`);
      try {
        const section = await readTarget(target, args, ctx, budget);
        paths.push(section.display);
        linesCut ||= section.cut;
      } catch (err) {
        if (!(err instanceof ToolError) || !multi) throw err instanceof ToolError ? err : new ToolError(`read: ${target}: ${messageOf(err)}`, 'io');
        failed++;
        lastError = err.message;
        budget.add(`ERROR: ${err.message}`);
      }
    }
    const metadata = { paths: targets, files_read: paths.length, files_failed: failed, truncated: budget.truncated || linesCut };
    if (paths.length === 0) return failure(multi ? budget.text() : lastError, metadata);
    return success(budget.text(), metadata);
  },
});
