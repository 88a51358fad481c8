import { z } from 'zod';
import type { Settings } from '../settings';

/** A setting of the agent that has the wrong type or is out of range; the message names the key. */
export class AgentConfigError extends Error {
  override readonly name = 'AgentConfigError';
}

/** The agent's limits, from settings; defaults chosen so a task can finish but cannot run away. */
export interface AgentLimits {
  /** `agent.max_turns`: model turns of one run (default 50). */
  maxTurns: number;
  /** `agent.max_output_tokens`: output tokens the model may produce per turn (default 8,192). */
  maxOutputTokens: number;
  subagents: SubagentLimits;
}

export interface SubagentLimits {
  /** `capabilities.tools.subagents.max_tasks`: tasks per call (default 8). */
  maxTasks: number;
  /** `capabilities.tools.subagents.max_parallel`: tasks running at once (default 3). */
  maxParallel: number;
  /** `capabilities.tools.subagents.max_depth`: the top-level agent is depth 0; an agent at this depth cannot spawn (default 1). */
  maxDepth: number;
  /** `capabilities.tools.subagents.max_output_bytes`: the parent sees at most this much of each task's answer (default 16 KiB). */
  maxOutputBytes: number;
  /** `capabilities.tools.subagents.max_turns`: turns of each child (default 30). */
  maxTurns: number;
}

const FIELDS = {
  'agent.max_turns': { min: 1, max: 1000, fallback: 50 },
  'agent.max_output_tokens': { min: 256, max: 200_000, fallback: 8192 },
  'capabilities.tools.subagents.max_tasks': { min: 1, max: 32, fallback: 8 },
  'capabilities.tools.subagents.max_parallel': { min: 1, max: 16, fallback: 3 },
  'capabilities.tools.subagents.max_depth': { min: 0, max: 4, fallback: 1 },
  'capabilities.tools.subagents.max_output_bytes': { min: 1024, max: 65_536, fallback: 16_384 },
  'capabilities.tools.subagents.max_turns': { min: 1, max: 500, fallback: 30 },
} as const;

function integer(settings: Settings, key: keyof typeof FIELDS): number {
  const { min, max, fallback } = FIELDS[key];
  const value = settings.get(key);
  if (value === undefined || value === null) return fallback;
  const parsed = z.number().int().min(min).max(max).safeParse(value);
  if (!parsed.success) throw new AgentConfigError(`setting ${key} must be a whole number from ${min} to ${max} (default ${fallback}), not ${JSON.stringify(value)}`);
  return parsed.data;
}

/** Reads and validates every agent limit up front, so a bad setting fails before the first turn. */
export function agentLimits(settings: Settings): AgentLimits {
  return {
    maxTurns: integer(settings, 'agent.max_turns'),
    maxOutputTokens: integer(settings, 'agent.max_output_tokens'),
    subagents: {
      maxTasks: integer(settings, 'capabilities.tools.subagents.max_tasks'),
      maxParallel: integer(settings, 'capabilities.tools.subagents.max_parallel'),
      maxDepth: integer(settings, 'capabilities.tools.subagents.max_depth'),
      maxOutputBytes: integer(settings, 'capabilities.tools.subagents.max_output_bytes'),
      maxTurns: integer(settings, 'capabilities.tools.subagents.max_turns'),
    },
  };
}
