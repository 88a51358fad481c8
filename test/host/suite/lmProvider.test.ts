import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ModelRequest, StreamEvent } from '../../../src/core/agent/provider';
import { ProviderError } from '../../../src/core/agent/provider';
import { lmProviderFor } from '../../../src/host/lmProvider';

/**
 * code-server has no chat model and 1.100 offers no stable API to register one, so these tests
 * hand the provider a chat model object of their own: it records what the provider sent (real
 * `vscode.LanguageModelChatMessage`s and parts) and answers with real response parts.
 */
interface SentRequest {
  messages: vscode.LanguageModelChatMessage[];
  options: vscode.LanguageModelChatRequestOptions | undefined;
  token: vscode.CancellationToken | undefined;
}

function chatModel(answer: (sent: SentRequest) => AsyncIterable<unknown> | Error): { chat: vscode.LanguageModelChat; sent: SentRequest[] } {
  const sent: SentRequest[] = [];
  const chat: vscode.LanguageModelChat = {
    name: 'Test Model', id: 'test-model', vendor: 'magi-test', family: 'test', version: '1', maxInputTokens: 100_000,
    sendRequest: async (messages, options, token) => {
      const request = { messages, options, token };
      sent.push(request);
      const stream = answer(request);
      if (stream instanceof Error) throw stream;
      return { stream, text: (async function* () {})() };
    },
    countTokens: async () => 0,
  };
  return { chat, sent };
}

const REQUEST: ModelRequest = {
  system: 'SYSTEM PROMPT',
  messages: [
    { role: 'user', content: 'read a.txt' },
    { role: 'assistant', content: 'Reading.', toolCalls: [{ id: 'c1', name: 'read', arguments: '{"paths":["a.txt"]}' }] },
    { role: 'tool', toolCallId: 'c1', name: 'read', content: '[a.txt#ABC123]\n1:alpha', isError: false },
  ],
  tools: [{ name: 'read', description: 'Read files', parameters: { type: 'object', properties: { paths: { type: 'array' } } } }],
  maxOutputTokens: 1000,
};

async function collect(stream: AsyncIterable<StreamEvent>): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

describe('vscode-lm provider over a chat model', () => {
  it('sends the conversation as Language Model messages and streams text and tool calls back', async () => {
    const { chat, sent } = chatModel(() => (async function* () {
      yield new vscode.LanguageModelTextPart('It says ');
      yield new vscode.LanguageModelTextPart('alpha.');
      yield new vscode.LanguageModelToolCallPart('c2', 'read', { paths: ['b.txt'] });
    })());
    const provider = lmProviderFor(chat);
    assert.equal(provider.kind, 'vscode-lm');
    assert.equal(provider.model, 'test-model');
    const events = await collect(provider.stream(REQUEST, new AbortController().signal));
    assert.deepEqual(events, [
      { type: 'text_delta', text: 'It says ' },
      { type: 'text_delta', text: 'alpha.' },
      { type: 'tool_call_begin', index: 0, id: 'c2', name: 'read' },
      { type: 'tool_call_end', index: 0, id: 'c2', name: 'read', arguments: '{"paths":["b.txt"]}' },
      { type: 'stop', reason: 'tool_calls' },
    ]);
    const [request] = sent;
    assert.ok(request);
    assert.deepEqual(request.options?.tools, [{ name: 'read', description: 'Read files', inputSchema: REQUEST.tools[0]?.parameters }]);
    assert.deepEqual(request.messages.map((m) => m.role), [vscode.LanguageModelChatMessageRole.User, vscode.LanguageModelChatMessageRole.Assistant, vscode.LanguageModelChatMessageRole.User]);
    const [first, assistant, results] = request.messages;
    assert.deepEqual(first?.content.map((p) => (p as vscode.LanguageModelTextPart).value), ['SYSTEM PROMPT', 'read a.txt']);
    const call = assistant?.content[1];
    assert.ok(call instanceof vscode.LanguageModelToolCallPart);
    assert.deepEqual([call.callId, call.name, call.input], ['c1', 'read', { paths: ['a.txt'] }]);
    const result = results?.content[0];
    assert.ok(result instanceof vscode.LanguageModelToolResultPart);
    assert.equal(result.callId, 'c1');
    assert.equal((result.content[0] as vscode.LanguageModelTextPart).value, '[a.txt#ABC123]\n1:alpha');
  });

  it('ends a text answer with stop end', async () => {
    const { chat } = chatModel(() => (async function* () {
      yield new vscode.LanguageModelTextPart('Done.');
    })());
    assert.deepEqual(await collect(lmProviderFor(chat).stream(REQUEST, new AbortController().signal)), [{ type: 'text_delta', text: 'Done.' }, { type: 'stop', reason: 'end' }]);
  });

  it('cancels the request\'s token when the signal aborts and throws kind cancelled', async () => {
    const controller = new AbortController();
    const { chat, sent } = chatModel(({ token }) => (async function* () {
      yield new vscode.LanguageModelTextPart('partial');
      // A real model stops streaming once its token is cancelled; wait for that.
      await new Promise<void>((resolve) => token?.onCancellationRequested(() => resolve()));
      yield new vscode.LanguageModelTextPart(' more');
    })());
    const seen: StreamEvent[] = [];
    await assert.rejects(
      (async () => {
        for await (const event of lmProviderFor(chat).stream(REQUEST, controller.signal)) {
          seen.push(event);
          controller.abort();
        }
      })(),
      (err: unknown) => err instanceof ProviderError && err.kind === 'cancelled',
    );
    assert.deepEqual(seen, [{ type: 'text_delta', text: 'partial' }]);
    assert.equal(sent[0]?.token?.isCancellationRequested, true);
  });

  it('turns the Language Model errors into ProviderErrors that say what to do', async () => {
    const cases: Array<[Error, string, RegExp]> = [
      [vscode.LanguageModelError.NoPermissions('no consent'), 'auth', /^vscode-lm: Magi may not use the chat model Test Model \(magi-test\/test-model\): allow it when VS Code asks/],
      [vscode.LanguageModelError.Blocked('quota'), 'http', /refused the request \(quota or rate limit\); try again later/],
      [vscode.LanguageModelError.NotFound('gone'), 'auth', /is no longer available; run the task again to select another, or change magi\.model/],
      [new Error('socket hang up'), 'http', /^vscode-lm: the chat model Test Model \(magi-test\/test-model\) failed: socket hang up$/],
    ];
    for (const [thrown, kind, message] of cases) {
      const { chat } = chatModel(() => thrown);
      await assert.rejects(collect(lmProviderFor(chat).stream(REQUEST, new AbortController().signal)), (err: unknown) => {
        assert.ok(err instanceof ProviderError, String(err));
        assert.equal(err.kind, kind);
        assert.match(err.message, message);
        return true;
      });
    }
  });
});
