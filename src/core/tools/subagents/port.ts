/**
 * What the `subagents` tool asks of the agent layer, which fills it in (tools/ never imports
 * agent/). Each runtime carries the runner of its own agent, so depth is known where a call runs.
 */
export interface SubagentTask {
  /** The child's instructions: self-contained, since the child sees nothing of the parent's conversation. */
  task: string;
  /** A discovered identity's name, or undefined for the default agent. */
  identity?: string;
  /** A short label for people watching (not sent to the child). */
  label?: string;
}

export interface SubagentTaskResult {
  status: 'completed' | 'failed';
  /** The child's final answer, or why it failed; bounded by the caller's byte cap. */
  output: string;
  turns: number;
  /** The identity that ran, when one was named. */
  identity?: string;
}

export interface SubagentRunner {
  /** Whether this agent may spawn children (false at the maximum depth). */
  readonly canSpawn: boolean;
  /** Tasks one call may hold (capabilities.tools.subagents.max_tasks). */
  readonly maxTasks: number;
  /** Bytes of each task's answer the parent sees (capabilities.tools.subagents.max_output_bytes). */
  readonly maxOutputBytes: number;
  /** Names of the discovered identities. */
  identityNames(): string[];
  /**
   * Runs the tasks as parallel child sessions (bounded by max_parallel) and resolves with one
   * result per task, in order, once all have ended. `onTaskEnd` reports each as it finishes.
   * Never rejects for a child's failure; an aborted signal ends every child as failed.
   */
  run(tasks: readonly SubagentTask[], signal: AbortSignal, onTaskEnd?: (index: number, result: SubagentTaskResult) => void): Promise<SubagentTaskResult[]>;
}
