import type { ToolContext } from '../definition';
import { ToolError } from '../errors';
import { OutputBudget } from '../read/budget';
import { failure, success, type ToolResult } from '../result';
import type { LanguageId } from './languages';
import * as L from './limits';
import { workInOrder, type WorkProgress } from './engine';
import type { Job } from './protocol';
import type { ParsePool } from './workers';
import { compilePattern, PatternError, type CompiledPattern } from './pattern';
import { coverageMetadata, coverageNotes, isPartial, walkTimedOut, type CoverageFacts } from './report';
import { SkippedFiles, TrackedReader } from './skipped';
import { Checkpoint, collectTargets, type TargetFile } from './targets';

export interface SearchRequest {
  pattern: string;
  rewrite: string | undefined;
  path: string | undefined;
  language: LanguageId | undefined;
  limit: number;
  /** Knobs for tests and benchmarks; the tool uses the seed's limits. */
  deadlineMs?: number;
  maxFiles?: number;
  pool?: ParsePool;
}

/** Patterns compiled per language on first need; a language whose compile fails is remembered. */
class PatternCache {
  private readonly compiled = new Map<LanguageId, CompiledPattern | PatternError>();

  constructor(private readonly pattern: string) {}

  get(language: LanguageId): CompiledPattern | PatternError {
    let entry = this.compiled.get(language);
    if (entry === undefined) {
      try {
        entry = compilePattern(this.pattern, language);
      } catch (err) {
        if (!(err instanceof PatternError)) throw err;
        entry = err;
      }
      this.compiled.set(language, entry);
    }
    return entry;
  }

  failures(): PatternError[] {
    return [...this.compiled.values()].filter((e): e is PatternError => e instanceof PatternError);
  }
}

/**
 * `ast_grep` search: every file of the target in path order, each read whole and checked against
 * the tree limits, then parsed and matched by the parse workers; rows collected until `limit` lines. Files are
 * never written, also with `rewrite`.
 */
export async function runSearch(request: SearchRequest, ctx: ToolContext): Promise<ToolResult> {
  const deadlineMs = request.deadlineMs ?? L.DEADLINE_MS;
  const maxFiles = request.maxFiles ?? L.MAX_FILES;
  const checkpoint = new Checkpoint(ctx.signal, Date.now() + deadlineMs);
  const patterns = new PatternCache(request.pattern);
  if (request.language !== undefined) {
    const compiled = patterns.get(request.language);
    if (compiled instanceof PatternError) throw new ToolError(`ast_grep: ${compiled.message}`);
  }
  const targets = await collectTargets({ tool: 'ast_grep', path: request.path, language: request.language, maxFiles, deadline: checkpoint.deadline }, ctx);
  const skipped = new SkippedFiles();
  const reader = new TrackedReader(skipped);
  const rows: string[] = [];
  let matches = 0;
  let filesParsed = 0;
  let filesWithMatches = 0;
  let moreRows = false;
  let patternSkipped = 0;
  let oversizedReplacements = 0;

  const progress: WorkProgress = { deadlineHit: walkTimedOut(targets) };
  const prepare = (file: TargetFile): string | undefined => {
    const compiled = patterns.get(file.language);
    if (compiled instanceof PatternError) {
      patternSkipped++;
      return undefined;
    }
    return reader.readParsable(file, compiled.mayMatch);
  };
  const job: Job = { kind: 'search', pattern: request.pattern, rewrite: request.rewrite, maxRows: request.limit + 1 };
  for await (const { work } of workInOrder(targets.files, { prepare, checkpoint, job, pool: request.pool }, progress)) {
    if (work.kind !== 'search') continue;
    filesParsed++;
    if (work.matches.length === 0) continue;
    filesWithMatches++;
    for (const produced of work.matches) {
      if (produced === null) {
        oversizedReplacements++;
        continue;
      }
      matches++;
      for (const row of produced) {
        if (rows.length === request.limit) {
          moreRows = true;
          break;
        }
        rows.push(row);
      }
      if (moreRows) break;
    }
    if (moreRows) break;
  }
  const deadlineHit = progress.deadlineHit;

  const budget = new OutputBudget(L.OUTPUT_CAP);
  for (const row of rows) if (!budget.add(row)) break;
  const failures = patterns.failures();
  const truncated = moreRows || budget.truncated;
  const coverage: CoverageFacts = {
    targets, skipped, alsoSkipped: patternSkipped, maxFiles, deadlineMs, deadlineHit, bytesRead: reader.bytesRead, verb: 'searched',
  };
  if (rows.length === 0 && !deadlineHit) budget.note(`No matches for the pattern in ${filesParsed} parsed file(s) of ${targets.files.length} candidate(s).`);
  if (moreRows) budget.note(`[truncated: the limit of ${request.limit} lines was reached; narrow path or pattern, or raise limit (at most ${L.MAX_LIMIT})]`);
  else if (budget.truncated) budget.note(`[truncated: output reached the ${L.OUTPUT_CAP}-byte cap; narrow path or pattern]`);
  if (request.rewrite !== undefined && truncated) budget.note('[a preview may be cut short: do not apply it as a patch]');
  for (const failed of failures) budget.note(`[partial: ${countOf(targets.files, failed.language)} ${failed.language} file(s) not searched: ${failed.message} Give "language" to check the pattern strictly.]`);
  if (oversizedReplacements > 0) budget.note(`[partial: ${oversizedReplacements} preview(s) left out: the replacement would exceed ${L.MAX_REPLACEMENT_BYTES} bytes]`);
  for (const note of coverageNotes(coverage)) budget.note(note);

  const metadata = {
    operation: 'search',
    matches,
    lines: rows.length,
    files: targets.files.length,
    files_parsed: filesParsed,
    files_with_matches: filesWithMatches,
    ...coverageMetadata(coverage),
    partial: isPartial(coverage) || failures.length > 0 || oversizedReplacements > 0,
    truncated,
    ...(request.rewrite !== undefined ? { rewrite_preview: true } : {}),
    ...(failures.length > 0 ? { pattern_failed_languages: failures.map((f) => f.language) } : {}),
  };
  return deadlineHit ? failure(budget.text(), metadata) : success(budget.text(), metadata);
}

function countOf(files: readonly TargetFile[], language: LanguageId): number {
  return files.filter((f) => f.language === language).length;
}
