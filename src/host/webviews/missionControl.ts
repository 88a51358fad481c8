import * as vscode from 'vscode';
import type { WebviewMessage } from '../../../webview/protocol';
import type { Command } from '../commands';
import type { EditHistory, RevertOutcome } from '../review/editHistory';
import { ActivityFeed } from './activityFeed';
import type { ActivityStore } from './activityStore';
import { diffDocument, editIdForCall, type ToolEndEvent } from './callEdits';
import { parseWebviewMessage } from './messages';
import { poster, showBundle } from './webviewSetup';

export const OPEN_MISSION_CONTROL_COMMAND = 'magi.openMissionControl';
export const MISSION_CONTROL_TITLE = 'Mission Control';
const VIEW_TYPE = 'magi.missionControl';

/**
 * Mission Control: one webview panel (revealed when already open) that shows every tool call of
 * every task from the activity store. Open Diff shows a call's unified diff (display only) as an
 * untitled `diff` document; Revert runs `magi.revertEdit` for the call's applied edit when review
 * mode `after` recorded it, and otherwise says why it cannot.
 */
export class MissionControl implements vscode.Disposable {
  private panel: { panel: vscode.WebviewPanel; feed: ActivityFeed; post: ReturnType<typeof poster> } | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly store: ActivityStore,
    private readonly history: EditHistory,
  ) {}

  command(): Command {
    return { id: OPEN_MISSION_CONTROL_COMMAND, execute: () => this.open() };
  }

  open(): void {
    if (this.panel) {
      this.panel.panel.reveal();
      return;
    }
    const panel = vscode.window.createWebviewPanel(VIEW_TYPE, MISSION_CONTROL_TITLE, vscode.ViewColumn.Active, { retainContextWhenHidden: false });
    showBundle(panel.webview, this.extensionUri, 'missionControl', MISSION_CONTROL_TITLE);
    const post = poster(panel.webview);
    const feed = new ActivityFeed(this.store, post);
    this.panel = { panel, feed, post };
    const received = panel.webview.onDidReceiveMessage((raw: unknown) => void this.receive(raw));
    // Hidden, the panel's document is gone; its script sends `ready` again when it is shown.
    const visibility = panel.onDidChangeViewState(() => {
      if (!panel.visible) feed.pause();
    });
    panel.onDidDispose(() => {
      received.dispose();
      visibility.dispose();
      feed.dispose();
      this.panel = undefined;
    });
  }

  /** Handles one message from the panel; false when it is not a WebviewMessage (ignored). */
  async receive(raw: unknown): Promise<boolean> {
    const message = parseWebviewMessage(raw);
    if (!message) return false;
    await this.handle(message);
    return true;
  }

  dispose(): void {
    this.panel?.panel.dispose();
  }

  private async handle(message: WebviewMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.panel?.feed.ready(message.lastN);
        return;
      case 'open_diff':
        return this.openDiff(message.runId, message.callId);
      case 'revert':
        return this.revert(message.runId, message.callId);
      case 'send':
      case 'cancel':
      case 'new_chat':
      case 'open_session':
        // The chat's messages; Mission Control has no chat.
        return;
      default: {
        const unknown: never = message;
        throw new Error(`unhandled webview message ${JSON.stringify(unknown)}`);
      }
    }
  }

  private call(runId: string, callId: string): ToolEndEvent | undefined {
    const event = this.store.findLast((e) => e.type === 'tool_end' && e.runId === runId && e.callId === callId);
    return event?.type === 'tool_end' ? event : undefined;
  }

  private async openDiff(runId: string, callId: string): Promise<void> {
    const call = this.call(runId, callId);
    const text = call && diffDocument(call);
    if (!text) {
      this.notice('info', 'This call has no diff to show (only a successful hash_edit has one, and only while its activity is kept).');
      return;
    }
    const document = await vscode.workspace.openTextDocument({ language: 'diff', content: text });
    await vscode.window.showTextDocument(document, { preview: true, viewColumn: vscode.ViewColumn.Beside });
  }

  private async revert(runId: string, callId: string): Promise<void> {
    const call = this.call(runId, callId);
    const id = call && editIdForCall(call, this.history.list());
    if (id === undefined) {
      this.notice('info', 'Magi can revert only an edit applied with magi.edits.review set to "after", among the last 50, and not yet reverted.');
      return;
    }
    const outcome = await vscode.commands.executeCommand<RevertOutcome>('magi.revertEdit', id);
    this.notice(outcome.reverted ? 'info' : 'error', outcome.message);
  }

  private notice(level: 'info' | 'error', message: string): void {
    this.panel?.post({ type: 'notice', level, message });
  }
}
