import type { z } from 'zod';
import type { ToolResult } from './result';
import type { ToolRuntime } from './runtime';

export interface ToolContext {
  runtime: ToolRuntime;
  /** Aborts this call: the session's signal combined with the caller's. */
  signal: AbortSignal;
  /** True when a recorded call is replayed from a session; enables replay-only legacy fields. */
  replay: boolean;
  /** Reports progress of a long call to whoever watches (the activity stream's tool_update). */
  progress?: (message: string) => void;
}

/**
 * One tool: canonical name, aliases, the schema that validates its arguments (strict: unknown
 * fields are rejected), the schema providers see (defaults to the same), and its implementation.
 */
export interface ToolDefinition<S extends z.ZodType = z.ZodType> {
  name: string;
  aliases: readonly string[];
  /** What the model reads; states the limits. */
  description: string;
  /** Whether the tool changes files; mutating calls of one turn run in order. */
  mutates: boolean;
  input: S;
  /** A narrower schema offered to providers (read hides its replay-only fields). */
  providerInput?: z.ZodType;
  /**
   * Why the tool cannot run in this runtime (no language services in the CLI, Restricted Mode for a
   * mutating tool), or undefined when it can. Such a tool is not offered to the model, and a call
   * to it is answered with this reason.
   */
  unavailable?(runtime: ToolRuntime): string | undefined;
  /** Never throws for bad input the model can fix: throws ToolError, which dispatch turns into an error result. */
  execute(args: z.output<S>, ctx: ToolContext): Promise<ToolResult>;
}

/** `unavailable` of the tools that change files or run commands: not offered in Restricted Mode. */
export function unavailableWhenRestricted(runtime: ToolRuntime): string | undefined {
  return runtime.restricted;
}

export function defineTool<S extends z.ZodType>(definition: ToolDefinition<S>): ToolDefinition<S> {
  return definition;
}
