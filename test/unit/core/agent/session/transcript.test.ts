import assert from 'node:assert/strict';
import { INTERRUPTED_CALL_MESSAGE, transcriptFromSession } from '../../../../../src/core/agent/session';
import type { SessionEvent } from '../../../../../src/core/agent/session';

const start: SessionEvent = { type: 'session_start', v: 1, id: 's', cwd: '/w', provider: 'openai', model: 'm', createdAt: 0, at: 0 };
const call = (id: string, name = 'bash') => ({ id, name, arguments: '{}' });

describe('transcriptFromSession', () => {
  it('rebuilds user, assistant, tool and reminder messages; the provider sees providerContent', () => {
    const events: SessionEvent[] = [
      start,
      { type: 'user', text: 'task', at: 1 },
      { type: 'ttsr_injection', hidden: true, turn: 1, rule: 'force-push', reminder: 'Do not force push.', source: 'tool_arguments', at: 2 },
      { type: 'assistant', turn: 1, text: 'running', toolCalls: [call('a'), call('b', 'read')], at: 3 },
      { type: 'tool_result', turn: 1, callId: 'a', tool: 'bash', status: 'success', content: 'long raw output', providerContent: 'summary', metadata: {}, at: 4 },
      { type: 'tool_result', turn: 1, callId: 'b', tool: 'read', status: 'error', content: 'not found', metadata: {}, at: 5 },
      { type: 'assistant', turn: 2, text: 'done', toolCalls: [], at: 6 },
      { type: 'run_end', outcome: 'completed', at: 7 },
    ];
    assert.deepEqual(transcriptFromSession(events), [
      { role: 'user', content: 'task' },
      { role: 'reminder', content: 'Do not force push.' },
      { role: 'assistant', content: 'running', toolCalls: [call('a'), call('b', 'read')] },
      { role: 'tool', toolCallId: 'a', name: 'bash', content: 'summary', isError: false },
      { role: 'tool', toolCallId: 'b', name: 'read', content: 'not found', isError: true },
      { role: 'assistant', content: 'done', toolCalls: [] },
    ]);
  });

  it('answers calls that never finished with a synthetic error, before the next message and at the end', () => {
    const events: SessionEvent[] = [
      start,
      { type: 'user', text: 'task', at: 1 },
      { type: 'assistant', turn: 1, text: '', toolCalls: [call('a'), call('b')], at: 2 },
      { type: 'tool_result', turn: 1, callId: 'b', tool: 'bash', status: 'success', content: 'ok', metadata: {}, at: 3 },
      { type: 'cancelled', turn: 1, tools: ['bash'], at: 4 },
      { type: 'run_end', outcome: 'cancelled', at: 5 },
      { type: 'user', text: 'go on', at: 6 },
      { type: 'assistant', turn: 1, text: '', toolCalls: [call('c', 'write')], at: 7 },
    ];
    assert.deepEqual(transcriptFromSession(events), [
      { role: 'user', content: 'task' },
      { role: 'assistant', content: '', toolCalls: [call('a'), call('b')] },
      { role: 'tool', toolCallId: 'b', name: 'bash', content: 'ok', isError: false },
      { role: 'tool', toolCallId: 'a', name: 'bash', content: INTERRUPTED_CALL_MESSAGE, isError: true },
      { role: 'user', content: 'go on' },
      { role: 'assistant', content: '', toolCalls: [call('c', 'write')] },
      { role: 'tool', toolCallId: 'c', name: 'write', content: INTERRUPTED_CALL_MESSAGE, isError: true },
    ]);
    assert.equal(INTERRUPTED_CALL_MESSAGE, 'interrupted: the call did not finish (session resumed)');
  });

  it('refuses a tool result that answers no pending call', () => {
    const events: SessionEvent[] = [start, { type: 'tool_result', turn: 1, callId: 'x', tool: 'bash', status: 'success', content: '', metadata: {}, at: 1 }];
    assert.throws(() => transcriptFromSession(events), /call x \(bash\) answers no pending tool call/);
  });
});
