import { strict as assert } from 'node:assert';
import type { ChatMessage } from '../../../../../src/core/agent/messages';
import { DEFAULT_PROVIDER_TIMING, ProviderError, type ModelRequest, type StreamEvent } from '../../../../../src/core/agent/provider';
import { createHttpProvider } from '../../../../../src/core/agent/providers';
import { AnthropicDecoder, anthropicUrl } from '../../../../../src/core/agent/providers/anthropic';
import type { ProviderContext } from '../../../../../src/core/agent/providers/errors';
import { OpenAiDecoder } from '../../../../../src/core/agent/providers/openai';
import type { WireDecoder } from '../../../../../src/core/agent/providers/stream';
import { startScriptedProvider, type ScriptedProvider } from '../../../helpers/scriptedProvider';

const CONVERSATION: ChatMessage[] = [
  { role: 'reminder', content: 'Plan first.' },
  { role: 'user', content: 'fix it' },
  {
    role: 'assistant',
    content: 'Looking.',
    toolCalls: [
      { id: 'c1', name: 'read', arguments: '{"paths":["a.ts"]}' },
      { id: 'c2', name: 'grep', arguments: '{"pattern":"x"}' },
    ],
  },
  { role: 'tool', toolCallId: 'c1', name: 'read', content: 'STATUS: ok', isError: false },
  { role: 'reminder', content: 'Context is 80% full.' },
  { role: 'tool', toolCallId: 'c2', name: 'grep', content: 'STATUS: error', isError: true },
  { role: 'assistant', content: '', toolCalls: [{ id: 'c3', name: 'write', arguments: '{"path": broken' }] },
  { role: 'tool', toolCallId: 'c3', name: 'write', content: 'bad arguments', isError: true },
  { role: 'user', content: 'thanks' },
  { role: 'assistant', content: 'Done.', toolCalls: [] },
  { role: 'user', content: 'one more' },
];

const REQUEST: ModelRequest = { system: 'SYS', messages: CONVERSATION, tools: [], maxOutputTokens: 64 };

async function drain(iterable: AsyncIterable<StreamEvent>): Promise<void> {
  for await (const _event of iterable) {
    // only the request the server recorded matters here
  }
}

describe('HTTP providers: request bodies', () => {
  let server: ScriptedProvider;
  beforeEach(async () => {
    server = await startScriptedProvider([{ text: 'ok' }]);
  });
  afterEach(() => server.close());

  it('OpenAI: system message, reminders as wrapped user messages, tool calls and tool results', async () => {
    const provider = createHttpProvider({ kind: 'openai', baseUrl: `${server.baseUrl}/v1/`, model: 'm', headers: { 'X-Title': 'magi' } });
    await drain(provider.stream(REQUEST, new AbortController().signal));
    const [req] = server.requests;
    assert.equal(req?.path, '/v1/chat/completions');
    assert.equal(req.headers.authorization, undefined, 'no key, no Authorization header');
    assert.equal(req.headers['x-title'], 'magi');
    const body = req.body as { messages: unknown; tools?: unknown };
    assert.equal(body.tools, undefined);
    assert.deepEqual(body.messages, [
      { role: 'system', content: 'SYS' },
      { role: 'user', content: '<system-reminder>\nPlan first.\n</system-reminder>' },
      { role: 'user', content: 'fix it' },
      {
        role: 'assistant',
        content: 'Looking.',
        tool_calls: [
          { id: 'c1', type: 'function', function: { name: 'read', arguments: '{"paths":["a.ts"]}' } },
          { id: 'c2', type: 'function', function: { name: 'grep', arguments: '{"pattern":"x"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'c1', content: 'STATUS: ok' },
      { role: 'user', content: '<system-reminder>\nContext is 80% full.\n</system-reminder>' },
      { role: 'tool', tool_call_id: 'c2', content: 'STATUS: error' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c3', type: 'function', function: { name: 'write', arguments: '{"path": broken' } }] },
      { role: 'tool', tool_call_id: 'c3', content: 'bad arguments' },
      { role: 'user', content: 'thanks' },
      { role: 'assistant', content: 'Done.' },
      { role: 'user', content: 'one more' },
    ]);
  });

  it('Anthropic: alternating roles, tool results first in their user message, reminders merged as text blocks', async () => {
    const provider = createHttpProvider({ kind: 'anthropic', baseUrl: `${server.baseUrl}/v1`, model: 'm' });
    await drain(provider.stream(REQUEST, new AbortController().signal));
    const [req] = server.requests;
    assert.equal(req?.path, '/v1/messages');
    assert.equal(req.headers['x-api-key'], undefined);
    const body = req.body as { messages: unknown; system: unknown };
    assert.equal(body.system, 'SYS');
    assert.deepEqual(body.messages, [
      { role: 'user', content: [{ type: 'text', text: '<system-reminder>\nPlan first.\n</system-reminder>' }, { type: 'text', text: 'fix it' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Looking.' },
          { type: 'tool_use', id: 'c1', name: 'read', input: { paths: ['a.ts'] } },
          { type: 'tool_use', id: 'c2', name: 'grep', input: { pattern: 'x' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'c1', content: 'STATUS: ok', is_error: false },
          { type: 'tool_result', tool_use_id: 'c2', content: 'STATUS: error', is_error: true },
          { type: 'text', text: '<system-reminder>\nContext is 80% full.\n</system-reminder>' },
        ],
      },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'c3', name: 'write', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'c3', content: 'bad arguments', is_error: true }, { type: 'text', text: 'thanks' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
      { role: 'user', content: [{ type: 'text', text: 'one more' }] },
    ]);
  });

  it('keeps extra header values out of errors, like the key', async () => {
    const secret = 'org-secret-value-42';
    server.push({ status: 400, body: JSON.stringify({ error: { message: `unknown organization ${secret}` } }) });
    await drain(createHttpProvider({ kind: 'openai', baseUrl: server.baseUrl, model: 'm' }).stream(REQUEST, new AbortController().signal));
    const provider = createHttpProvider({ kind: 'openai', baseUrl: server.baseUrl, model: 'm', headers: { 'OpenAI-Organization': secret } });
    await assert.rejects(drain(provider.stream(REQUEST, new AbortController().signal)), (err: unknown) => {
      assert.ok(err instanceof ProviderError);
      assert.equal(err.kind, 'http');
      assert.match(err.message, /unknown organization \[redacted\]/);
      assert.ok(!JSON.stringify(err).includes(secret) && !(err.stack ?? '').includes(secret));
      return true;
    });
  });

  it('close() releases the pooled connection', async () => {
    const provider = createHttpProvider({ kind: 'openai', baseUrl: server.baseUrl, model: 'm' }) as { close?(): Promise<void> } & ReturnType<typeof createHttpProvider>;
    await drain(provider.stream(REQUEST, new AbortController().signal));
    assert.equal(server.openSockets(), 1, 'kept alive after the stream');
    await provider.close?.();
    for (let i = 0; i < 50 && server.openSockets() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(server.openSockets(), 0);
  });

  it('Anthropic: the messages URL with or without /v1 and a trailing slash', () => {
    assert.equal(anthropicUrl('https://api.anthropic.com'), 'https://api.anthropic.com/v1/messages');
    assert.equal(anthropicUrl('https://api.anthropic.com/'), 'https://api.anthropic.com/v1/messages');
    assert.equal(anthropicUrl('https://api.anthropic.com/v1/'), 'https://api.anthropic.com/v1/messages');
    assert.equal(anthropicUrl('https://proxy.example/anthropic'), 'https://proxy.example/anthropic/v1/messages');
  });
});

const CTX: ProviderContext = { kind: 'openai', host: 'h', model: 'm', timing: DEFAULT_PROVIDER_TIMING, hasApiKey: true, secrets: [] };

function feed(decoder: WireDecoder, payloads: (object | string)[]): StreamEvent[] {
  return payloads.flatMap((payload) => decoder.accept({ event: 'message', data: typeof payload === 'string' ? payload : JSON.stringify(payload) }));
}

function thrown(fn: () => unknown): ProviderError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof ProviderError);
    return err;
  }
  assert.fail('expected a ProviderError');
}

describe('OpenAiDecoder', () => {
  const chunk = (delta: object, finish: string | null = null): object => ({ choices: [{ index: 0, delta, finish_reason: finish }] });

  it('accepts a stream that ends after finish_reason without [DONE], and maps length to max_tokens', () => {
    const decoder = new OpenAiDecoder(CTX);
    feed(decoder, [chunk({ content: 'hi' }), chunk({}, 'length')]);
    assert.equal(decoder.finished, false);
    assert.ok(decoder.completeWithoutMarker);
    assert.deepEqual(decoder.close(), [{ type: 'stop', reason: 'max_tokens' }]);
  });

  it('buffers arguments until the name arrives, derives a missing id, and repeats of the name are not appended', () => {
    const decoder = new OpenAiDecoder(CTX);
    const events = feed(decoder, [
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"a"' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { name: 'read', arguments: ':1}' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { name: 'read' } }] }),
      chunk({}, 'stop'),
      '[DONE]',
    ]);
    assert.deepEqual(events, [
      { type: 'tool_call_begin', index: 0, id: 'call_0', name: 'read' },
      { type: 'tool_call_delta', index: 0, argumentsDelta: '{"a":1}' },
      { type: 'tool_call_end', index: 0, id: 'call_0', name: 'read', arguments: '{"a":1}' },
    ]);
    assert.deepEqual(decoder.close(), [{ type: 'stop', reason: 'tool_calls' }]);
  });

  it('turns an error chunk into a ProviderError with the status it names', () => {
    const err = thrown(() => feed(new OpenAiDecoder(CTX), [{ error: { message: 'upstream overloaded', code: 502 } }]));
    assert.equal(err.kind, 'http');
    assert.equal(err.status, 502);
    assert.ok(err.retryable);
    assert.match(err.message, /upstream overloaded/);
  });

  it('rejects a data line that is JSON but not an object', () => {
    assert.equal(thrown(() => feed(new OpenAiDecoder(CTX), ['[1,2]'])).kind, 'malformed');
  });
});

describe('AnthropicDecoder', () => {
  const ctx: ProviderContext = { ...CTX, kind: 'anthropic' };

  it('sums cache reads and writes into inputTokens, and a tool_use without input deltas ends with "{}"', () => {
    const decoder = new AnthropicDecoder(ctx);
    const events = feed(decoder, [
      { type: 'message_start', message: { usage: { input_tokens: 10, cache_creation_input_tokens: 5, cache_read_input_tokens: 100, output_tokens: 1 } } },
      { type: 'ping' },
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'hmm' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'tool_use', id: 't1', name: 'list_files', input: {} } },
      { type: 'content_block_stop', index: 1 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 42 } },
      { type: 'message_stop' },
    ]);
    assert.ok(decoder.finished);
    assert.deepEqual([...events, ...decoder.close()], [
      { type: 'tool_call_begin', index: 0, id: 't1', name: 'list_files' },
      { type: 'tool_call_end', index: 0, id: 't1', name: 'list_files', arguments: '{}' },
      { type: 'usage', usage: { inputTokens: 115, outputTokens: 42, cachedInputTokens: 100 } },
      { type: 'stop', reason: 'tool_calls' },
    ]);
  });

  it('turns an overloaded error event into a retryable ProviderError with status 529', () => {
    const err = thrown(() => feed(new AnthropicDecoder(ctx), [{ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }]));
    assert.equal(err.kind, 'http');
    assert.equal(err.status, 529);
    assert.ok(err.retryable);
    assert.match(err.message, /Overloaded/);
  });

  it('is not complete without message_stop', () => {
    const decoder = new AnthropicDecoder(ctx);
    feed(decoder, [{ type: 'message_delta', delta: { stop_reason: 'end_turn' } }]);
    assert.equal(decoder.finished || decoder.completeWithoutMarker, false);
  });
});
