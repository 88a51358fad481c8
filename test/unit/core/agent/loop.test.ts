import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import { ACTIVITY_OUTPUT_CAP, type ActivityEvent } from '../../../../src/core/activity';
import { agentHarness, openAiToolMessages, type AgentHarness } from '../../helpers/agent';
import { markedProcesses } from '../../helpers/procs';
import type { RecordedRequest } from '../../helpers/scriptedProvider';

const ofType = <T extends ActivityEvent['type']>(events: ActivityEvent[], type: T): Extract<ActivityEvent, { type: T }>[] =>
  events.filter((e): e is Extract<ActivityEvent, { type: T }> => e.type === type);

/** The tag the last read of `file` showed, from the tool results the agent sent. */
function tagFrom(request: RecordedRequest, file: string): string {
  const shown = openAiToolMessages(request.body).map((m) => m.content).join('\n');
  const match = new RegExp(`\\[${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}#([0-9A-F]{6})\\]`).exec(shown);
  assert.ok(match, `no read of ${file} in the request: ${shown.slice(0, 300)}`);
  return match[1] as string;
}

describe('agent loop (end to end against the scripted provider)', function () {
  this.timeout(30_000);
  let h: AgentHarness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
    assert.deepEqual(markedProcesses(), [], 'an agent run left a shell process behind');
  });

  it('reads a file, edits it with hash_edit, runs bash, and answers; file and session as expected', async () => {
    h = await agentHarness(
      [
        { toolCalls: [{ name: 'read', arguments: { paths: ['src/app.txt'] } }] },
        (req) => ({ toolCalls: [{ name: 'hash_edit', arguments: { input: `[src/app.txt#${tagFrom(req, 'src/app.txt')}]\nSWAP 2:\n+two, edited` } }] }),
        { toolCalls: [{ name: 'bash', arguments: { command: 'grep -c edited src/app.txt', intent: 'count edited lines' } }] },
        { text: 'Done: line 2 is edited.', usage: { input: 120, output: 9 } },
      ],
      { files: { 'src/app.txt': 'one\ntwo\nthree\n' } },
    );
    const result = await h.session.run('edit line 2 of src/app.txt', new AbortController().signal);
    assert.equal(result.outcome, 'completed', result.error);
    assert.equal(result.finalText, 'Done: line 2 is edited.');
    assert.equal(await h.text('src/app.txt'), 'one\ntwo, edited\nthree\n');

    const bashResult = openAiToolMessages(h.server.requests[3]?.body).at(-1);
    assert.match(bashResult?.content ?? '', /^1$/m, 'bash saw the edited file');

    const events = await h.sessionEvents();
    assert.deepEqual(events.map((e) => e.type), ['session_start', 'user', 'assistant', 'tool_result', 'assistant', 'tool_result', 'assistant', 'tool_result', 'assistant', 'run_end']);
    assert.deepEqual(events.flatMap((e) => (e.type === 'assistant' ? [[e.text, e.toolCalls.map((c) => c.name)]] : [])), [['', ['read']], ['', ['hash_edit']], ['', ['bash']], ['Done: line 2 is edited.', []]]);
    const edit = events.find((e) => e.type === 'tool_result' && e.tool === 'hash_edit');
    assert.ok(edit && edit.type === 'tool_result' && edit.status === 'success');
    const raw = await fsp.readFile(h.sessionFile, 'utf8');
    assert.doesNotMatch(raw, /"display"|"diffs"/, 'display-only diffs never reach the session file');
    for (const req of h.server.requests) assert.doesNotMatch(JSON.stringify(req.body), /@@ -\d/, 'no diff in a provider request');

    const editEnd = ofType(h.events, 'tool_end').find((e) => e.tool === 'hash_edit');
    assert.ok(editEnd?.display?.diffs?.[0]?.diff.includes('+two, edited'), 'the activity carries the diff for people');
    const starts = ofType(h.events, 'tool_start');
    assert.deepEqual(starts.map((s) => s.tool), ['read', 'hash_edit', 'bash']);
    assert.deepEqual(starts[0]?.summary, { paths: ['src/app.txt'] });
    assert.equal(starts[2]?.summary.intent, 'count edited lines');
    assert.ok(!JSON.stringify(starts[1]).includes('two, edited'), 'a pending hash_edit carries no replacement payload');
    const seqs = h.events.map((e) => e.seq);
    assert.deepEqual(seqs, seqs.map((_, i) => i + 1), 'seq is gapless from 1');
    assert.equal(h.events.at(-1)?.type, 'run_end');
  });

  it('builds the system prompt from the tools, AGENTS.md and skills, and reads a skill through read skill://', async () => {
    h = await agentHarness(
      [{ toolCalls: [{ name: 'read', arguments: { paths: ['skill://release'] } }] }, { text: 'released', usage: { input: 50, output: 2 } }],
      {
        files: {
          'AGENTS.md': 'Always run npm test before you finish.\n',
          'pkg/AGENTS.md': 'Code in pkg/ uses tabs.\n',
          '.magi/skills/release/SKILL.md': '---\nname: release\ndescription: How to cut a release\n---\nTag, then publish.\n',
        },
      },
    );
    const result = await h.session.run('cut a release', new AbortController().signal);
    assert.equal(result.outcome, 'completed', result.error);
    const system = (h.server.requests[0]?.body as { messages: { role: string; content: string }[] }).messages[0];
    assert.equal(system?.role, 'system');
    for (const expected of ['## hash_edit', 'Always run npm test before you finish.', 'Code in pkg/ uses tabs.', 'release', 'How to cut a release']) {
      assert.ok(system?.content.includes(expected), `system prompt lacks ${expected}`);
    }
    assert.match(openAiToolMessages(h.server.requests[1]?.body)[0]?.content ?? '', /Tag, then publish\./);
    assert.deepEqual(ofType(h.events, 'usage').map((u) => [u.inputTokens, u.outputTokens, u.totalInputTokens]), [[50, 2, 50]]);
  });

  it("caps a tool's output in its activity event at 16 KiB while the model gets the whole result", async () => {
    const big = Array.from({ length: 2000 }, (_, i) => `line ${i} ${'x'.repeat(40)}`).join('\n') + '\n';
    h = await agentHarness([{ toolCalls: [{ name: 'read', arguments: { paths: ['big.txt'] } }] }, { text: 'read it' }], { files: { 'big.txt': big } });
    await h.session.run('read big.txt', new AbortController().signal);
    const end = ofType(h.events, 'tool_end')[0];
    assert.ok(end);
    assert.ok(Buffer.byteLength(end.output) <= ACTIVITY_OUTPUT_CAP, `activity output is ${Buffer.byteLength(end.output)} bytes`);
    assert.equal(end.outputTruncated, true);
    const sent = openAiToolMessages(h.server.requests[1]?.body)[0]?.content ?? '';
    assert.equal(end.bytesOut, Buffer.byteLength(sent));
    assert.ok(end.bytesOut > ACTIVITY_OUTPUT_CAP, 'the model got the whole result');
    assert.equal(end.tokens, Math.ceil(end.bytesOut / 4));
  });

  it('works the same over the Anthropic wire format', async () => {
    h = await agentHarness(
      [
        { toolCalls: [{ name: 'read', arguments: { paths: ['a.txt'] } }] },
        { text: 'It says hello.' },
      ],
      { kind: 'anthropic', files: { 'a.txt': 'hello\n' } },
    );
    const result = await h.session.run('what does a.txt say?', new AbortController().signal);
    assert.equal(result.outcome, 'completed', result.error);
    const second = h.server.requests[1]?.body as { messages: { role: string; content: { type: string; content?: string }[] }[] };
    const toolResult = second.messages.flatMap((m) => (Array.isArray(m.content) ? m.content : [])).find((b) => b.type === 'tool_result');
    assert.match(String(toolResult?.content), /1:hello/);
  });

  it('runs read-only calls of a turn together and a mutating call after them, in order', async () => {
    h = await agentHarness(
      [
        {
          toolCalls: [
            { id: 'c1', name: 'read', arguments: { paths: ['a.txt'] } },
            { id: 'c2', name: 'write', arguments: { path: 'a.txt', content: 'rewritten\n' } },
            { id: 'c3', name: 'read', arguments: { paths: ['a.txt'] } },
            { id: 'c4', name: 'list_files', arguments: {} },
          ],
        },
        { text: 'ok' },
      ],
      { files: { 'a.txt': 'original\n' } },
    );
    await h.session.run('go', new AbortController().signal);
    const results = openAiToolMessages(h.server.requests[1]?.body);
    assert.deepEqual(results.map((r) => r.tool_call_id), ['c1', 'c2', 'c3', 'c4'], 'results answer the calls in order');
    assert.match(results[0]?.content ?? '', /1:original/, 'the read before the write saw the old text');
    assert.match(results[2]?.content ?? '', /1:rewritten/, 'the read after the write saw the new text');
    const order = h.events.filter((e) => e.type === 'tool_start' || e.type === 'tool_end').map((e) => `${e.type === 'tool_start' ? '>' : '<'}${(e as { callId: string }).callId}`);
    assert.ok(order.indexOf('>c2') > order.indexOf('<c1'), `write started before the read before it ended: ${order}`);
    assert.ok(order.indexOf('>c3') > order.indexOf('<c2'), `read started before the write ended: ${order}`);
  });

  it('gives tool errors and bad arguments back to the model and goes on', async () => {
    h = await agentHarness([
      { toolCalls: [{ id: 'x1', name: 'read', arguments: { paths: ['missing.txt'] } }, { id: 'x2', name: 'read', arguments: '{"paths": [' }, { id: 'x3', name: 'no_such_tool', arguments: {} }] },
      { text: 'I could not read it.' },
    ]);
    const result = await h.session.run('read missing.txt', new AbortController().signal);
    assert.equal(result.outcome, 'completed');
    const results = openAiToolMessages(h.server.requests[1]?.body);
    assert.match(results[0]?.content ?? '', /does not exist/);
    assert.match(results[1]?.content ?? '', /not valid JSON/);
    assert.match(results[2]?.content ?? '', /Unknown tool `no_such_tool`/);
    assert.deepEqual(ofType(h.events, 'tool_end').map((e) => e.status), ['error', 'error', 'error']);
  });

  it('stops at the turn limit with outcome turn_limit', async () => {
    h = await agentHarness(
      [
        { toolCalls: [{ name: 'list_files', arguments: {} }] },
        { toolCalls: [{ name: 'list_files', arguments: {} }] },
      ],
      { settings: { agent: { max_turns: 2 } } },
    );
    const result = await h.session.run('loop forever', new AbortController().signal);
    assert.equal(result.outcome, 'turn_limit');
    assert.match(result.error ?? '', /agent\.max_turns/);
    assert.equal(h.server.requests.length, 2);
    const events = await h.sessionEvents();
    assert.deepEqual(events.at(-1), { ...events.at(-1), type: 'run_end', outcome: 'turn_limit' });
  });

  it('fails with the provider error after retries, without crashing', async () => {
    h = await agentHarness([{ status: 500 }, { status: 500 }, { status: 500 }]);
    const result = await h.session.run('hi', new AbortController().signal);
    assert.equal(result.outcome, 'failed');
    assert.match(result.error ?? '', /500/);
    assert.ok(!JSON.stringify(h.events).includes('sk-test-harness-key'), 'the key is in no event');
    assert.equal(ofType(h.events, 'error').length, 1);
  });

  it('retries a 429 and succeeds', async () => {
    h = await agentHarness([{ status: 429, retryAfter: 0 }, { text: 'fine' }]);
    const result = await h.session.run('hi', new AbortController().signal);
    assert.equal(result.outcome, 'completed');
    assert.equal(result.finalText, 'fine');
    assert.deepEqual(ofType(h.events, 'retry').map((r) => [r.turn, r.attempt, r.reason]), [[1, 1, 'HTTP 429']], 'a person sees why the answer is late');
  });

  it('cancelled mid-tool: the shell tree is killed, the run ends cancelled and says so', async () => {
    h = await agentHarness([{ toolCalls: [{ name: 'bash', arguments: { command: 'sleep 30 & sleep 30; wait', intent: 'wait a long time' } }] }, { text: 'never sent' }]);
    const controller = new AbortController();
    h.session.onActivity((e) => {
      if (e.type === 'tool_start') setTimeout(() => controller.abort(), 300);
    });
    const started = Date.now();
    const result = await h.session.run('sleep', controller.signal);
    assert.equal(result.outcome, 'cancelled');
    assert.ok(Date.now() - started < 10_000);
    assert.deepEqual(markedProcesses(), []);
    const cancelled = ofType(h.events, 'cancelled');
    assert.deepEqual(cancelled.map((c) => c.tools), [['bash']]);
    const events = await h.sessionEvents();
    assert.ok(events.some((e) => e.type === 'cancelled'));
    assert.equal(h.server.requests.length, 1, 'no turn after the cancel');
  });

  it('cancelled mid-stream: the stream is aborted promptly', async () => {
    h = await agentHarness([{ stallAfterEvents: 2, text: 'a long answer that stalls' }], { timing: { idleMs: 20_000 } });
    const controller = new AbortController();
    h.session.onActivity((e) => {
      if (e.type === 'text_delta') controller.abort();
    });
    const started = Date.now();
    const result = await h.session.run('talk', controller.signal);
    assert.equal(result.outcome, 'cancelled');
    assert.ok(Date.now() - started < 5_000);
  });

  it('resumes a session: the next run sends the earlier conversation', async () => {
    h = await agentHarness([{ text: 'first answer' }, { text: 'second answer' }]);
    await h.session.run('first question', new AbortController().signal);
    await h.session.close();
    const again = await h.reopen();
    const result = await again.run('second question', new AbortController().signal);
    assert.equal(result.outcome, 'completed');
    const sent = (h.server.requests[1]?.body as { messages: { role: string; content: unknown }[] }).messages.filter((m) => m.role !== 'system');
    assert.deepEqual(sent.map((m) => [m.role, m.content]), [['user', 'first question'], ['assistant', 'first answer'], ['user', 'second question']]);
    assert.equal(ofType(h.events, 'run_start').length, 1, 'the first session object saw one run');
  });
});
