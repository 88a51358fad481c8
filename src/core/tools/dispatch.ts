import { z } from 'zod';
import { ToolError, messageOf } from './errors';
import { withProviderView } from './bash/compression';
import { failure, type ToolResult } from './result';
import type { ToolRegistry } from './registry';
import type { ToolRuntime } from './runtime';
import { describeIssues } from './validation';

export interface DispatchOptions {
  /** Cancels this call; combined with the runtime's session signal. */
  signal?: AbortSignal;
  /** Replaying a recorded call from a session (enables replay-only legacy fields). */
  replay?: boolean;
  /** Receives the tool's progress messages. */
  progress?: (message: string) => void;
}

export interface DispatchOutcome {
  /** Canonical name, or the requested name when no tool matched. */
  tool: string;
  result: ToolResult;
}

function fieldsOf(schema: z.ZodType): string[] {
  return schema instanceof z.ZodObject ? Object.keys(schema.shape) : [];
}

/** Tools of the older seed that are gone, with what to call instead. */
const RETIRED_TOOLS: Record<string, string> = {
  web_search: 'use `web` with one query per call: {"operation": "search", "query": "...", "limit": 5}.',
  code_search: 'use `web` with one query per call: {"operation": "search", "query": "...", "limit": 5}, or grep/ast_grep for this workspace.',
};

/**
 * The one way a tool runs: look up (aliases too), validate strictly, execute, and turn every
 * failure — unknown tool, bad arguments, a thrown error — into an error result. Never throws.
 */
export async function dispatchTool(registry: ToolRegistry, runtime: ToolRuntime, name: string, rawArgs: unknown, options: DispatchOptions = {}): Promise<DispatchOutcome> {
  const tool = registry.get(name);
  if (!tool) {
    const replacement = RETIRED_TOOLS[name];
    if (replacement !== undefined) return { tool: name, result: failure(`\`${name}\` is retired: ${replacement}`) };
    return { tool: name, result: failure(`Unknown tool \`${name}\`. Available tools: ${registry.names().join(', ')}.`) };
  }
  const unavailable = tool.unavailable?.(runtime);
  if (unavailable !== undefined) return { tool: tool.name, result: failure(`${tool.name} is not available: ${unavailable}`, { error: 'unavailable' }) };
  const parsed = tool.input.safeParse(rawArgs ?? {});
  if (!parsed.success) {
    return { tool: tool.name, result: failure(describeIssues(tool.name, parsed.error, fieldsOf(tool.providerInput ?? tool.input))) };
  }
  const signals = [runtime.signal, options.signal].filter((s): s is AbortSignal => s !== undefined);
  const signal = signals.length ? AbortSignal.any(signals) : new AbortController().signal;
  if (signal.aborted) return { tool: tool.name, result: failure(`${tool.name}: cancelled before it started.`, { cancelled: true }) };
  try {
    const result = await tool.execute(parsed.data, { runtime, signal, replay: options.replay ?? false, ...(options.progress ? { progress: options.progress } : {}) });
    return { tool: tool.name, result: withProviderView(tool.name, parsed.data, result, runtime.settings) };
  } catch (err) {
    if (err instanceof ToolError) return { tool: tool.name, result: failure(err.message, { error: err.code }) };
    if (signal.aborted) return { tool: tool.name, result: failure(`${tool.name}: cancelled.`, { cancelled: true }) };
    return { tool: tool.name, result: failure(`${tool.name} failed: ${messageOf(err)}`, { error: 'internal' }) };
  }
}
