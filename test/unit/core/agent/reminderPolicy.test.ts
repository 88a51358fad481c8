import { strict as assert } from 'node:assert';
import type { ActivityEvent } from '../../../../src/core/activity';
import { reminderPolicy } from '../../../../src/core/agent/reminderPolicy';
import { ReminderConfigError } from '../../../../src/core/agent/reminders';
import { Settings } from '../../../../src/core/settings';
import { agentHarness, type AgentHarness } from '../../helpers/agent';
import { markedProcesses } from '../../helpers/procs';

interface ChatBody {
  messages: { role: string; content: string }[];
}

describe('token-triggered reminders in the loop', function () {
  this.timeout(30_000);
  let h: AgentHarness | undefined;
  afterEach(async () => {
    await h?.cleanup();
    h = undefined;
  });

  it('is off by default and rejects a bad user rule up front', () => {
    assert.equal(reminderPolicy(new Settings()), undefined);
    assert.ok(reminderPolicy(new Settings({ ttsr: { enabled: true } })), 'the older ttsr.enabled alias switches it on');
    assert.throws(() => reminderPolicy(new Settings({ agent: { reminders: { enabled: true, rules: [{ pattern: '(', reminder: 'x' }] } } })), ReminderConfigError);
  });

  it('aborts a streaming answer on a user rule, records the hidden injection, and the retried turn succeeds', async () => {
    h = await agentHarness(
      [
        { text: 'Sure, I will use the forbidden-word approach and then go on for a long while', chunkSize: 3, delayMs: 5 },
        { text: 'Here is a clean answer.' },
      ],
      { settings: { agent: { reminders: { enabled: true, rules: [{ name: 'no-forbidden', pattern: 'forbidden-word', reminder: 'Never use the forbidden word.' }] } } } },
    );
    const result = await h.session.run('answer', new AbortController().signal);
    assert.equal(result.outcome, 'completed', result.error);
    assert.equal(result.finalText, 'Here is a clean answer.');
    const retried = h.server.requests[1]?.body as ChatBody;
    assert.deepEqual(retried.messages.at(-1), { role: 'user', content: '<system-reminder>\nNever use the forbidden word.\n</system-reminder>' });
    assert.ok(!retried.messages.some((m) => m.role === 'assistant'), 'the aborted attempt is not part of the conversation');

    const events = await h.sessionEvents();
    const injection = events.find((e) => e.type === 'ttsr_injection');
    assert.deepEqual(injection && { ...injection, at: 0 }, { type: 'ttsr_injection', at: 0, hidden: true, turn: 1, rule: 'no-forbidden', reminder: 'Never use the forbidden word.', source: 'text' });
    assert.equal(events.filter((e) => e.type === 'assistant').length, 1);
    const reminders = h.events.filter((e): e is Extract<ActivityEvent, { type: 'reminder' }> => e.type === 'reminder');
    assert.deepEqual(reminders.map((r) => [r.rule, r.attempt]), [['no-forbidden', 1]]);
    const deltas = h.events.filter((e) => e.type === 'text_delta').map((e) => (e as { text: string }).text).join('');
    assert.ok(!deltas.includes('go on for a long while'), 'the stream stopped at the match');
  });

  it('stops a force push before the tool runs (built-in rule on tool arguments)', async () => {
    h = await agentHarness(
      [
        { toolCalls: [{ name: 'bash', arguments: { command: 'git push --force origin main', intent: 'publish' } }] },
        { toolCalls: [{ name: 'bash', arguments: { command: 'echo asked-first', intent: 'ask first' } }] },
        { text: 'I asked before pushing.' },
      ],
      { settings: { agent: { reminders: { enabled: true } } } },
    );
    const result = await h.session.run('push my work', new AbortController().signal);
    assert.equal(result.outcome, 'completed', result.error);
    const starts = h.events.filter((e): e is Extract<ActivityEvent, { type: 'tool_start' }> => e.type === 'tool_start');
    assert.deepEqual(starts.map((s) => s.summary.intent), ['ask first'], 'the force push never ran');
    const events = await h.sessionEvents();
    assert.equal(events.find((e) => e.type === 'ttsr_injection' && e.source === 'tool_arguments' && e.rule === 'force-push')?.type, 'ttsr_injection');
    assert.deepEqual(markedProcesses(), []);
  });

  it('retries a turn at most max_retries times, then lets it run', async () => {
    h = await agentHarness(
      [{ text: 'alpha' }, { text: 'beta' }, { text: 'gamma alpha beta' }],
      { settings: { agent: { reminders: { enabled: true, max_retries: 2, rules: [{ name: 'a', pattern: 'alpha', reminder: 'no alpha' }, { name: 'b', pattern: 'beta', reminder: 'no beta' }, { name: 'g', pattern: 'gamma', reminder: 'no gamma' }] } } } },
    );
    const result = await h.session.run('go', new AbortController().signal);
    assert.equal(result.outcome, 'completed');
    assert.equal(result.finalText, 'gamma alpha beta', 'after two retries the third attempt runs uninterrupted');
    assert.equal(h.server.requests.length, 3);
  });
});
