import * as assert from 'node:assert/strict';
import type { ChatMessage } from '../../../src/core/agent/messages';
import { lmTurns, modelSelectors, toolInput } from '../../../src/host/lmMessages';

describe('lmTurns (the conversation for VS Code\'s Language Model API)', () => {
  it('sends the system prompt as the first user text, merged with the task', () => {
    assert.deepEqual(lmTurns('SYSTEM', [{ role: 'user', content: 'fix it' }]), [
      { role: 'user', parts: [{ kind: 'text', text: 'SYSTEM' }, { kind: 'text', text: 'fix it' }] },
    ]);
  });

  it('turns tool calls into call parts and their results into one user turn, reminders in tags', () => {
    const messages: ChatMessage[] = [
      { role: 'user', content: 'read both' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'c1', name: 'read', arguments: '{"paths":["a"]}' }, { id: 'c2', name: 'read', arguments: '{"paths":["b"]}' }] },
      { role: 'tool', toolCallId: 'c1', name: 'read', content: 'A', isError: false },
      { role: 'tool', toolCallId: 'c2', name: 'read', content: 'no such file', isError: true },
      { role: 'reminder', content: 'use hash_edit' },
      { role: 'assistant', content: 'done', toolCalls: [] },
    ];
    assert.deepEqual(lmTurns('', messages), [
      { role: 'user', parts: [{ kind: 'text', text: 'read both' }] },
      { role: 'assistant', parts: [
        { kind: 'tool_call', callId: 'c1', name: 'read', input: { paths: ['a'] } },
        { kind: 'tool_call', callId: 'c2', name: 'read', input: { paths: ['b'] } },
      ] },
      { role: 'user', parts: [
        { kind: 'tool_result', callId: 'c1', text: 'A' },
        { kind: 'tool_result', callId: 'c2', text: 'no such file' },
        { kind: 'text', text: '<system-reminder>\nuse hash_edit\n</system-reminder>' },
      ] },
      { role: 'assistant', parts: [{ kind: 'text', text: 'done' }] },
    ]);
  });

  it('leaves out an assistant message with neither text nor calls', () => {
    const turns = lmTurns('S', [{ role: 'user', content: 'a' }, { role: 'assistant', content: '', toolCalls: [] }, { role: 'user', content: 'b' }]);
    assert.deepEqual(turns, [{ role: 'user', parts: [{ kind: 'text', text: 'S' }, { kind: 'text', text: 'a' }, { kind: 'text', text: 'b' }] }]);
  });
});

describe('toolInput', () => {
  it('parses a JSON object, takes empty text as no arguments, keeps anything else under invalid_arguments', () => {
    assert.deepEqual(toolInput('{"a":1}'), { a: 1 });
    assert.deepEqual(toolInput('  '), {});
    assert.deepEqual(toolInput('{"a":'), { invalid_arguments: '{"a":' });
    assert.deepEqual(toolInput('[1]'), { invalid_arguments: '[1]' });
    assert.deepEqual(toolInput('null'), { invalid_arguments: 'null' });
  });
});

describe('modelSelectors', () => {
  it('selects any model when magi.model is empty, else by id then by family', () => {
    assert.deepEqual(modelSelectors(' '), [undefined]);
    assert.deepEqual(modelSelectors(' gpt-4o '), [{ id: 'gpt-4o' }, { family: 'gpt-4o' }]);
  });
});
