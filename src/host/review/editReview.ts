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
    let failed = (_err: unknown): void => {};
    const decision = new Promise<ReviewDecision>((resolve, reject) => {
      this.pending = { id, decide: resolve };
      failed = reject;
      onAbort = () => resolve('reject');
      signal.addEventListener('abort', onAbort, { once: true });
      if (signal.aborted) onAbort();
    });
    // Closing every diff of the review without deciding is a rejection: the tool must not wait on a review nobody can see.
    const proposed = new Set(diffs.map((diff) => diff.right.toString()));
    let shown = false;
    const closing = vscode.window.tabGroups.onDidChangeTabs(() => {
      if (openTabs().some((tab) => showsAny(tab, proposed))) shown = true;
      else if (shown) this.decide('reject');
    });
    // The decision does not wait for the diffs to finish opening: `vscode.diff` may never settle when its tab is closed while it opens.
    const opening = (async () => {
      await vscode.commands.executeCommand('setContext', REVIEW_PENDING_KEY, true);
      for (const diff of diffs) {
        if (this.pending?.id !== id) return;
        await vscode.commands.executeCommand('vscode.diff', diff.left, diff.right, diff.title, { preview: false });
      }
    })();
    opening.catch(failed);
    try {
      return await decision;
    } finally {
      closing.dispose();
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

function openTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((group) => group.tabs);
}

/** Whether the tab is a diff whose right side is one of these proposed documents. */
function showsAny(tab: vscode.Tab, proposed: ReadonlySet<string>): boolean {
  return tab.input instanceof vscode.TabInputTextDiff && proposed.has(tab.input.modified.toString());
}

/** Closes the diff tabs showing any of these proposed documents. */
async function closeDiffs(uris: readonly vscode.Uri[]): Promise<void> {
  const shown = new Set(uris.map((uri) => uri.toString()));
  const tabs = openTabs().filter((tab) => showsAny(tab, shown));
  if (tabs.length > 0) await vscode.window.tabGroups.close(tabs);
}
