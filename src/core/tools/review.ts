/**
 * How the person reviews a proposed `write` or `hash_edit` before it is applied (setting
 * `magi.edits.review`: `before`). The tools have validated everything and hold the files' locks
 * when they ask; on `reject` nothing is written and the model is told "rejected by the user".
 * Without a reviewer (CLI, tests, review `after`/`off`) edits apply at once.
 */
export interface ProposedFile {
  /** Absolute path. */
  path: string;
  /** The path as the tool shows it. */
  display: string;
  /** The current text (an editor's unsaved text when there is one); null for a file `write` creates. */
  before: string | null;
  /** The text the edit would leave; null when the edit removes the file (`REM`). */
  after: string | null;
  /** Where the file would move to (`MV`), absolute. */
  movedTo?: string;
}

export interface EditProposal {
  tool: 'write' | 'hash_edit';
  files: ProposedFile[];
}

export type ReviewDecision = 'accept' | 'reject';

export interface EditReview {
  /** Resolves when the person decides; `reject` when `signal` aborts first. */
  review(proposal: EditProposal, signal: AbortSignal): Promise<ReviewDecision>;
}

/** The result text of a rejected proposal, as the issue names it. */
export const REJECTED_BY_USER = 'rejected by the user';
