/**
 * OpenAI Chat Completions (and the many servers that copy it: Ollama, LM Studio, vLLM, OpenRouter):
 * the request body, and a decoder that assembles streamed tool-call deltas per index.
 */
import type { ChatMessage, Usage } from '../messages';
import type { ModelRequest, StopReason, StreamEvent } from '../provider';
import { httpError, excerpt, malformedError, type ProviderContext } from './errors';
import type { JsonPost } from './http';
import { arr, num, obj, parseChunk, str, wrapReminder, type JsonObject } from './json';
import type { SseMessage } from './sse';
import type { WireDecoder } from './stream';

export function openAiUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
}

export function toOpenAiMessages(system: string, messages: readonly ChatMessage[]): JsonObject[] {
  const out: JsonObject[] = system ? [{ role: 'system', content: system }] : [];
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        out.push({ role: 'user', content: message.content });
        break;
      case 'reminder':
        out.push({ role: 'user', content: wrapReminder(message.content) });
        break;
      case 'assistant':
        if (message.toolCalls.length === 0) out.push({ role: 'assistant', content: message.content });
        else {
          out.push({
            role: 'assistant',
            // Some compatible servers reject an empty string next to tool calls; null is what OpenAI itself sends.
            content: message.content || null,
            tool_calls: message.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })),
          });
        }
        break;
      case 'tool':
        // Chat Completions has no error flag for tool results: the text itself says it failed.
        out.push({ role: 'tool', tool_call_id: message.toolCallId, content: message.content });
        break;
    }
  }
  return out;
}

export function openAiPost(baseUrl: string, model: string, request: ModelRequest, headers: Record<string, string>): JsonPost {
  const body: JsonObject = {
    model,
    messages: toOpenAiMessages(request.system, request.messages),
    stream: true,
    stream_options: { include_usage: true },
  };
  // api.openai.com refuses `max_tokens` for its reasoning models; compatible servers mostly know only `max_tokens`.
  body[new URL(baseUrl).hostname === 'api.openai.com' ? 'max_completion_tokens' : 'max_tokens'] = request.maxOutputTokens;
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.parameters } }));
  }
  return { url: openAiUrl(baseUrl), headers, body };
}

function stopReason(finish: string | undefined, sawToolCalls: boolean): StopReason {
  switch (finish) {
    case 'tool_calls':
    case 'function_call':
      return 'tool_calls';
    case 'length':
      return 'max_tokens';
    case 'stop':
    case undefined:
      // Some local servers report `stop` (or nothing) after tool calls; the calls are what the loop must act on.
      return sawToolCalls ? 'tool_calls' : 'end';
    default:
      return 'other';
  }
}

interface CallState {
  /** Our index: the order in which calls first appeared in this turn. */
  index: number;
  id: string;
  name: string;
  args: string;
  begun: boolean;
  ended: boolean;
}

export class OpenAiDecoder implements WireDecoder {
  finished = false;
  private finishReason: string | undefined;
  private readonly calls = new Map<number, CallState>();
  private usage: Usage | undefined;

  constructor(private readonly ctx: ProviderContext) {}

  get completeWithoutMarker(): boolean {
    return this.finishReason !== undefined;
  }

  accept(message: SseMessage): StreamEvent[] {
    if (message.data.trim() === '[DONE]') {
      this.finished = true;
      return [];
    }
    const chunk = parseChunk(message.data, this.ctx);
    if (chunk.error !== undefined) {
      // OpenRouter and others report failures mid-stream as a chunk with an `error` object.
      const status = num(obj(chunk.error)?.code) ?? 500;
      throw httpError(this.ctx, status, excerpt(message.data, this.ctx.secrets));
    }
    this.readUsage(obj(chunk.usage));
    const out: StreamEvent[] = [];
    const choice = obj(arr(chunk.choices)?.[0]);
    if (!choice) return out;
    const delta = obj(choice.delta);
    const text = str(delta?.content);
    if (text) out.push({ type: 'text_delta', text });
    const toolCalls = arr(delta?.tool_calls) ?? [];
    toolCalls.forEach((raw, position) => this.acceptToolCall(obj(raw), position, out));
    const finish = str(choice.finish_reason);
    if (finish) {
      this.finishReason = finish;
      out.push(...this.endCalls());
    }
    return out;
  }

  close(): StreamEvent[] {
    const out = this.endCalls();
    if (this.usage) out.push({ type: 'usage', usage: this.usage });
    out.push({ type: 'stop', reason: stopReason(this.finishReason, this.calls.size > 0) });
    return out;
  }

  private acceptToolCall(raw: JsonObject | undefined, position: number, out: StreamEvent[]): void {
    if (!raw) throw malformedError(this.ctx, 'a tool_calls entry is not an object');
    const wireIndex = num(raw.index) ?? position;
    let call = this.calls.get(wireIndex);
    if (!call) {
      call = { index: this.calls.size, id: '', name: '', args: '', begun: false, ended: false };
      this.calls.set(wireIndex, call);
    }
    const fn = obj(raw.function);
    call.id ||= str(raw.id) ?? '';
    // The name comes whole in one delta; later repeats of it (some servers send one per delta) are not appended.
    call.name ||= str(fn?.name) ?? '';
    const argsDelta = str(fn?.arguments) ?? '';
    call.args += argsDelta;
    if (!call.begun && call.name) {
      call.begun = true;
      // A server that omits ids still needs answers matched to calls: derive a stable one.
      call.id ||= `call_${call.index}`;
      out.push({ type: 'tool_call_begin', index: call.index, id: call.id, name: call.name });
      if (call.args) out.push({ type: 'tool_call_delta', index: call.index, argumentsDelta: call.args });
    } else if (call.begun && argsDelta) {
      out.push({ type: 'tool_call_delta', index: call.index, argumentsDelta: argsDelta });
    }
  }

  private endCalls(): StreamEvent[] {
    const out: StreamEvent[] = [];
    for (const call of this.calls.values()) {
      if (call.ended) continue;
      if (!call.begun) throw malformedError(this.ctx, `tool call ${call.index} never named its function`);
      call.ended = true;
      out.push({ type: 'tool_call_end', index: call.index, id: call.id, name: call.name, arguments: call.args || '{}' });
    }
    return out;
  }

  private readUsage(usage: JsonObject | undefined): void {
    if (!usage) return;
    const cached = num(obj(usage.prompt_tokens_details)?.cached_tokens);
    this.usage = {
      inputTokens: num(usage.prompt_tokens) ?? 0,
      outputTokens: num(usage.completion_tokens) ?? 0,
      ...(cached !== undefined ? { cachedInputTokens: cached } : {}),
    };
  }
}
