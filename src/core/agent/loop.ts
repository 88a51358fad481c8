import type { ActivityBody, RunOutcome } from '../activity';
import type { ToolRegistry } from '../tools/registry';
import type { ToolRuntime } from '../tools/runtime';
import type { ChatMessage, Usage } from './messages';
import type { ReminderPolicy, SessionRecorder } from './ports';
import { ProviderError, type ModelProvider, type ModelToolSpec } from './provider';
import { runToolCalls } from './toolCalls';
import { assistantMessage, streamAttempt } from './turn';

export interface AgentRunOptions {
  provider: ModelProvider;
  registry: ToolRegistry;
  runtime: ToolRuntime;
  system: string;
  task: string;
  /** The conversation so far when a session is resumed. */
  history?: readonly ChatMessage[];
  maxTurns: number;
  maxOutputTokens: number;
  /** Canonical tool names offered to the model; default every registered tool. */
  tools?: readonly string[];
  session?: SessionRecorder;
  /** Where the session is written, for the `run_start` event. */
  sessionFile?: string | null;
  reminders?: ReminderPolicy;
  emit: (body: ActivityBody) => void;
  signal: AbortSignal;
}

export interface AgentRunResult {
  outcome: RunOutcome;
  /** The last assistant text. */
  finalText: string;
  turns: number;
  usage: Usage;
  error?: string;
  /** The whole conversation, history included. */
  messages: ChatMessage[];
}

/**
 * The agent loop: a streamed model turn, its tool calls run through the registry, their results
 * fed back, until the model answers without calling a tool, the turn limit is reached, the provider
 * fails, or the signal aborts. Every step is emitted as activity and recorded in the session.
 * Never throws for the model's, the tools' or the provider's sake; the outcome says how it ended.
 */
export async function runAgent(options: AgentRunOptions): Promise<AgentRunResult> {
  const { provider, registry, emit, signal, session } = options;
  const started = performance.now();
  const messages: ChatMessage[] = [...(options.history ?? []), { role: 'user', content: options.task }];
  const specs = offeredSpecs(registry, options.tools);
  const offered = new Set(specs.map((s) => s.name));
  const usage: Usage = { inputTokens: 0, outputTokens: 0 };
  let finalText = '';
  let turn = 0;

  emit({ type: 'run_start', task: options.task, cwd: options.runtime.root, provider: provider.kind, model: provider.model, sessionFile: options.sessionFile ?? null, resumed: (options.history?.length ?? 0) > 0 });
  await session?.append({ type: 'user', text: options.task });

  const finish = async (outcome: RunOutcome, error?: string): Promise<AgentRunResult> => {
    if (error !== undefined) emit({ type: 'error', turn: turn || null, kind: outcome, message: error });
    await session?.append({ type: 'run_end', outcome, ...(error !== undefined ? { error } : {}) });
    emit({ type: 'run_end', outcome, turns: turn, durationMs: Math.round(performance.now() - started), finalText, ...(error !== undefined ? { error } : {}) });
    return { outcome, finalText, turns: turn, usage, messages, ...(error !== undefined ? { error } : {}) };
  };
  const cancelled = async (tools: string[]): Promise<AgentRunResult> => {
    emit({ type: 'cancelled', turn: turn || null, tools });
    await session?.append({ type: 'cancelled', turn: turn || null, tools });
    return finish('cancelled');
  };

  while (turn < options.maxTurns) {
    turn++;
    if (signal.aborted) return cancelled([]);
    const reminders = options.reminders?.startTurn();
    let outcome;
    for (let attempt = 1; ; attempt++) {
      emit({ type: 'turn_start', turn, attempt });
      try {
        outcome = await streamAttempt({
          provider,
          request: { system: options.system, messages, tools: specs, maxOutputTokens: options.maxOutputTokens },
          turn,
          signal,
          emit,
          reminders: reminders?.canRetry() ? reminders.startAttempt() : undefined,
        });
      } catch (err) {
        if (signal.aborted) return cancelled([]);
        return finish('failed', err instanceof ProviderError ? err.message : `provider failed: ${err instanceof Error ? err.message : String(err)}`);
      }
      if (outcome.kind === 'message') break;
      const { fired } = outcome;
      emit({ type: 'reminder', turn, rule: fired.rule, source: fired.source, attempt });
      await session?.append({ type: 'ttsr_injection', hidden: true, turn, rule: fired.rule, reminder: fired.reminder, source: fired.source });
      messages.push({ role: 'reminder', content: fired.reminder });
    }
    if (outcome.usage) {
      usage.inputTokens += outcome.usage.inputTokens;
      usage.outputTokens += outcome.usage.outputTokens;
      emit({ type: 'usage', turn, inputTokens: outcome.usage.inputTokens, outputTokens: outcome.usage.outputTokens, totalInputTokens: usage.inputTokens, totalOutputTokens: usage.outputTokens });
    }
    messages.push(assistantMessage(outcome));
    finalText = outcome.text;
    await session?.append({ type: 'assistant', turn, text: outcome.text, toolCalls: outcome.toolCalls, ...(outcome.usage ? { usage: outcome.usage } : {}) });
    if (outcome.toolCalls.length === 0) return finish('completed');

    const tools = await runToolCalls(outcome.toolCalls, { registry, runtime: options.runtime, offered, turn, signal, emit, session });
    messages.push(...tools.messages);
    if (signal.aborted) return cancelled(tools.interrupted);
  }
  return finish('turn_limit', `stopped after ${options.maxTurns} turns without a final answer (setting agent.max_turns); resume the session to continue.`);
}

function offeredSpecs(registry: ToolRegistry, names: readonly string[] | undefined): ModelToolSpec[] {
  const specs = registry.providerSpecs();
  if (names === undefined) return specs;
  const wanted = new Set(names.map((n) => registry.get(n)?.name ?? n));
  return specs.filter((s) => wanted.has(s.name));
}
