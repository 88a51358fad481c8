import type { ToolContext } from '../../definition';
import { OutputBudget } from '../../read/budget';
import { failure, success, type ToolResult } from '../../result';
import type { LanguageId } from '../languages';
import * as L from '../limits';
import { workInOrder, type WorkProgress } from '../engine';
import type { ParsePool } from '../workers';
import { coverageMetadata, coverageNotes, walkTimedOut, type CoverageFacts } from '../report';
import { SkippedFiles, TrackedReader } from '../skipped';
import { Checkpoint, collectTargets } from '../targets';
import { itemOf, selected, type OutlineItems, type OutlineView } from './view';

/** A validated outline call (the lead's argument parsing builds it). */
export interface OutlineRequest {
  path?: string;
  language?: LanguageId;
  items: OutlineItems;
  view: OutlineView;
  /** Tested against each top-level entry's name, signature and first source line. */
  name?: RegExp;
  symbolTypes?: ReadonlySet<string>;
  /** Keep only exported (public) members. */
  pubMembers: boolean;
  /** Top-level entries, members not counted. */
  limit: number;
  /** Knobs for tests and benchmarks; the tool uses the seed's limits. */
  deadlineMs?: number;
  maxFiles?: number;
  pool?: ParsePool;
}

/**
 * `ast_grep` outline: every file of the target in path order, read whole, checked against the
 * tree limits, parsed and outlined by the bundled rules; one JSON line per selected top-level
 * entry until `limit` entries or the output cap, each line kept whole (a parent with its members).
 * A passed deadline ends the call as a partial failure with the entries so far; skipped files make
 * it partial but still successful.
 */
export async function runOutline(request: OutlineRequest, ctx: ToolContext): Promise<ToolResult> {
  const deadlineMs = request.deadlineMs ?? L.DEADLINE_MS;
  const maxFiles = request.maxFiles ?? L.MAX_FILES;
  const checkpoint = new Checkpoint(ctx.signal, Date.now() + deadlineMs);
  const targets = await collectTargets({ tool: 'ast_grep', path: request.path, language: request.language, maxFiles, deadline: checkpoint.deadline }, ctx);
  const skips = new SkippedFiles();
  const reader = new TrackedReader(skips);
  const budget = new OutputBudget(L.OUTPUT_CAP);
  const filter = { items: request.items, name: request.name, symbolTypes: request.symbolTypes };
  let entries = 0;
  let symbolsReturned = 0;
  let filesOutlined = 0;
  let limitHit = false;
  const progress: WorkProgress = { deadlineHit: walkTimedOut(targets) };
  const step = (): boolean => {
    if (!progress.deadlineHit && checkpoint.expired()) progress.deadlineHit = true;
    return !progress.deadlineHit;
  };

  files: for await (const { file, work } of workInOrder(targets.files, { prepare: (file) => reader.readParsable(file), checkpoint, job: { kind: 'outline' }, pool: request.pool }, progress)) {
    if (work.kind !== 'outline' || !step()) break;
    const symbols = work.symbols;
    filesOutlined++;
    for (const symbol of symbols) {
      if (!selected(symbol, filter)) continue;
      if (entries === request.limit) {
        limitHit = true;
        break files;
      }
      if (!step()) break files;
      const item = itemOf(symbol, request.view, request.pubMembers);
      if (!budget.add(JSON.stringify({ path: file.display, language: file.language, item }))) break files;
      entries++;
      symbolsReturned += 1 + (item.members?.length ?? 0);
    }
  }

  const deadlineHit = progress.deadlineHit;
  const truncated = limitHit || budget.truncated;
  const coverage: CoverageFacts = { targets, skipped: skips, maxFiles, deadlineMs, deadlineHit, bytesRead: reader.bytesRead, verb: 'outlined' };
  if (entries === 0 && !deadlineHit && !budget.truncated) {
    budget.note(`No ${request.items === 'structure' ? 'declarations' : request.items} matched in ${filesOutlined} outlined file(s) of ${targets.files.length} candidate(s).`);
  }
  if (limitHit) budget.note(`[truncated: the limit of ${request.limit} entries was reached; narrow path, name or symbol_type, or raise limit (at most ${L.MAX_LIMIT})]`);
  else if (budget.truncated) budget.note(`[truncated: output reached the ${L.OUTPUT_CAP}-byte cap; narrow path, name or symbol_type, or use view "names"]`);
  for (const note of coverageNotes(coverage)) budget.note(note);

  const metadata = {
    operation: 'outline',
    symbols_returned: symbolsReturned,
    entries,
    files: filesOutlined,
    ...coverageMetadata(coverage),
    truncated,
  };
  return deadlineHit ? failure(budget.text(), metadata) : success(budget.text(), metadata);
}
