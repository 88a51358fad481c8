import { randomUUID } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { HostMessage, WebviewMessage } from '../../../webview/protocol';
import { ActivityStream } from '../../core/agent/activityStream';
import type { Command } from '../commands';
import { openWorkspaceSession, taskFolder, type WorkspaceSession, type WorkspaceSessionDeps } from '../task/workspaceSession';
import { ActivityFeed } from './activityFeed';
import type { ActivityStore } from './activityStore';
import { parseWebviewMessage } from './messages';
import { listSessions } from './sessions';
import { transcriptRuns } from './transcriptEvents';
import { poster, showBundle } from './webviewSetup';

export const CHAT_VIEW_ID = 'magi.chat';
export const NEW_CHAT_COMMAND = 'magi.newChat';

/** One conversation: its AgentSession opens on the first task and stays for the next ones. */
interface Chat {
  id: string;
  /** The session file to resume on first use (a reopened session), else a new one. */
  resume?: string;
  session?: WorkspaceSession;
  running?: { controller: AbortController; ended: Promise<void> };
}

/**
 * The chat side panel (`magi.chat`): each `send` runs a task in the current chat's AgentSession,
 * so the conversation continues; its activity goes to the store and reaches the view as deltas.
 * The view is not kept alive when hidden: it sends `ready` with its last `n` and catches up.
 */
export class ChatView implements vscode.WebviewViewProvider, vscode.Disposable {
  private chat: Chat = { id: randomUUID() };
  private view: { view: vscode.WebviewView; feed: ActivityFeed; post: (message: HostMessage) => void } | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly store: ActivityStore,
    private readonly deps: WorkspaceSessionDeps,
  ) {}

  register(): vscode.Disposable {
    return vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, this, { webviewOptions: { retainContextWhenHidden: false } });
  }

  /** Whether the view is resolved and visible. */
  get shown(): boolean {
    return this.view?.view.visible ?? false;
  }

  command(): Command {
    return { id: NEW_CHAT_COMMAND, execute: () => this.newChat() };
  }

  resolveWebviewView(view: vscode.WebviewView): void {
    this.view?.feed.dispose();
    showBundle(view.webview, this.extensionUri, 'chat', 'Magi Chat');
    const post = poster(view.webview);
    const feed = new ActivityFeed(this.store, post);
    this.view = { view, feed, post };
    const received = view.webview.onDidReceiveMessage((raw: unknown) => void this.receive(raw));
    const visibility = view.onDidChangeVisibility(() => {
      if (!view.visible) feed.pause();
    });
    view.onDidDispose(() => {
      received.dispose();
      visibility.dispose();
      feed.dispose();
      if (this.view?.view === view) this.view = undefined;
    });
  }

  /** Handles one message from the view; false when it is not a WebviewMessage (ignored). */
  async receive(raw: unknown): Promise<boolean> {
    const message = parseWebviewMessage(raw);
    if (!message) return false;
    try {
      await this.handle(message);
    } catch (err) {
      this.notice('error', err instanceof Error ? err.message : String(err));
    }
    return true;
  }

  /** Ends the current chat (cancelling its task) and starts an empty one. */
  async newChat(resume?: string): Promise<void> {
    await this.endChat();
    this.chat = { id: randomUUID(), ...(resume !== undefined ? { resume } : {}) };
    this.view?.post({ type: 'chat_reset', chatId: this.chat.id });
    await this.postState();
  }

  dispose(): void {
    void this.endChat();
    this.view?.feed.dispose();
  }

  private async handle(message: WebviewMessage): Promise<void> {
    switch (message.type) {
      case 'ready':
        this.view?.feed.ready(message.lastN);
        return this.postState();
      case 'send':
        return this.send(message.text);
      case 'cancel':
        return this.cancel();
      case 'new_chat':
        return this.newChat();
      case 'open_session':
        return this.openSession(message.file);
      case 'open_diff':
      case 'revert':
        // Mission Control's messages; the chat has no detail view.
        return;
      default: {
        const unknown: never = message;
        throw new Error(`unhandled webview message ${JSON.stringify(unknown)}`);
      }
    }
  }

  private async send(text: string): Promise<void> {
    const task = text.trim();
    if (task === '') return;
    const chat = this.chat;
    if (chat.running) {
      this.notice('error', 'A task is already running in this chat: cancel it or wait for it to end.');
      return;
    }
    const controller = new AbortController();
    let markEnded = (): void => {};
    chat.running = { controller, ended: new Promise((resolve) => (markEnded = resolve)) };
    await this.postState();
    try {
      const { session } = await this.sessionOf(chat);
      const result = await session.run(task, controller.signal);
      if (result.outcome === 'failed') this.notice('error', `The task failed${result.error ? `: ${result.error}` : ''}.`);
    } finally {
      chat.running = undefined;
      markEnded();
      await this.postState();
    }
  }

  /** The chat's session, opened on first use with its events going to the store. */
  private async sessionOf(chat: Chat): Promise<WorkspaceSession> {
    if (chat.session) return chat.session;
    const opened = await openWorkspaceSession(this.deps, chat.resume);
    if (this.chat !== chat) {
      // The chat was replaced while its session opened.
      await opened.close();
      throw new Error('This chat was closed before its task started.');
    }
    chat.session = opened;
    opened.session.onActivity((event) => this.store.append(event));
    for (const problem of opened.session.problems) this.notice('info', problem);
    if (chat.resume !== undefined) this.replayTranscript(opened);
    return opened;
  }

  private replayTranscript({ session, provider }: WorkspaceSession): void {
    const runs = transcriptRuns(session.messages, { cwd: taskFolder().uri.fsPath, provider: provider.kind, model: provider.model, sessionFile: session.sessionFile });
    for (const bodies of runs) {
      const stream = new ActivityStream();
      stream.subscribe((event) => this.store.append(event));
      for (const body of bodies) stream.emit('main', body);
    }
  }

  private async cancel(): Promise<void> {
    const running = this.chat.running;
    if (!running) return;
    running.controller.abort();
    await running.ended;
  }

  private async endChat(): Promise<void> {
    const chat = this.chat;
    chat.running?.controller.abort();
    await chat.running?.ended;
    const session = chat.session;
    chat.session = undefined;
    await session?.close();
  }

  /** Reopens a session file of `.magi/sessions` (the only folder the view may name) as the current chat. */
  private async openSession(file: string): Promise<void> {
    const dir = path.join(taskFolder().uri.fsPath, '.magi', 'sessions');
    const resolved = path.resolve(dir, file);
    if (path.dirname(resolved) !== dir || !resolved.endsWith('.jsonl')) {
      this.notice('error', 'Magi reopens only session files directly under .magi/sessions of the workspace.');
      return;
    }
    await this.newChat(resolved);
    // Opened now, so the conversation shows before the next task.
    await this.sessionOf(this.chat);
  }

  private async postState(): Promise<void> {
    if (!this.view) return;
    const folder = vscode.workspace.workspaceFolders?.[0];
    const sessions = folder?.uri.scheme === 'file' ? await listSessions(folder.uri.fsPath) : [];
    this.view?.post({ type: 'chat_state', chatId: this.chat.id, running: this.chat.running !== undefined, sessions });
  }

  private notice(level: 'info' | 'error', message: string): void {
    this.view?.post({ type: 'notice', level, message });
  }
}
