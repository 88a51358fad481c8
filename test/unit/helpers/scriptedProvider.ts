/**
 * A scripted model provider: a real HTTP server on 127.0.0.1 (random port) that answers each request
 * with the next step of a script, in the wire format the path asks for, and records every request.
 *
 *   POST /chat/completions, /v1/chat/completions → OpenAI Chat Completions SSE
 *   POST /v1/messages                            → Anthropic Messages SSE
 *   anything else                                → 404, no step consumed
 *   script exhausted                             → 500 with the body "script exhausted"
 *
 * Steps (one per request, in order):
 *   { text, chunkSize?, delayMs?, usage? }            text streamed in chunkSize-character deltas (default 4)
 *   { toolCalls: [{ id?, name, arguments }], text? }  tool calls (parallel when several), arguments (object or
 *                                                     raw string) streamed in small deltas; OpenAI deltas interleave
 *                                                     across calls, as a server may; text first when given
 *   { status, retryAfter?, body? }                    an HTTP error with a wire-format error body
 *   { malformed: true }                               one valid event, then a `data:` line that is not JSON
 *   { disconnectAfterEvents: n, text? }               n SSE events of a text answer, then the socket is destroyed
 *   { stallAfterEvents: n, text? }                    n SSE events, then silence with the socket held open
 *   (request) => step | Promise<step>                 decide (and assert) per request
 * `usage: { input, output, cached? }`: OpenAI gets a usage chunk only when the step gives it (Anthropic's
 * events always carry usage: zeros without it); `delayMs` waits between events. A function step that
 * throws answers 400 with the error's message, which a provider does not retry.
 *
 *   const server = await startScriptedProvider([{ text: 'hi' }]);
 *   createHttpProvider({ kind: 'openai', baseUrl: server.baseUrl, model: 'm' });   // or kind 'anthropic'
 *   … server.requests[0].body …; await server.close();
 */
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface ScriptedUsage {
  input: number;
  output: number;
  cached?: number;
}

interface StreamShape {
  chunkSize?: number;
  delayMs?: number;
  usage?: ScriptedUsage;
}

export interface ScriptedToolCall {
  id?: string;
  name: string;
  arguments: Record<string, unknown> | string;
}

export type ScriptStep =
  | ({ text: string } & StreamShape)
  | ({ toolCalls: ScriptedToolCall[]; text?: string } & StreamShape)
  | { status: number; retryAfter?: number | string; body?: string }
  | { malformed: true }
  | ({ disconnectAfterEvents: number; text?: string } & StreamShape)
  | ({ stallAfterEvents: number; text?: string } & StreamShape)
  | ((request: RecordedRequest) => ScriptStep | Promise<ScriptStep>);

export interface RecordedRequest {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body, or the raw text when it was not JSON. */
  body: unknown;
  /** Date.now() when the request's body had arrived. */
  receivedAt: number;
}

export interface ScriptedProvider {
  /** http://127.0.0.1:PORT — pass as baseUrl (the OpenAI kind may also use `${baseUrl}/v1`). */
  baseUrl: string;
  requests: RecordedRequest[];
  push(...steps: ScriptStep[]): void;
  /** Steps not consumed yet. */
  remaining(): number;
  /** Sockets currently open (to check that a client closed its connection). */
  openSockets(): number;
  /** Stops the server and destroys every open socket (stalled streams included). */
  close(): Promise<void>;
}

type Format = 'openai' | 'anthropic';
/** One SSE event: the Anthropic event name (unused by OpenAI) and the data payload. */
interface WireEvent {
  event?: string;
  data: string;
}

function formatOf(path: string): Format | undefined {
  if (path === '/chat/completions' || path === '/v1/chat/completions') return 'openai';
  if (path === '/v1/messages') return 'anthropic';
  return undefined;
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}

let idCounter = 0;

function openAiEvents(text: string, calls: ScriptedToolCall[], shape: StreamShape): WireEvent[] {
  const chunk = (delta: object, finish: string | null = null): WireEvent => ({
    data: JSON.stringify({ id: 'chatcmpl-scripted', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] }),
  });
  const events = [chunk({ role: 'assistant', content: '' })];
  for (const part of pieces(text, shape.chunkSize ?? 4)) events.push(chunk({ content: part }));
  const argParts = calls.map((call) => pieces(typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments), 5));
  calls.forEach((call, index) => {
    const id = call.id ?? `call_${++idCounter}`;
    events.push(chunk({ tool_calls: [{ index, id, type: 'function', function: { name: call.name, arguments: '' } }] }));
  });
  // Round-robin over the calls so that assembly has to go by index, not by arrival order.
  for (let round = 0; argParts.some((parts) => round < parts.length); round++) {
    argParts.forEach((parts, index) => {
      const part = parts[round];
      if (part !== undefined) events.push(chunk({ tool_calls: [{ index, function: { arguments: part } }] }));
    });
  }
  events.push(chunk({}, calls.length > 0 ? 'tool_calls' : 'stop'));
  if (shape.usage) {
    const { input, output, cached } = shape.usage;
    events.push({
      data: JSON.stringify({
        id: 'chatcmpl-scripted', object: 'chat.completion.chunk', choices: [],
        usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output, ...(cached !== undefined ? { prompt_tokens_details: { cached_tokens: cached } } : {}) },
      }),
    });
  }
  events.push({ data: '[DONE]' });
  return events;
}

function anthropicEvents(text: string, calls: ScriptedToolCall[], shape: StreamShape): WireEvent[] {
  const ev = (event: string, body: object): WireEvent => ({ event, data: JSON.stringify({ type: event, ...body }) });
  const usage = shape.usage;
  const events = [
    ev('message_start', {
      message: {
        id: 'msg_scripted', type: 'message', role: 'assistant', content: [], model: 'scripted', stop_reason: null,
        usage: { input_tokens: usage ? usage.input - (usage.cached ?? 0) : 0, output_tokens: 1, ...(usage?.cached !== undefined ? { cache_read_input_tokens: usage.cached } : {}) },
      },
    }),
  ];
  let block = 0;
  if (text) {
    events.push(ev('content_block_start', { index: block, content_block: { type: 'text', text: '' } }));
    for (const part of pieces(text, shape.chunkSize ?? 4)) events.push(ev('content_block_delta', { index: block, delta: { type: 'text_delta', text: part } }));
    events.push(ev('content_block_stop', { index: block++ }));
  }
  for (const call of calls) {
    const id = call.id ?? `toolu_${++idCounter}`;
    events.push(ev('content_block_start', { index: block, content_block: { type: 'tool_use', id, name: call.name, input: {} } }));
    const args = typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments);
    for (const part of pieces(args, 5)) events.push(ev('content_block_delta', { index: block, delta: { type: 'input_json_delta', partial_json: part } }));
    events.push(ev('content_block_stop', { index: block++ }));
  }
  events.push(ev('message_delta', { delta: { stop_reason: calls.length > 0 ? 'tool_use' : 'end_turn', stop_sequence: null }, usage: { output_tokens: usage?.output ?? 0 } }));
  events.push(ev('message_stop', {}));
  return events;
}

function errorBody(format: Format, status: number): string {
  const message = `scripted HTTP ${status}`;
  return JSON.stringify(format === 'openai'
    ? { error: { message, type: status === 429 ? 'rate_limit_exceeded' : 'server_error', code: null } }
    : { type: 'error', error: { type: status === 429 ? 'rate_limit_error' : 'api_error', message } });
}

function encode(event: WireEvent): string {
  return `${event.event ? `event: ${event.event}\n` : ''}data: ${event.data}\n\n`;
}

const wait = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function respond(step: ScriptStep, format: Format, request: RecordedRequest, res: http.ServerResponse): Promise<void> {
  if (typeof step === 'function') return respond(await step(request), format, request, res);
  if ('status' in step) {
    res.writeHead(step.status, {
      'content-type': 'application/json',
      ...(step.retryAfter !== undefined ? { 'retry-after': String(step.retryAfter) } : {}),
    });
    res.end(step.body ?? errorBody(format, step.status));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const build = format === 'openai' ? openAiEvents : anthropicEvents;
  if ('malformed' in step) {
    const [first] = build('', [], {});
    res.write(encode(first!));
    res.end(format === 'openai' ? 'data: {"choices": [\n\n' : 'event: content_block_delta\ndata: {"type": oops\n\n');
    return;
  }
  const calls = 'toolCalls' in step ? step.toolCalls : [];
  // Only the cut-off steps need text of their own; a tool-call step without text has none.
  const text = step.text ?? ('toolCalls' in step ? '' : 'partial answer that never ends');
  const events = build(text, calls, step);
  const cut = 'disconnectAfterEvents' in step ? step.disconnectAfterEvents : 'stallAfterEvents' in step ? step.stallAfterEvents : events.length;
  for (const event of events.slice(0, cut)) {
    if (res.destroyed) return;
    res.write(encode(event));
    if (step.delayMs) await wait(step.delayMs);
  }
  if ('disconnectAfterEvents' in step) {
    // Give the written events a moment to leave before the reset, as when a proxy drops a live stream.
    await wait(20);
    res.socket?.destroy();
  } else if (!('stallAfterEvents' in step)) {
    res.end();
  }
}

export async function startScriptedProvider(steps: ScriptStep[] = []): Promise<ScriptedProvider> {
  const script = [...steps];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Recorded as raw text: a test may want to see exactly what a broken client sent.
      }
      const path = (req.url ?? '/').split('?')[0] ?? '/';
      const recorded: RecordedRequest = { method: req.method ?? '', path, headers: req.headers, body, receivedAt: Date.now() };
      requests.push(recorded);
      const format = formatOf(path);
      if (!format || req.method !== 'POST') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end(`scripted provider: no route for ${req.method} ${path}`);
        return;
      }
      const step = script.shift();
      if (!step) {
        res.writeHead(500, { 'content-type': 'text/plain' }).end('script exhausted');
        return;
      }
      respond(step, format, recorded, res).catch((err: unknown) => {
        // A failing function step (an assertion) must reach the test: 400, so the client does not retry past it.
        if (!res.headersSent) res.writeHead(400, { 'content-type': 'text/plain' });
        res.end(`scripted step failed: ${err instanceof Error ? err.message : String(err)}`);
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    push: (...more) => void script.push(...more),
    remaining: () => script.length,
    openSockets: () => sockets.size,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const socket of sockets) socket.destroy();
        server.close((err) => (err ? reject(err) : resolve()));
      }),
  };
}
