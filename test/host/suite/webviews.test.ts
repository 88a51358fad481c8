import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as vscode from 'vscode';
import type { MagiExports } from '../../../src/extension';
import { listSessions } from '../../../src/host/webviews/sessions';
import { showBundle } from '../../../src/host/webviews/webviewSetup';
import type { ActivityEntry } from '../../../webview/protocol';
import { startScriptedProvider, type ScriptedProvider } from '../../unit/helpers/scriptedProvider';
import { fixture, setMagi, tagOf, waitFor } from '../support/edits';

const EXTENSION_ID = 'magi-code.magi-code';
const SETTINGS = ['provider', 'baseUrl', 'model', 'edits.review'] as const;

function extension(): vscode.Extension<MagiExports> {
  const found = vscode.extensions.getExtension<MagiExports>(EXTENSION_ID);
  assert.ok(found, `${EXTENSION_ID} is loaded`);
  return found;
}

async function magi(): Promise<MagiExports> {
  return extension().activate();
}

function webviewTabs(label: string): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputWebview && t.label === label);
}

/** The entries of one run, by its runId. */
function runEntries(entries: readonly ActivityEntry[], runId: string): ActivityEntry[] {
  return entries.filter((e) => e.event.runId === runId);
}

describe('Magi webviews: the chat view, Mission Control and the activity store', () => {
  let server: ScriptedProvider;

  beforeEach(async () => {
    server = await startScriptedProvider();
    const config = vscode.workspace.getConfiguration('magi');
    await config.update('provider', 'openai', vscode.ConfigurationTarget.Global);
    await config.update('baseUrl', server.baseUrl, vscode.ConfigurationTarget.Global);
    await config.update('model', 'scripted', vscode.ConfigurationTarget.Global);
  });

  afterEach(async () => {
    await (await magi()).chat.newChat();
    for (const key of SETTINGS) await vscode.workspace.getConfiguration('magi').update(key, undefined, vscode.ConfigurationTarget.Global);
    await server.close();
  });

  it('shows the magi.chat view in the Magi container and opens one Mission Control panel', async () => {
    const api = await magi();
    await vscode.commands.executeCommand('magi.chat.focus');
    await waitFor('the chat view to be shown', () => (api.chat.shown ? true : undefined));
    await vscode.commands.executeCommand('magi.openMissionControl');
    await waitFor('the Mission Control tab', () => (webviewTabs('Mission Control').length === 1 ? true : undefined));
    await vscode.commands.executeCommand('magi.openMissionControl');
    assert.equal(webviewTabs('Mission Control').length, 1, 'a second open reveals the same panel');
    await vscode.window.tabGroups.close(webviewTabs('Mission Control'));
    assert.equal(webviewTabs('Mission Control').length, 0);
  });

  it('numbers the events of two Run Tasks without gaps, and after(n) returns exactly the later ones', async () => {
    const { activity } = await magi();
    const before = activity.lastN;
    server.push({ toolCalls: [{ id: 'call_read', name: 'read', arguments: { paths: ['hello.txt'] } }] }, { text: 'It greets.' }, { text: 'Second.' });
    assert.equal(await vscode.commands.executeCommand('magi.runTask', 'read hello.txt'), 'It greets.');
    const middle = activity.lastN;
    assert.equal(await vscode.commands.executeCommand('magi.runTask', 'again'), 'Second.');
    const all = activity.after(before).entries;
    assert.deepEqual(all.map((e) => e.n), Array.from({ length: activity.lastN - before }, (_, i) => before + i + 1));
    const first = all[0]?.event;
    assert.ok(first?.type === 'run_start' && first.task === 'read hello.txt', JSON.stringify(first));
    const run = runEntries(all, first.runId).map((e) => e.event);
    assert.deepEqual(run.map((e) => e.seq), run.map((_, i) => i + 1), 'the run is whole and in order');
    const end = run.find((e) => e.type === 'tool_end');
    assert.ok(end?.type === 'tool_end' && end.tool === 'read' && end.status === 'success' && end.callId === 'call_read');
    assert.equal(run.at(-1)?.type, 'run_end');
    const later = activity.after(middle).entries;
    assert.deepEqual(later, all.filter((e) => e.n > middle));
    assert.ok(later[0]?.event.type === 'run_start' && later[0].event.task === 'again');
  });

  it('runs chat messages in one session, so the second task continues the conversation', async () => {
    const api = await magi();
    await api.chat.newChat();
    server.push({ text: 'Hello from chat.' }, { text: 'Still here.' });
    const before = api.activity.lastN;
    assert.equal(await api.chat.receive({ type: 'send', text: 'hi' }), true);
    assert.equal(await api.chat.receive({ type: 'send', text: 'and again' }), true);
    assert.equal(server.requests.length, 2);
    const users = (server.requests[1]?.body as { messages: { role: string; content?: string }[] }).messages.filter((m) => m.role === 'user').map((m) => m.content);
    assert.deepEqual(users, ['hi', 'and again']);
    const ends = api.activity.after(before).entries.flatMap((e) => (e.event.type === 'run_end' ? [e.event.finalText] : []));
    assert.deepEqual(ends, ['Hello from chat.', 'Still here.']);
  });

  it('reopens an earlier session from .magi/sessions: the next message continues that conversation', async () => {
    const api = await magi();
    await api.chat.newChat();
    server.push({ text: 'First answer.' }, { text: 'Other chat.' }, { text: 'Resumed answer.' });
    const before = api.activity.lastN;
    assert.equal(await api.chat.receive({ type: 'send', text: 'remember the word kiwi' }), true);
    const start = api.activity.after(before).entries.map((e) => e.event).find((e) => e.type === 'run_start');
    const file = start?.type === 'run_start' ? start.sessionFile : null;
    assert.ok(file, 'the chat keeps a session file');
    const listed = await listSessions(fixture(''));
    assert.ok(listed.some((s) => s.file === file && s.title === 'remember the word kiwi'), 'the session is listed with its first task');

    await api.chat.newChat();
    assert.equal(await api.chat.receive({ type: 'send', text: 'unrelated' }), true);
    await api.chat.receive({ type: 'open_session', file });
    assert.equal(await api.chat.receive({ type: 'send', text: 'which word?' }), true);
    const users = (server.requests[2]?.body as { messages: { role: string; content?: string }[] }).messages.filter((m) => m.role === 'user').map((m) => m.content);
    assert.deepEqual(users, ['remember the word kiwi', 'which word?'], 'the reopened conversation, not the other chat');

    // Only session files directly under .magi/sessions can be reopened: anything else changes nothing.
    server.push({ text: 'Still kiwi.' });
    await api.chat.receive({ type: 'open_session', file: fixture('hello.txt') });
    assert.equal(await api.chat.receive({ type: 'send', text: 'still there?' }), true);
    const after = (server.requests[3]?.body as { messages: { role: string; content?: string }[] }).messages.filter((m) => m.role === 'user').map((m) => m.content);
    assert.deepEqual(after, ['remember the word kiwi', 'which word?', 'still there?']);
  });

  it("Mission Control opens a hash_edit call's diff and reverts the call's edit (review mode after)", async () => {
    const api = await magi();
    const rel = 'webviews/mission-edit.txt';
    const original = await fsp.readFile(fixture(rel));
    await setMagi('edits.review', 'after');
    // A tag is accepted once the session's read produced it; the content (so the tag) is the one tagOf read.
    server.push(
      { toolCalls: [{ id: 'call_read', name: 'read', arguments: { paths: [rel] } }] },
      { toolCalls: [{ id: 'call_edit', name: 'hash_edit', arguments: { input: `[${rel}#${await tagOf(rel)}]\nSWAP 2:\n+LINE TWO` } }] },
      { text: 'Edited.' },
    );
    const before = api.activity.lastN;
    assert.equal(await vscode.commands.executeCommand('magi.runTask', 'edit it'), 'Edited.');
    const end = api.activity.after(before).entries.map((e) => e.event).find((e) => e.type === 'tool_end' && e.callId === 'call_edit');
    assert.ok(end?.type === 'tool_end' && end.status === 'success', JSON.stringify(end));
    assert.equal(await fsp.readFile(fixture(rel), 'utf8'), 'line one\nLINE TWO\nline three\n');
    assert.equal(await api.missionControl.receive({ type: 'open_diff', runId: end.runId, callId: 'call_edit' }), true);
    const editor = vscode.window.activeTextEditor;
    assert.equal(editor?.document.languageId, 'diff');
    assert.match(editor.document.getText(), /^-line two\n\+LINE TWO$/m);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    assert.equal(await api.missionControl.receive({ type: 'revert', runId: end.runId, callId: 'call_edit' }), true);
    assert.deepEqual(await fsp.readFile(fixture(rel)), original);
    // The edit is reverted and gone from the history: a second Revert changes nothing.
    await fsp.writeFile(fixture(rel), 'changed by the person\n');
    assert.equal(await api.missionControl.receive({ type: 'revert', runId: end.runId, callId: 'call_edit' }), true);
    assert.equal(await fsp.readFile(fixture(rel), 'utf8'), 'changed by the person\n');
  });

  it('ignores unknown or malformed webview messages', async () => {
    const api = await magi();
    const before = api.activity.lastN;
    for (const raw of [{ type: 'bogus' }, { type: 'send', text: 42 }, 'send', null, { type: 'ready' }]) {
      assert.equal(await api.chat.receive(raw), false, JSON.stringify(raw));
      assert.equal(await api.missionControl.receive(raw), false, JSON.stringify(raw));
    }
    // A chat message sent to Mission Control is known but not its own: nothing runs.
    assert.equal(await api.missionControl.receive({ type: 'send', text: 'do something' }), true);
    assert.equal(await api.missionControl.receive({ type: 'revert', runId: 'no-run', callId: 'no-call' }), true);
    assert.equal(api.activity.lastN, before);
    assert.equal(server.requests.length, 0);
  });

  it("renders the webview HTML with a nonce CSP and only webview URIs of dist/webview", () => {
    const extensionUri = extension().extensionUri;
    const panel = vscode.window.createWebviewPanel('magi.htmlTest', 'HTML test', vscode.ViewColumn.Active, {});
    try {
      showBundle(panel.webview, extensionUri, 'missionControl', 'Mission Control');
      const html = panel.webview.html;
      const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)'/.exec(html)?.[1];
      assert.ok(nonce, html);
      const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
      assert.ok(csp.startsWith("default-src 'none'; "), csp);
      assert.ok(csp.includes(`style-src ${panel.webview.cspSource} 'nonce-${nonce}'`), csp);
      const base = panel.webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', 'webview')).toString();
      const urls = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
      assert.deepEqual(urls.map((u) => u.slice(base.length)), ['/codicon.css', '/missionControl.css', '/missionControl.js']);
      for (const url of urls) assert.ok(url.startsWith(`${base}/`), url);
      assert.equal([...html.matchAll(/<script /g)].length, 1);
      assert.ok(html.includes(`<script nonce="${nonce}"`));
      assert.deepEqual(panel.webview.options.localResourceRoots?.map((u) => u.toString()), [vscode.Uri.joinPath(extensionUri, 'dist', 'webview').toString()]);
    } finally {
      panel.dispose();
    }
  });
});
