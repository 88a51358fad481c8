import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { diffDocument, editIdForCall, type ToolEndEvent } from '../../../../src/host/webviews/callEdits';
import { webviewHtml } from '../../../../src/host/webviews/html';
import { parseWebviewMessage } from '../../../../src/host/webviews/messages';
import { HEAD_BYTES, listSessions } from '../../../../src/host/webviews/sessions';
import { transcriptRuns } from '../../../../src/host/webviews/transcriptEvents';

describe('webview HTML', () => {
  const render = (nonce?: string): string =>
    webviewHtml({ bundle: 'chat', title: 'Chat', cspSource: 'https://webview.test', resource: (f) => `https://webview.test/dist/webview/${f}`, ...(nonce ? { nonce } : {}) });

  it("has a default-src 'none' CSP whose script and style nonce is the one on its tags", () => {
    const html = render('N0nce');
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1];
    assert.equal(csp, "default-src 'none'; style-src https://webview.test 'nonce-N0nce'; script-src 'nonce-N0nce'; font-src https://webview.test; img-src https://webview.test data:");
    assert.deepEqual([...html.matchAll(/<script ([^>]*)>/g)].map((m) => m[1]), ['nonce="N0nce" src="https://webview.test/dist/webview/chat.js"']);
    assert.deepEqual([...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]), ['https://webview.test/dist/webview/codicon.css', 'https://webview.test/dist/webview/chat.css']);
  });

  it('uses a fresh nonce per render', () => {
    const nonces = [render(), render()].map((html) => /script-src 'nonce-([^']+)'/.exec(html)?.[1]);
    assert.ok(nonces[0] && nonces[1] && nonces[0] !== nonces[1]);
  });
});

describe('parseWebviewMessage', () => {
  it('accepts each message of the protocol', () => {
    for (const m of [{ type: 'ready', lastN: 3 }, { type: 'send', text: 'hi' }, { type: 'cancel' }, { type: 'new_chat' }, { type: 'open_session', file: 'a.jsonl' }, { type: 'open_diff', runId: 'r', callId: 'c' }, { type: 'revert', runId: 'r', callId: 'c' }]) {
      assert.deepEqual(parseWebviewMessage(m), m);
    }
  });

  it('ignores unknown types and mistyped fields, and drops extra fields', () => {
    for (const m of [null, 'ready', { type: 'bogus' }, { type: 'ready', lastN: -1 }, { type: 'ready', lastN: '3' }, { type: 'send', text: 5 }, { type: 'revert', runId: 'r' }, { type: 'open_session' }]) {
      assert.equal(parseWebviewMessage(m), undefined, JSON.stringify(m));
    }
    assert.deepEqual(parseWebviewMessage({ type: 'cancel', secret: 'x' }), { type: 'cancel' });
  });
});

describe('listSessions', () => {
  it('lists the session files newest first, titled by their first task from the head of the file', async () => {
    const root = await fsp.mkdtemp(path.join(tmpdir(), 'magi-sessions-'));
    const dir = path.join(root, '.magi', 'sessions');
    await fsp.mkdir(path.join(dir, 'x.subagents'), { recursive: true });
    const line = (o: object): string => `${JSON.stringify(o)}\n`;
    const start = (createdAt: number): string => line({ type: 'session_start', at: createdAt, v: 1, id: 'i', cwd: root, provider: 'p', model: 'm', createdAt });
    await fsp.writeFile(path.join(dir, '2026-01-01T00-00-00Z-a.jsonl'), start(1) + line({ type: 'user', at: 1, text: 'first\n  task' }) + line({ type: 'user', at: 2, text: 'second' }));
    await fsp.writeFile(path.join(dir, '2026-01-02T00-00-00Z-b.jsonl'), start(2) + line({ type: 'user', at: 2, text: 'y'.repeat(300) }));
    // The first task lies beyond the head: only the head is read.
    await fsp.writeFile(path.join(dir, '2026-01-03T00-00-00Z-c.jsonl'), start(3) + line({ type: 'assistant', at: 3, turn: 1, text: 'z'.repeat(HEAD_BYTES), toolCalls: [] }) + line({ type: 'user', at: 4, text: 'late' }));
    await fsp.writeFile(path.join(dir, 'notes.txt'), 'not a session');
    await fsp.writeFile(path.join(dir, '2026-01-04T00-00-00Z-d.jsonl'), 'garbage\n');
    const sessions = await listSessions(root);
    assert.deepEqual(sessions.map((s) => [path.basename(s.file), s.title.length > 100 ? s.title.length : s.title, s.createdAt]), [
      ['2026-01-03T00-00-00Z-c.jsonl', '(no task yet)', 3],
      ['2026-01-02T00-00-00Z-b.jsonl', 120, 2],
      ['2026-01-01T00-00-00Z-a.jsonl', 'first task', 1],
    ]);
    assert.deepEqual(await listSessions(path.join(root, 'none')), []);
  });
});

describe('Mission Control call actions', () => {
  const call = (status: 'success' | 'error', paths: string[]): ToolEndEvent => ({
    runId: 'r', seq: 3, at: 0, agent: 'main', type: 'tool_end', turn: 1, callId: 'c', tool: 'hash_edit', status, metadata: {}, output: '', outputTruncated: false,
    durationMs: 1, bytesIn: 1, bytesOut: 1, tokens: 1, display: { diffs: paths.map((p) => ({ path: p, diff: `--- a/${p}\n+++ b/${p}\n@@ -1 +1 @@\n-a\n+b` })) },
  });

  it('finds the newest applied edit of the same tool and files', () => {
    const edits = [
      { id: 1, proposal: { tool: 'hash_edit', files: [{ display: 'a.txt' }, { display: 'b.txt' }] } },
      { id: 2, proposal: { tool: 'write', files: [{ display: 'a.txt' }] } },
      { id: 3, proposal: { tool: 'hash_edit', files: [{ display: 'b.txt' }, { display: 'a.txt' }] } },
      { id: 4, proposal: { tool: 'hash_edit', files: [{ display: 'a.txt' }] } },
    ];
    assert.equal(editIdForCall(call('success', ['a.txt', 'b.txt']), edits), 3);
    assert.equal(editIdForCall(call('success', ['c.txt']), edits), undefined);
    assert.equal(editIdForCall(call('error', ['a.txt']), edits), undefined);
  });

  it('joins the diffs into one document', () => {
    assert.equal(diffDocument(call('success', ['a', 'b'])), '--- a/a\n+++ b/a\n@@ -1 +1 @@\n-a\n+b\n--- a/b\n+++ b/b\n@@ -1 +1 @@\n-a\n+b\n');
    assert.equal(diffDocument(call('success', [])), undefined);
  });
});

describe('transcriptRuns', () => {
  it('turns a resumed conversation into one run per task with its answers', () => {
    const runs = transcriptRuns(
      [
        { role: 'user', content: 'one' },
        { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'read', arguments: '{}' }] },
        { role: 'tool', toolCallId: 'c', name: 'read', content: 'secret file text', isError: false },
        { role: 'assistant', content: 'done one', toolCalls: [] },
        { role: 'user', content: 'two' },
        { role: 'assistant', content: 'done two', toolCalls: [] },
      ],
      { cwd: '/w', provider: 'openai', model: 'm', sessionFile: '/w/s.jsonl' },
    );
    assert.deepEqual(runs.map((r) => r.map((b) => b.type)), [['run_start', 'message_end', 'message_end', 'run_end'], ['run_start', 'message_end', 'run_end']]);
    assert.deepEqual(runs[0]?.at(-1), { type: 'run_end', outcome: 'completed', turns: 2, durationMs: 0, finalText: 'done one' });
    assert.ok(!JSON.stringify(runs).includes('secret file text'), 'tool results are left out');
  });
});
