import * as vscode from 'vscode';
import type { EditProposal, EditReview, ProposedFile, ReviewDecision } from '../../core/tools/review';
import type { EditHistory } from './editHistory';
import { PROPOSED_SCHEME, ProposedContent } from './proposedContent';

/** The context key that enables Accept/Reject while a review is open. */
export const REVIEW_PENDING_KEY = 'magi.reviewPending';

export type ReviewMode = 'before' | 'after' | 'off';

/** `magi.edits.review` for the file, read on every proposal so a change applies at once. */
export function reviewModeFor(file: string): ReviewMode {
  const mode = vscode.workspace.getConfiguration('magi', vscode.Uri.file(file)).get<string>('edits.review', 'before');
  return mode === 'after' || mode === 'off' ? mode : 'before';
}

interface Pending {
  id: number;
  decide(decision: ReviewDecision): void;
}

/**
 * The VS Code reviewer of `write` and `hash_edit` proposals. In mode `before` each proposal opens
 * VS Code's diff editor per file — the file (its editor text, or an empty document for a new file)
 * against the proposed text — and waits for Accept or Reject (the editor-title actions, or
 * `magi.acceptEdit`/`magi.rejectEdit`); proposals wait in line so only one review is open at a
 * time, and the diffs close once the person decides. In mode `after` the edit applies at once and
 * is recorded for `magi.revertEdit`; in mode `off` it just applies.
 */
export class VsCodeEditReview implements EditReview, vscode.Disposable {
  private readonly content = new ProposedContent();
  private pending: Pending | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private nextId = 1;

  constructor(private readonly history: EditHistory) {}

  async review(proposal: EditProposal, signal: AbortSignal): Promise<ReviewDecision> {
    const first = proposal.files[0];
    const mode = first ? reviewModeFor(first.path) : 'off';
    if (mode === 'off') return 'accept';
    if (mode === 'after') {
      await this.history.record(proposal, signal);
      return 'accept';
    }
    const turn = this.queue.then(() => (signal.aborted ? 'reject' : this.show(proposal, signal)));
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** Decides the open review; false when none is open. */
  decide(decision: ReviewDecision): boolean {
    if (!this.pending) return false;
    this.pending.decide(decision);
    return true;
  }

  dispose(): void {
    this.pending?.decide('reject');
    this.content.dispose();
  }

  private async show(proposal: EditProposal, signal: AbortSignal): Promise<ReviewDecision> {
    const id = this.nextId++;
    const diffs = proposal.files.map((file) => this.diffOf(file, id));
    const uris = diffs.flatMap((diff) => [diff.left, diff.right]).filter((uri) => uri.scheme === PROPOSED_SCHEME);
    let onAbort = (): void => {};
    const decision = new Promise<ReviewDecision>((resolve) => {
      this.pending = { id, decide: resolve };
      onAbort = () => resolve('reject');
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) onAbort();
    });
    try {
      await vscode.commands.executeCommand('setContext', REVIEW_PENDING_KEY, true);
      for (const diff of diffs) await vscode.commands.executeCommand('vscode.diff', diff.left, diff.right, diff.title, { preview: false });
      return await decision;
    } finally {
      signal.removeEventListener('abort', onAbort);
      this.pending = undefined;
      await vscode.commands.executeCommand('setContext', REVIEW_PENDING_KEY, false);
      await closeDiffs(uris);
      this.content.drop(uris);
    }
  }

  private diffOf(file: ProposedFile, id: number): { left: vscode.Uri; right: vscode.Uri; title: string } {
    const left = file.before === null ? this.content.put(file.path, id, 'before', '') : vscode.Uri.file(file.path);
    const right = this.content.put(file.movedTo ?? file.path, id, 'after', file.after ?? '');
    const what = file.movedTo !== undefined
      ? `${file.display} → ${vscode.workspace.asRelativePath(file.movedTo)} (proposed move)`
      : file.after === null ? `${file.display} (proposed removal)` : `${file.display} (proposed)`;
    return { left, right, title: `Magi: ${what}` };
  }
}

/** Closes the diff tabs showing any of these proposed documents. */
async function closeDiffs(uris: readonly vscode.Uri[]): Promise<void> {
  const shown = new Set(uris.map((uri) => uri.toString()));
  const tabs = vscode.window.tabGroups.all
    .flatMap((group) => group.tabs)
    .filter((tab) => tab.input instanceof vscode.TabInputTextDiff && shown.has(tab.input.modified.toString()));
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
}
