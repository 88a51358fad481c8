import { ACTIVITY_OUTPUT_CAP, type ActivityBody } from '../activity';
import { clipUtf8 } from '../process/capture';
import { dispatchTool } from '../tools/dispatch';
import type { ToolRegistry } from '../tools/registry';
import { failure, providerText, visibleOutput, type ToolResult } from '../tools/result';
import type { ToolRuntime } from '../tools/runtime';
import type { ChatMessage, ToolCall } from './messages';
import type { SessionRecorder } from './ports';
import { toolResultEvent } from './session';
import { pendingSummary } from './toolSummary';

export interface ToolCallsOptions {
  registry: ToolRegistry;
  runtime: ToolRuntime;
  /** Canonical names the model was offered; a call to anything else is answered with an error. */
  offered: ReadonlySet<string>;
  turn: number;
  signal: AbortSignal;
  emit: (body: ActivityBody) => void;
  session: SessionRecorder | undefined;
}

export interface ToolCallsOutcome {
  /** One tool message per call, in the order the model made them. */
  messages: ChatMessage[];
  /** Tools that were still running when the signal aborted. */
  interrupted: string[];
}

/**
 * Runs one turn's tool calls. Consecutive read-only calls run concurrently; a mutating call waits
 * for everything before it and runs alone (its files are also guarded by the runtime's mutation
 * locks, shared with subagents). So a read that follows a write in the model's order sees it.
 * A failing call becomes an error result for the model; nothing here throws for a tool's sake.
 */
export async function runToolCalls(calls: readonly ToolCall[], options: ToolCallsOptions): Promise<ToolCallsOutcome> {
  const running = new Map<string, string>();
  const interrupted: string[] = [];
  const onAbort = (): void => void interrupted.push(...running.values());
  options.signal.addEventListener('abort', onAbort, { once: true });
  try {
    const messages: ChatMessage[] = new Array(calls.length);
    let batch: Promise<void>[] = [];
    for (const [i, call] of calls.entries()) {
      const run = async (): Promise<void> => {
        running.set(call.id, call.name);
        messages[i] = await runOne(call, options);
        running.delete(call.id);
      };
      if (mutates(call, options.registry)) {
        await Promise.all(batch);
        batch = [];
        await run();
      } else {
        batch.push(run());
      }
    }
    await Promise.all(batch);
    return { messages, interrupted };
  } finally {
    options.signal.removeEventListener('abort', onAbort);
  }
}

function mutates(call: ToolCall, registry: ToolRegistry): boolean {
  return registry.get(call.name)?.mutates ?? false;
}

/** Parses the model's raw arguments; a mistake becomes a message the model can act on. */
function parseArguments(call: ToolCall): { args: unknown } | { error: string } {
  if (call.arguments.trim() === '') return { args: {} };
  try {
    return { args: JSON.parse(call.arguments) as unknown };
  } catch (err) {
    return { error: `${call.name}: the arguments are not valid JSON (${err instanceof Error ? err.message : String(err)}); send one JSON object.` };
  }
}

async function runOne(call: ToolCall, options: ToolCallsOptions): Promise<ChatMessage> {
  const { registry, runtime, turn, emit } = options;
  const tool = registry.get(call.name);
  const name = tool?.name ?? call.name;
  const parsed = parseArguments(call);
  const args = 'args' in parsed ? parsed.args : undefined;
  emit({ type: 'tool_start', turn, callId: call.id, tool: name, summary: pendingSummary(name, args), mutates: tool?.mutates ?? false });
  const started = performance.now();
  let result: ToolResult;
  if ('error' in parsed) result = failure(parsed.error);
  else if (tool && !options.offered.has(tool.name) && tool.unavailable?.(runtime) === undefined) result = failure(`${tool.name} is not available to this agent; use one of: ${[...options.offered].join(', ')}.`);
  else {
    const progress = (message: string): void => emit({ type: 'tool_update', callId: call.id, tool: name, message });
    result = (await dispatchTool(registry, runtime, call.name, args, { signal: options.signal, progress })).result;
  }
  const durationMs = Math.round(performance.now() - started);
  const forProvider = providerText(result);
  const output = visibleOutput(result);
  const shown = clipUtf8(output, ACTIVITY_OUTPUT_CAP, 'start');
  const bytesOut = Buffer.byteLength(forProvider);
  emit({
    type: 'tool_end',
    turn,
    callId: call.id,
    tool: name,
    status: result.status,
    metadata: result.metadata,
    output: shown,
    outputTruncated: shown.length < output.length,
    durationMs,
    bytesIn: Buffer.byteLength(call.arguments),
    bytesOut,
    tokens: Math.ceil(bytesOut / 4),
    ...(result.display ? { display: result.display } : {}),
  });
  await options.session?.append(toolResultEvent(turn, call.id, name, result));
  return { role: 'tool', toolCallId: call.id, name, content: forProvider, isError: result.status === 'error' };
}
