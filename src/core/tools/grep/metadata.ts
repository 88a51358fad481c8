import type { ToolMetadata } from '../result';
import type { SearchOutcome } from './engine';
import type { Candidates } from './files';
import type { Page } from './format';
import type { GrepArgs } from './index';
import { MAX_LISTED_PATHS } from './limits';
import type { PatternSpec } from './patterns';
import type { WalkResult } from '../../workspace/types';

/** Everything a call learned, for its notes and metadata. */
export interface GrepFacts {
  args: GrepArgs;
  patterns: PatternSpec[];
  target: { display: string; candidates: Candidates; walk: WalkResult | null };
  outcome: SearchOutcome;
  page: Page;
  pathOf: (index: number) => string;
}

const n = (value: number): string => value.toLocaleString('en-US');

/** Why the search did not cover every file it should have, in words; empty when it did. */
function partialReasons(f: GrepFacts): string[] {
  const { outcome, target } = f;
  const facts = target.walk?.facts;
  const reasons: string[] = [];
  if (outcome.timedOut) reasons.push('the 10-second deadline passed (a pattern that backtracks badly, or a very large tree)');
  if (outcome.byteCapReached) reasons.push('the 128 MiB read cap was reached');
  if (target.candidates.total > target.candidates.paths.length) reasons.push(`only the first ${n(target.candidates.paths.length)} of ${n(target.candidates.total)} files (in path order) are searched`);
  if (outcome.workerErrors > 0) reasons.push('a matching worker failed');
  if (facts && !facts.scan_complete) {
    if (facts.entry_limit_reached) reasons.push(`the walk reached its entry limit after ${n(facts.entries_scanned)} entries`);
    else if (facts.timed_out) reasons.push('the walk ran out of time');
    else if (facts.walk_errors > 0) reasons.push(`${n(facts.walk_errors)} folders or entries could not be read`);
  }
  return reasons;
}

/** Whether the searched set stopped short of what was asked (raw mode's early stop does not count). */
function partial(f: GrepFacts): boolean {
  return partialReasons(f).length > 0 || (!f.outcome.enough && f.outcome.searched < f.target.candidates.paths.length);
}

/** true / false, or null when a partial search cannot tell. */
function hasMore(f: GrepFacts): boolean | null {
  // Past what this page shows, whether the limit or the output cap ended it.
  const end = f.args.offset + f.page.returned;
  const available = f.args.mode === 'raw' ? f.page.available : f.outcome.primaryLines;
  if (available > end) return true;
  return partial(f) ? null : false;
}

function truncationReasons(f: GrepFacts): string[] {
  const reasons: string[] = [];
  const facts = f.target.walk?.facts;
  if (hasMore(f) === true) reasons.push('limit');
  if (f.page.perFile.length > 0) reasons.push('per_file');
  if (f.page.outputCut) reasons.push('output_cap');
  if (f.target.candidates.total > f.target.candidates.paths.length) reasons.push('file_limit');
  if (f.outcome.byteCapReached) reasons.push('byte_limit');
  if (f.outcome.stats.prefixOnly > 0) reasons.push('file_prefix');
  if (f.outcome.timedOut || facts?.timed_out) reasons.push('timed_out');
  if (facts && !facts.scan_complete) reasons.push('walk_incomplete');
  if (f.outcome.workerErrors > 0) reasons.push('worker_error');
  return reasons;
}

/** The `[...]` notes after the rows: what was left out and how to get it. */
export function grepNotes(f: GrepFacts): string[] {
  const { args, outcome, page, target } = f;
  // The notes that say how to get the rest come first: the 512-byte reserve left by a cut may not hold them all.
  const notes: string[] = [];
  const shownEnd = args.offset + page.returned;
  const more = hasMore(f);
  const total = args.mode === 'ranked' ? outcome.primaryLines : page.available;
  if (outcome.matchedLines === 0) {
    const list = f.patterns.map((p) => JSON.stringify(p.original)).join(', ');
    notes.push(`[no matches for ${list} in ${target.display}${partial(f) ? ' among the files searched' : ''}]`);
  } else if (page.returned === 0 && !page.outputCut) {
    notes.push(`[offset ${args.offset} is past the last of ${n(total)} primary lines; use a smaller offset]`);
  } else if (page.outputCut) {
    notes.push(`[output cap of 64 KiB reached after ${page.returned} primary lines; use offset=${shownEnd} to continue]`);
  } else if (more === true) {
    const of = args.mode === 'ranked' && !partial(f) ? ` of ${n(total)}` : '';
    notes.push(`[showing primary lines ${args.offset + 1}-${shownEnd}${of}; use offset=${shownEnd} for more]`);
  }
  if (args.mode === 'raw' && outcome.prefixOnly.length > 0) {
    const listed = outcome.prefixOnly.slice(0, 5).map(f.pathOf).join(', ');
    notes.push(`[searched in their first 4 MiB only: ${listed}${outcome.prefixOnly.length > 5 ? ', …' : ''}]`);
  }
  const reasons = partialReasons(f);
  if (reasons.length > 0 || partial(f)) {
    const what = reasons.length ? reasons.join('; ') : 'the search stopped early';
    notes.push(`[partial: ${what}; ${n(outcome.searched)} of ${n(target.candidates.total)} files were searched. Narrow path or the patterns.]`);
  }
  f.patterns.forEach((p, i) => {
    if (p.kind === 'literal') notes.push(`[patterns[${i}] is not a valid regex, so it was matched as literal text]`);
    else if (p.kind === 'repaired') notes.push(`[patterns[${i}] was repaired: ${p.adjustments.slice(0, 3).join('; ')}${p.adjustments.length > 3 ? '; …' : ''}]`);
  });
  return notes;
}

export function grepMetadata(f: GrepFacts): ToolMetadata {
  const { args, outcome, page, target } = f;
  const { stats } = outcome;
  const facts = target.walk?.facts;
  const reasons = truncationReasons(f);
  const more = hasMore(f);
  const complete = !partial(f);
  const metadata: ToolMetadata = {
    path: target.display,
    mode: args.mode,
    format: args.mode === 'ranked' ? 'grouped_v1' : 'raw',
    engine: 'node-worker',
    returned: page.returned,
    total_matched: outcome.matchedLines,
    total_matched_exact: complete && outcome.exact,
    files_matched: outcome.matchedFiles,
    has_more: more,
    truncated: reasons.length > 0,
    scan_complete: complete,
    timed_out: outcome.timedOut || (facts?.timed_out ?? false),
    files_searched: stats.searched,
    bytes_read: outcome.bytesRead,
  };
  // The facts below appear only when they apply, so the visible block stays short.
  const optional: ToolMetadata = {
    next_offset: more === true ? args.offset + page.returned : 0,
    truncation_reasons: reasons,
    files_skipped_binary: stats.binary,
    files_invalid_utf8: stats.invalidUtf8,
    files_skipped_special: stats.special + (target.walk?.specials ?? 0),
    files_skipped_symlink: stats.symlink,
    files_skipped_unreadable: stats.unreadable,
    files_skipped_target: target.candidates.skippedTarget,
    files_not_searched: target.candidates.total - outcome.searched,
    files_prefix_only: stats.prefixOnly,
    prefix_only_paths: outcome.prefixOnly.slice(0, MAX_LISTED_PATHS).map(f.pathOf),
    file_limit_reached: target.candidates.total > target.candidates.paths.length,
    byte_limit_reached: outcome.byteCapReached,
    lines_clipped: stats.clippedLines,
    matcher_adjustments: f.patterns.flatMap((p, i) => p.adjustments.map((a) => `patterns[${i}]: ${a}`)),
    literal_fallback: f.patterns.flatMap((p, i) => (p.kind === 'literal' ? [i] : [])),
    per_file: page.perFile.slice(0, MAX_LISTED_PATHS),
    worker_errors: outcome.workerErrors,
    entries_scanned: facts?.entries_scanned ?? 0,
    entry_limit_reached: facts?.entry_limit_reached ?? false,
    walk_errors: facts?.walk_errors ?? 0,
    walk_entries_omitted: facts?.walk_entries_omitted ?? 0,
  };
  for (const [key, value] of Object.entries(optional)) {
    if (value === 0 || value === false || (Array.isArray(value) && value.length === 0)) continue;
    metadata[key] = value;
  }
  return metadata;
}
