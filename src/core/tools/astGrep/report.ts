import type { ToolMetadata } from '../result';
import type { SkippedFiles } from './skipped';
import type { Targets } from './targets';

/** What every search or outline call reports about the files it could not cover. */
export interface CoverageFacts {
  targets: Targets;
  skipped: SkippedFiles;
  /** Files left out for another reason (a language the pattern failed for). */
  alsoSkipped?: number;
  maxFiles: number;
  deadlineMs: number;
  /** The deadline passed: during the walk (see walkTimedOut) or between files. */
  deadlineHit: boolean;
  bytesRead: number;
  /** 'searched' or 'outlined', for the notes. */
  verb: string;
}

/** Whether the walk itself ran out of time, so the file list is a prefix and the call is a partial failure. */
export function walkTimedOut(targets: Targets): boolean {
  return targets.walk?.timed_out ?? false;
}

function walkIncomplete(targets: Targets): boolean {
  return targets.walk !== null && !targets.walk.scan_complete;
}

export function isPartial(facts: CoverageFacts): boolean {
  return facts.deadlineHit || facts.skipped.count > 0 || (facts.alsoSkipped ?? 0) > 0 || facts.targets.overLimit > 0 || walkIncomplete(facts.targets);
}

/** The `[skipped …]` and `[partial: …]` notes, in a fixed order. */
export function coverageNotes(facts: CoverageFacts): string[] {
  const notes = facts.skipped.notes();
  const { targets } = facts;
  if (targets.overLimit > 0) notes.push(`[partial: ${targets.overLimit} file(s) past the ${facts.maxFiles}-file limit not ${facts.verb}; narrow path]`);
  if (walkIncomplete(targets) && !walkTimedOut(targets)) notes.push(`[partial: the workspace walk stopped after ${targets.walk?.entries_scanned} entries; narrow path]`);
  if (facts.deadlineHit) notes.push(`[partial: the ${facts.deadlineMs / 1000}-second deadline passed; results so far are shown — narrow path or give language]`);
  return notes;
}

export function coverageMetadata(facts: CoverageFacts): ToolMetadata {
  const { targets, skipped } = facts;
  return {
    files_skipped: skipped.count + (facts.alsoSkipped ?? 0) + targets.overLimit,
    ...(skipped.listed.length > 0 ? { skipped: skipped.listed } : {}),
    other_files: targets.otherTypes,
    bytes_read: facts.bytesRead,
    partial: isPartial(facts),
    ...(targets.walk !== null ? { scan_complete: targets.walk.scan_complete } : {}),
    ...(facts.deadlineHit ? { timed_out: true } : {}),
  };
}
