import { strict as assert } from 'node:assert';
import * as net from 'node:net';
import type { ModelProvider, ModelRequest, ProviderTiming, StreamEvent } from '../../../../../src/core/agent/provider';
import { ProviderError } from '../../../../../src/core/agent/provider';
import { createHttpProvider } from '../../../../../src/core/agent/providers';
import { startScriptedProvider, type ScriptedProvider, type ScriptStep } from '../../../helpers/scriptedProvider';

const KEY = 'sk-FAKE-magi-test-key-0123456789abcdef';

const REQUEST: ModelRequest = {
  system: 'You are terse.',
  messages: [{ role: 'user', content: 'hi' }],
  tools: [{ name: 'read', description: 'Read files.', parameters: { type: 'object', properties: { paths: { type: 'array' } } } }],
  maxOutputTokens: 1000,
};

/** Small timings so that failure paths finish fast. */
const FAST: Partial<ProviderTiming> = { connectMs: 500, headersMs: 2000, idleMs: 300, maxRetries: 2, baseRetryDelayMs: 10, maxRetryDelayMs: 2000 };

async function collect(provider: ModelProvider, signal = new AbortController().signal, request = REQUEST): Promise<StreamEvent[]> {
  const events: StreamEvent[] = [];
  for await (const event of provider.stream(request, signal)) events.push(event);
  return events;
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof ProviderError, `expected a ProviderError, got ${String(err)}`);
    assertNoKey(err);
    return err;
  }
  assert.fail('expected the stream to fail');
}

function assertNoKey(err: ProviderError): void {
  for (const text of [err.message, err.stack ?? '', JSON.stringify(err), String(err)]) {
    assert.ok(!text.includes(KEY) && !text.includes('FAKE-magi'), `the key leaked into: ${text}`);
  }
}

function text(events: StreamEvent[]): string {
  return events.map((e) => (e.type === 'text_delta' ? e.text : '')).join('');
}

for (const kind of ['openai', 'anthropic'] as const) {
  describe(`HTTP provider: ${kind}`, () => {
    let server: ScriptedProvider;
    const provider = (timing: Partial<ProviderTiming> = FAST, baseUrl = server.baseUrl): ModelProvider =>
      createHttpProvider({ kind, baseUrl, model: 'test-model', apiKey: KEY, timing });
    const script = async (...steps: ScriptStep[]): Promise<void> => {
      server = await startScriptedProvider(steps);
    };

    afterEach(async () => {
      await server?.close();
    });

    it('streams text in several deltas, then usage and stop', async () => {
      await script({ text: 'Hello, wörld — fine.', chunkSize: 3, usage: { input: 120, output: 7, cached: 100 } });
      const events = await collect(provider());
      assert.ok(events.filter((e) => e.type === 'text_delta').length > 3);
      assert.equal(text(events), 'Hello, wörld — fine.');
      assert.deepEqual(events.slice(-2), [
        { type: 'usage', usage: { inputTokens: 120, outputTokens: 7, cachedInputTokens: 100 } },
        { type: 'stop', reason: 'end' },
      ]);
    });

    it('assembles parallel tool calls whose arguments arrive in many deltas', async () => {
      await script({
        text: 'Reading.',
        toolCalls: [
          { id: 'c1', name: 'read', arguments: { paths: ['src/app.ts', 'README.md:1-200'] } },
          { id: 'c2', name: 'grep', arguments: '{"pattern":"TODO","glob":"*.ts"}' },
          { id: 'c3', name: 'list_files', arguments: {} },
        ],
      });
      const events = await collect(provider());
      assert.equal(text(events), 'Reading.');
      const ends = events.filter((e) => e.type === 'tool_call_end');
      assert.deepEqual(ends, [
        { type: 'tool_call_end', index: 0, id: 'c1', name: 'read', arguments: '{"paths":["src/app.ts","README.md:1-200"]}' },
        { type: 'tool_call_end', index: 1, id: 'c2', name: 'grep', arguments: '{"pattern":"TODO","glob":"*.ts"}' },
        { type: 'tool_call_end', index: 2, id: 'c3', name: 'list_files', arguments: '{}' },
      ]);
      for (const end of ends) {
        const begin = events.findIndex((e) => e.type === 'tool_call_begin' && e.index === end.index);
        const deltas = events.filter((e) => e.type === 'tool_call_delta' && e.index === end.index);
        assert.ok(begin >= 0 && begin < events.indexOf(end));
        if (end.arguments.length > 5) assert.ok(deltas.length > 1, 'arguments should arrive in several deltas');
        assert.equal(deltas.map((d) => (d.type === 'tool_call_delta' ? d.argumentsDelta : '')).join(''), end.name === 'list_files' ? '{}' : end.arguments);
      }
      assert.deepEqual(events.at(-1), { type: 'stop', reason: 'tool_calls' });
    });

    it('sends the key in its header, the model and the tools in the wire format', async () => {
      await script({ text: 'ok' });
      await collect(provider());
      const [req] = server.requests;
      assert.ok(req);
      const body = req.body as Record<string, unknown>;
      assert.equal(body.model, 'test-model');
      assert.equal(body.stream, true);
      if (kind === 'openai') {
        assert.equal(req.path, '/chat/completions');
        assert.equal(req.headers.authorization, `Bearer ${KEY}`);
        assert.deepEqual(body.stream_options, { include_usage: true });
        assert.deepEqual(body.tools, [{ type: 'function', function: REQUEST.tools[0] }]);
        assert.equal(body.max_tokens, 1000);
      } else {
        assert.equal(req.path, '/v1/messages');
        assert.equal(req.headers['x-api-key'], KEY);
        assert.equal(req.headers['anthropic-version'], '2023-06-01');
        assert.equal(req.headers.authorization, undefined);
        assert.equal(body.system, 'You are terse.');
        assert.equal(body.max_tokens, 1000);
        assert.deepEqual(body.tools, [{ name: 'read', description: 'Read files.', input_schema: REQUEST.tools[0]!.parameters }]);
      }
    });

    it('retries a 429 after the retry-after the server asked for, then succeeds', async () => {
      await script({ status: 429, retryAfter: 1 }, { text: 'after the wait' });
      const events = await collect(provider({ ...FAST, baseRetryDelayMs: 1 }));
      assert.equal(text(events), 'after the wait');
      assert.equal(server.requests.length, 2);
      const gap = server.requests[1]!.receivedAt - server.requests[0]!.receivedAt;
      assert.ok(gap >= 900 && gap < 5000, `waited ${gap} ms for retry-after: 1`);
    });

    it('retries a 500 maxRetries times, then fails with kind http and status 500 naming the host', async () => {
      await script({ status: 500 }, { status: 500 }, { status: 503 }, { text: 'never reached' });
      const err = await failure(collect(provider()));
      assert.equal(err.kind, 'http');
      assert.equal(err.status, 503);
      assert.equal(server.requests.length, 3);
      assert.equal(server.remaining(), 1);
      assert.match(err.message, new RegExp(`${kind} provider at 127\\.0\\.0\\.1:\\d+ answered HTTP 503: scripted HTTP 503`));
      assert.match(err.message, /gave up after 3 attempts/);
    });

    it('fails at once on 401 with kind auth, and never shows the key the server echoed back', async () => {
      await script({ status: 401, body: JSON.stringify({ error: { message: `Incorrect API key provided: ${KEY}` } }) });
      const err = await failure(collect(provider()));
      assert.equal(err.kind, 'auth');
      assert.equal(err.status, 401);
      assert.equal(server.requests.length, 1);
      assert.match(err.message, /Incorrect API key provided: \[redacted\]/);
      assert.match(err.message, /check the key/);
    });

    it('does not retry a 400 and says to check the model', async () => {
      await script({ status: 400, body: 'x'.repeat(5000) });
      const err = await failure(collect(provider()));
      assert.equal(err.kind, 'http');
      assert.equal(server.requests.length, 1);
      assert.match(err.message, /check the model name "test-model"/);
      assert.ok(err.message.length < 600, 'the body excerpt is short');
    });

    it('reports a chunk that is not JSON as kind malformed', async () => {
      await script({ malformed: true });
      const err = await failure(collect(provider()));
      assert.equal(err.kind, 'malformed');
      assert.equal(server.requests.length, 1);
    });

    it('retries a disconnect before any event, but not once text has streamed', async () => {
      await script({ disconnectAfterEvents: 0 }, { text: 'second try' });
      assert.equal(text(await collect(provider())), 'second try');
      assert.equal(server.requests.length, 2);

      server.push({ disconnectAfterEvents: 3, text: 'partial answer', chunkSize: 2 }, { text: 'must not be used' });
      const seen: StreamEvent[] = [];
      const err = await failure((async () => {
        for await (const event of provider().stream(REQUEST, new AbortController().signal)) seen.push(event);
      })());
      assert.equal(err.kind, 'disconnected');
      assert.ok(text(seen).length > 0, 'some text streamed before the disconnect');
      assert.equal(server.remaining(), 1);
    });

    it('reports a stream that goes silent as kind stalled after idleMs', async () => {
      await script({ stallAfterEvents: 3, text: 'thinking about it', chunkSize: 2 });
      const started = Date.now();
      const err = await failure(collect(provider({ ...FAST, idleMs: 250 })));
      const elapsed = Date.now() - started;
      assert.equal(err.kind, 'stalled');
      assert.ok(elapsed >= 200 && elapsed < 2000, `stalled after ${elapsed} ms`);
      assert.equal(server.requests.length, 1);
    });

    it('stops promptly with kind cancelled when the signal aborts mid-stream, and closes the socket', async () => {
      await script({ stallAfterEvents: 3, text: 'a long answer', chunkSize: 2 });
      const controller = new AbortController();
      const started = Date.now();
      const err = await failure((async () => {
        for await (const event of provider({ ...FAST, idleMs: 60_000 }).stream(REQUEST, controller.signal)) {
          if (event.type === 'text_delta') setTimeout(() => controller.abort(), 50);
        }
      })());
      assert.equal(err.kind, 'cancelled');
      assert.ok(Date.now() - started < 1000);
      for (let i = 0; i < 50 && server.openSockets() > 0; i++) await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(server.openSockets(), 0, 'the client closed its connection');
    });

    it('stops with kind cancelled while waiting to retry', async () => {
      await script({ status: 429, retryAfter: 30 });
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 100);
      const started = Date.now();
      const err = await failure(collect(provider({ ...FAST, maxRetryDelayMs: 60_000 }), controller.signal));
      assert.equal(err.kind, 'cancelled');
      assert.ok(Date.now() - started < 1000);
    });

    it('answers "script exhausted" when the script runs out', async () => {
      await script();
      const err = await failure(collect(provider({ ...FAST, maxRetries: 0 })));
      assert.equal(err.status, 500);
      assert.match(err.message, /script exhausted/);
    });
  });
}

describe('HTTP provider: connection failures', () => {
  it('reports a refused connection as kind connect after its retries', async () => {
    const port = await new Promise<number>((resolve) => {
      const probe = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as net.AddressInfo;
        probe.close(() => resolve(free));
      });
    });
    const provider = createHttpProvider({ kind: 'openai', baseUrl: `http://127.0.0.1:${port}/v1`, model: 'm', apiKey: KEY, timing: FAST });
    const err = await failure(collect(provider));
    assert.equal(err.kind, 'connect');
    assert.ok(err.retryable);
    assert.match(err.message, /connection refused.*Check the base URL/);
    assert.match(err.message, /gave up after 3 attempts/);
  });

  it('gives up a connection whose TLS handshake never completes after connectMs', async () => {
    // A TCP listener that accepts and stays silent: the TLS handshake is part of undici's connect timeout.
    const sockets = new Set<net.Socket>();
    const silent = net.createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as net.AddressInfo;
    try {
      const provider = createHttpProvider({ kind: 'anthropic', baseUrl: `https://127.0.0.1:${port}`, model: 'm', apiKey: KEY, timing: { ...FAST, connectMs: 200, maxRetries: 0 } });
      const started = Date.now();
      const err = await failure(collect(provider));
      assert.equal(err.kind, 'connect');
      assert.match(err.message, /could not connect within 0\.2 s/);
      assert.ok(Date.now() - started < 3000);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
    }
  });

  it('refuses a base URL that is not http(s) when created', () => {
    assert.throws(() => createHttpProvider({ kind: 'openai', baseUrl: 'ftp://example.com', model: 'm' }), (err: unknown) => err instanceof ProviderError && err.kind === 'connect');
    assert.throws(() => createHttpProvider({ kind: 'openai', baseUrl: 'not a url', model: 'm' }), ProviderError);
  });
});
