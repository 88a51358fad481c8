import { strict as assert } from 'node:assert';
import { promises as fsp } from 'node:fs';
import type { ActivityEvent } from '../../../../src/core/activity';
import { agentHarness, openAiToolMessages, type AgentHarness } from '../../helpers/agent';
import type { RecordedRequest, ScriptStep } from '../../helpers/scriptedProvider';

interface ChatBody {
  messages: { role: string; content: string }[];
  tools?: { function: { name: string } }[];
}
const bodyOf = (req: RecordedRequest | undefined): ChatBody => req?.body as ChatBody;
const toolNames = (req: RecordedRequest | undefined): string[] => (bodyOf(req).tools ?? []).map((t) => t.function.name);
const taskOf = (req: RecordedRequest): string => bodyOf(req).messages.find((m) => m.role === 'user')?.content ?? '';
const systemOf = (req: RecordedRequest): string => bodyOf(req).messages.find((m) => m.role === 'system')?.content ?? '';

/** A child's answer: its task echoed, padded to `bytes`. */
const childAnswer = (bytes: number): ScriptStep => (req) => ({ text: `answer to "${taskOf(req)}" ` + 'x'.repeat(bytes) });

describe('subagents (end to end)', function () {
  this.timeout(30_000);
  let h: AgentHarness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('fans out 3 tasks and gives the parent 3 bounded results while people see only the summary', async () => {
    const tasks = ['count files', 'list todos', 'summarise README'].map((task) => ({ task, label: task }));
    h = await agentHarness(
      [
        { toolCalls: [{ name: 'subagents', arguments: { tasks } }] },
        childAnswer(10_000),
        childAnswer(10_000),
        childAnswer(10_000),
        { text: 'all three done' },
      ],
      { settings: { capabilities: { tools: { subagents: { max_output_bytes: 2048 } } } } },
    );
    const result = await h.session.run('delegate', new AbortController().signal);
    assert.equal(result.outcome, 'completed', result.error);
    assert.equal(h.server.requests.length, 5);

    const parentSees = openAiToolMessages(h.server.requests[4]?.body)[0]?.content ?? '';
    assert.match(parentSees, /^summary: total=3 completed=3 failed=0$/m);
    for (const [i, t] of tasks.entries()) assert.match(parentSees, new RegExp(`--- TASK ${i + 1}: completed \\(1 turns\\) ---\\nanswer to "${t.task}"`));
    assert.equal((parentSees.match(/\[truncated: first 2048 of 10\d\d\d bytes\]/g) ?? []).length, 3, 'each answer cut at max_output_bytes');
    assert.ok(Buffer.byteLength(parentSees) < 3 * 2048 + 1024);

    const end = h.events.find((e): e is Extract<ActivityEvent, { type: 'tool_end' }> => e.type === 'tool_end' && e.agent === 'main');
    assert.equal(end?.output, 'summary: total=3 completed=3 failed=0', 'the visible output is only the aggregate summary');
    assert.deepEqual([...new Set(h.events.map((e) => e.agent))].sort(), ['main', 'main/1', 'main/2', 'main/3']);
    const updates = h.events.flatMap((e) => (e.type === 'tool_update' ? [e.message] : [])).sort();
    assert.deepEqual(updates, tasks.map((t, i) => `task ${i + 1} of 3 completed: ${t.label}`).sort(), 'each finished task is reported as it ends');

    assert.ok(toolNames(h.server.requests[0]).includes('subagents'), 'the top-level agent may spawn');
    for (const req of h.server.requests.slice(1, 4)) {
      assert.ok(!toolNames(req).includes('subagents'), 'a child at the maximum depth is not offered subagents');
      assert.match(systemOf(req), /You are a subagent \(depth 1\)/);
    }
    const childSessions = await fsp.readdir(`${h.sessionFile.replace(/\.jsonl$/, '')}.subagents`);
    assert.equal(childSessions.length, 3, 'each child keeps its own session file');
  });

  it('runs a task under a discovered identity with its tools and instructions; unknown identities are refused', async () => {
    h = await agentHarness(
      [
        { toolCalls: [{ name: 'subagents', arguments: { tasks: [{ task: 'review a.txt', identity: 'ghost' }] } }] },
        { toolCalls: [{ name: 'subagents', arguments: { tasks: [{ task: 'review a.txt', identity: 'reviewer' }] } }] },
        { text: 'looks fine' },
        { text: 'reviewed' },
      ],
      { files: { '.magi/agents/reviewer.md': '---\nname: reviewer\ndescription: Reviews code\ntools: read, grep\n---\nYou review code and never edit it.\n', 'a.txt': 'x\n' } },
    );
    const result = await h.session.run('review', new AbortController().signal);
    assert.equal(result.outcome, 'completed', result.error);
    assert.match(openAiToolMessages(h.server.requests[1]?.body)[0]?.content ?? '', /"ghost" is not a discovered identity; known: reviewer/);
    const child = h.server.requests[2] as RecordedRequest;
    assert.deepEqual(toolNames(child), ['read', 'grep']);
    assert.ok(systemOf(child).startsWith('You review code and never edit it.'));
    assert.match(openAiToolMessages(h.server.requests[3]?.body).at(-1)?.content ?? '', /TASK 1: completed \(1 turns, identity reviewer\) ---\nlooks fine/);
  });

  it('allows one more level when max_depth is 2, and a failing child is reported, not fatal', async () => {
    h = await agentHarness(
      [
        { toolCalls: [{ name: 'subagents', arguments: { tasks: [{ task: 'delegate further' }] } }] },
        { toolCalls: [{ name: 'subagents', arguments: { tasks: [{ task: 'leaf work' }, { task: 'leaf that fails' }] } }] },
        (req) => (taskOf(req) === 'leaf work' ? { text: 'leaf done' } : { status: 400, body: 'bad request' }),
        (req) => (taskOf(req) === 'leaf work' ? { text: 'leaf done' } : { status: 400, body: 'bad request' }),
        { text: 'child done' },
        { text: 'parent done' },
      ],
      { settings: { capabilities: { tools: { subagents: { max_depth: 2 } } } } },
    );
    const result = await h.session.run('go deep', new AbortController().signal);
    assert.equal(result.outcome, 'completed', result.error);
    assert.ok(toolNames(h.server.requests[1]).includes('subagents'), 'depth 1 may spawn when max_depth is 2');
    for (const req of h.server.requests.slice(2, 4)) assert.ok(!toolNames(req).includes('subagents'), 'depth 2 may not');
    const childSaw = openAiToolMessages(h.server.requests[4]?.body)[0]?.content ?? '';
    assert.match(childSaw, /summary: total=2 completed=1 failed=1/);
    assert.match(childSaw, /TASK 2: failed \(1 turns\) ---\nfailed: .*400/);
    assert.ok(h.events.some((e) => e.agent === 'main/1/1') && h.events.some((e) => e.agent === 'main/1/2'));
  });

  it('refuses more tasks than max_tasks before starting any', async () => {
    h = await agentHarness(
      [{ toolCalls: [{ name: 'subagents', arguments: { tasks: [{ task: 'a' }, { task: 'b' }, { task: 'c' }] } }] }, { text: 'ok' }],
      { settings: { capabilities: { tools: { subagents: { max_tasks: 2 } } } } },
    );
    await h.session.run('too many', new AbortController().signal);
    assert.equal(h.server.requests.length, 2, 'no child request was made');
    assert.match(openAiToolMessages(h.server.requests[1]?.body)[0]?.content ?? '', /3 tasks, over the limit of 2/);
  });
});
