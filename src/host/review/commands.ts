import * as vscode from 'vscode';
import type { Command } from '../commands';
import type { EditHistory, RevertOutcome } from './editHistory';
import type { VsCodeEditReview } from './editReview';

/**
 * `magi.acceptEdit` and `magi.rejectEdit` decide the edit under review (true when one was open);
 * `magi.revertEdit [id]` restores the newest applied edit of review mode `after`, or the one with
 * that id, and resolves to what happened (also shown to the person).
 */
export function reviewCommands(review: VsCodeEditReview, history: EditHistory): Command[] {
  const decide = (decision: 'accept' | 'reject') => (): boolean => {
    if (review.decide(decision)) return true;
    void vscode.window.showInformationMessage('Magi: no edit is waiting for review.');
    return false;
  };
  return [
    { id: 'magi.acceptEdit', execute: decide('accept') },
    { id: 'magi.rejectEdit', execute: decide('reject') },
    {
      id: 'magi.revertEdit',
      execute: async (id?: unknown): Promise<RevertOutcome> => {
        const outcome = await history.revert(typeof id === 'number' ? id : undefined);
        const message = `Magi: ${outcome.message}`;
        void (outcome.reverted ? vscode.window.showInformationMessage(message) : vscode.window.showWarningMessage(message));
        return outcome;
      },
    },
  ];
}
