/**
 * Anthropic Messages: the request body (system at the top level, strictly alternating roles, tool
 * results as `tool_result` blocks) and a decoder for its typed stream events.
 */
import type { ChatMessage, Usage } from '../messages';
import { ProviderError, type ModelRequest, type StopReason, type StreamEvent } from '../provider';
import { excerpt, httpError, malformedError, where, type ProviderContext } from './errors';
import type { JsonPost } from './http';
import { isObject, num, obj, parseChunk, str, wrapReminder, type JsonObject } from './json';
import type { SseMessage } from './sse';
import type { WireDecoder } from './stream';

export const ANTHROPIC_VERSION = '2023-06-01';

/** Accepts https://api.anthropic.com as well as https://api.anthropic.com/v1 (what people paste). */
export function anthropicUrl(baseUrl: string): string {
  const base = baseUrl.replace(/\/+$/, '');
  return base.endsWith('/v1') ? `${base}/messages` : `${base}/v1/messages`;
}

interface WireMessage {
  role: 'user' | 'assistant';
  content: JsonObject[];
}

/** The input object of a replayed tool call; arguments that were never valid JSON replay as `{}` (the tool already answered with an error). */
function toolInput(args: string): JsonObject {
  try {
    const value: unknown = JSON.parse(args);
    return isObject(value) ? value : {};
  } catch {
    return {};
  }
}

/**
 * Maps the conversation to Messages' rules: roles alternate (adjacent user-side content — text,
 * reminders, tool results — merges into one user message), tool results come first in their user
 * message, and no text block is empty.
 */
export function toAnthropicMessages(messages: readonly ChatMessage[]): WireMessage[] {
  const out: WireMessage[] = [];
  const append = (role: WireMessage['role'], blocks: JsonObject[]): void => {
    if (blocks.length === 0) return;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else out.push({ role, content: blocks });
  };
  const text = (value: string): JsonObject[] => (value ? [{ type: 'text', text: value }] : []);
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        append('user', text(message.content));
        break;
      case 'reminder':
        append('user', text(wrapReminder(message.content)));
        break;
      case 'tool':
        append('user', [{ type: 'tool_result', tool_use_id: message.toolCallId, content: message.content, is_error: message.isError }]);
        break;
      case 'assistant':
        append('assistant', [
          ...text(message.content),
          ...message.toolCalls.map((call) => ({ type: 'tool_use', id: call.id, name: call.name, input: toolInput(call.arguments) })),
        ]);
        break;
    }
  }
  for (const message of out) {
    if (message.role === 'user') {
      // Stable sort: tool results first, as the API requires, the rest in conversation order.
      message.content.sort((a, b) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result'));
    }
  }
  return out;
}

export function anthropicPost(baseUrl: string, model: string, request: ModelRequest, headers: Record<string, string>): JsonPost {
  const body: JsonObject = {
    model,
    max_tokens: request.maxOutputTokens,
    stream: true,
    messages: toAnthropicMessages(request.messages),
  };
  if (request.system) body.system = request.system;
  if (request.tools.length > 0) {
    body.tools = request.tools.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.parameters }));
  }
  return { url: anthropicUrl(baseUrl), headers: { 'anthropic-version': ANTHROPIC_VERSION, ...headers }, body };
}

function stopReason(reason: string | undefined): StopReason {
  switch (reason) {
    case 'end_turn':
    case 'stop_sequence':
      return 'end';
    case 'tool_use':
      return 'tool_calls';
    case 'max_tokens':
      return 'max_tokens';
    default:
      return 'other';
  }
}

/** HTTP statuses Anthropic documents for each error type, so a mid-stream error is judged like the same status would be. */
const ERROR_STATUS: Record<string, number> = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
};

interface ToolBlock {
  index: number;
  id: string;
  name: string;
  args: string;
  /** `input` given whole in content_block_start (some proxies), used when no delta follows. */
  startInput: JsonObject | undefined;
}

export class AnthropicDecoder implements WireDecoder {
  finished = false;
  readonly completeWithoutMarker = false;
  private readonly tools = new Map<number, ToolBlock>();
  private toolCount = 0;
  private stop: string | undefined;
  private readonly usageParts = { input: 0, cacheCreation: 0, cacheRead: undefined as number | undefined, output: 0 };
  private sawUsage = false;

  constructor(private readonly ctx: ProviderContext) {}

  accept(message: SseMessage): StreamEvent[] {
    const data = parseChunk(message.data, this.ctx);
    const type = str(data.type) ?? message.event;
    switch (type) {
      case 'message_start':
        this.readUsage(obj(obj(data.message)?.usage));
        return [];
      case 'content_block_start':
        return this.startBlock(num(data.index), obj(data.content_block));
      case 'content_block_delta':
        return this.blockDelta(num(data.index), obj(data.delta));
      case 'content_block_stop':
        return this.stopBlock(num(data.index));
      case 'message_delta':
        this.stop = str(obj(data.delta)?.stop_reason) ?? this.stop;
        this.readUsage(obj(data.usage));
        return [];
      case 'message_stop':
        this.finished = true;
        return [];
      case 'error':
        throw this.streamError(obj(data.error), message.data);
      default:
        // `ping`, and event types added later: the API promises new ones may appear and asks clients to ignore them.
        return [];
    }
  }

  close(): StreamEvent[] {
    const out: StreamEvent[] = [];
    for (const index of [...this.tools.keys()]) out.push(...this.stopBlock(index));
    if (this.sawUsage) out.push({ type: 'usage', usage: this.usage() });
    out.push({ type: 'stop', reason: stopReason(this.stop) });
    return out;
  }

  private startBlock(index: number | undefined, block: JsonObject | undefined): StreamEvent[] {
    if (index === undefined || !block) throw malformedError(this.ctx, 'content_block_start without index or content_block');
    if (block.type === 'text') {
      const text = str(block.text);
      return text ? [{ type: 'text_delta', text }] : [];
    }
    if (block.type !== 'tool_use') return []; // thinking and server-tool blocks: nothing the loop consumes
    const id = str(block.id);
    const name = str(block.name);
    if (!id || !name) throw malformedError(this.ctx, 'tool_use block without id or name');
    const input = obj(block.input);
    const tool: ToolBlock = { index: this.toolCount++, id, name, args: '', startInput: input && Object.keys(input).length > 0 ? input : undefined };
    this.tools.set(index, tool);
    return [{ type: 'tool_call_begin', index: tool.index, id, name }];
  }

  private blockDelta(index: number | undefined, delta: JsonObject | undefined): StreamEvent[] {
    if (index === undefined || !delta) throw malformedError(this.ctx, 'content_block_delta without index or delta');
    if (delta.type === 'text_delta') {
      const text = str(delta.text);
      return text ? [{ type: 'text_delta', text }] : [];
    }
    if (delta.type !== 'input_json_delta') return [];
    const tool = this.tools.get(index);
    if (!tool) throw malformedError(this.ctx, `input_json_delta for block ${index}, which is not a tool_use block`);
    const part = str(delta.partial_json) ?? '';
    tool.args += part;
    return part ? [{ type: 'tool_call_delta', index: tool.index, argumentsDelta: part }] : [];
  }

  private stopBlock(index: number | undefined): StreamEvent[] {
    const tool = index === undefined ? undefined : this.tools.get(index);
    if (!tool || index === undefined) return [];
    this.tools.delete(index);
    const args = tool.args || (tool.startInput ? JSON.stringify(tool.startInput) : '{}');
    return [{ type: 'tool_call_end', index: tool.index, id: tool.id, name: tool.name, arguments: args }];
  }

  private readUsage(usage: JsonObject | undefined): void {
    if (!usage) return;
    this.sawUsage = true;
    const parts = this.usageParts;
    // message_delta repeats some counts cumulatively and omits others: each field present replaces, absent ones stay.
    parts.input = num(usage.input_tokens) ?? parts.input;
    parts.cacheCreation = num(usage.cache_creation_input_tokens) ?? parts.cacheCreation;
    parts.cacheRead = num(usage.cache_read_input_tokens) ?? parts.cacheRead;
    parts.output = num(usage.output_tokens) ?? parts.output;
  }

  /** Anthropic's input_tokens excludes cache reads and writes; the total keeps Usage comparable with OpenAI's prompt_tokens. */
  private usage(): Usage {
    const { input, cacheCreation, cacheRead, output } = this.usageParts;
    return {
      inputTokens: input + cacheCreation + (cacheRead ?? 0),
      outputTokens: output,
      ...(cacheRead !== undefined ? { cachedInputTokens: cacheRead } : {}),
    };
  }

  private streamError(error: JsonObject | undefined, raw: string): ProviderError {
    const type = str(error?.type) ?? 'error';
    const status = ERROR_STATUS[type];
    if (status !== undefined) return httpError(this.ctx, status, excerpt(raw, this.ctx.secrets));
    return new ProviderError(`${where(this.ctx)} reported ${type} mid-stream: ${excerpt(raw, this.ctx.secrets)}.`, 'http');
  }
}
