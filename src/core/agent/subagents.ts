import type { ToolRegistry } from '../tools/registry';
import type { ToolRuntime } from '../tools/runtime';
import type { SubagentRunner, SubagentTask, SubagentTaskResult } from '../tools/subagents/port';
import type { ActivityStream } from './activityStream';
import type { SubagentLimits } from './config';
import type { AgentIdentity } from './context/identities';
import { runAgent } from './loop';
import type { ReminderPolicy } from './ports';
import type { SessionFile } from './session';
import type { ModelProvider } from './provider';

/** Everything a child agent shares with its parent. */
export interface SubagentEnvironment {
  provider: ModelProvider;
  /** The top-level agent's runtime; children derive theirs from it. */
  runtime: ToolRuntime;
  registry: ToolRegistry;
  limits: SubagentLimits;
  maxOutputTokens: number;
  identities: readonly AgentIdentity[];
  /** The tools an agent at `depth` is offered (the identity's list; no `subagents` at the maximum depth). */
  toolsAt(depth: number, identity: AgentIdentity | undefined): string[];
  /** The system prompt of an agent at `depth` (with the identity's instructions first when given). */
  systemPrompt(identity: AgentIdentity | undefined, depth: number, tools: readonly string[]): string;
  stream: ActivityStream;
  reminders?: ReminderPolicy;
  /** A session file for the child named `agent` (e.g. `main/2`); without it children keep none. */
  openSession?(agent: string): Promise<SessionFile>;
}

/**
 * The runner of the agent named `agent` at `depth`: each task becomes a child agent with a fresh
 * runtime (own read snapshots, shared mutation locks, listings and settings), its tools narrowed to
 * the identity's list and without `subagents` at the maximum depth, run `maxParallel` at a time.
 */
export function createSubagentRunner(env: SubagentEnvironment, agent: string, depth: number): SubagentRunner {
  let children = 0;
  const byName = new Map(env.identities.map((i) => [i.name, i]));
  return {
    canSpawn: depth < env.limits.maxDepth,
    maxTasks: env.limits.maxTasks,
    maxOutputBytes: env.limits.maxOutputBytes,
    identityNames: () => [...byName.keys()],
    async run(tasks, signal, onTaskEnd) {
      const names = tasks.map(() => `${agent}/${++children}`);
      const results: SubagentTaskResult[] = new Array(tasks.length);
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < tasks.length) {
          const i = next++;
          results[i] = await runChild(env, tasks[i] as SubagentTask, names[i] as string, depth + 1, byName, signal);
          onTaskEnd?.(i, results[i] as SubagentTaskResult);
        }
      };
      await Promise.all(Array.from({ length: Math.min(env.limits.maxParallel, tasks.length) }, worker));
      return results;
    },
  };
}

async function runChild(env: SubagentEnvironment, task: SubagentTask, agent: string, depth: number, identities: Map<string, AgentIdentity>, signal: AbortSignal): Promise<SubagentTaskResult> {
  const identity = task.identity === undefined ? undefined : identities.get(task.identity);
  const withIdentity = identity ? { identity: identity.name } : {};
  if (signal.aborted) return { status: 'failed', output: 'cancelled before it started', turns: 0, ...withIdentity };
  const tools = env.toolsAt(depth, identity);
  const runtime = env.runtime.derive({ subagents: createSubagentRunner(env, agent, depth) });
  const session = await env.openSession?.(agent);
  try {
    const result = await runAgent({
      provider: env.provider,
      registry: env.registry,
      runtime,
      system: env.systemPrompt(identity, depth, tools),
      task: task.task,
      maxTurns: env.limits.maxTurns,
      maxOutputTokens: env.maxOutputTokens,
      tools,
      ...(session ? { session, sessionFile: session.path } : {}),
      ...(env.reminders ? { reminders: env.reminders } : {}),
      emit: env.stream.forAgent(agent),
      signal,
    });
    if (result.outcome === 'completed') return { status: 'completed', output: result.finalText, turns: result.turns, ...withIdentity };
    return { status: 'failed', output: `${result.outcome}: ${result.error ?? 'no answer'}${result.finalText ? `\nlast text: ${result.finalText}` : ''}`, turns: result.turns, ...withIdentity };
  } finally {
    await session?.close();
  }
}
