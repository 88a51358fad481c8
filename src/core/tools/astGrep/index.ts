import { defineTool, type ToolDefinition } from '../definition';
import type { ToolResult } from '../result';
import { astGrepInput, validateArgs } from './args';
import { AST_GREP_DESCRIPTION } from './description';
import { runOutline } from './outline/run';
import { runSearch } from './search';

/** Knobs for tests and benchmarks; the tool registered for providers uses the seed's limits. */
export interface AstGrepToolOptions {
  deadlineMs?: number;
  maxFiles?: number;
}

export function createAstGrepTool(options: AstGrepToolOptions = {}): ToolDefinition<typeof astGrepInput> {
  return defineTool({
    name: 'ast_grep',
    aliases: [],
    description: AST_GREP_DESCRIPTION,
    mutates: false,
    input: astGrepInput,
    async execute(raw, ctx): Promise<ToolResult> {
      const args = validateArgs(raw);
      if (args.operation === 'search') return runSearch({ ...args, ...options }, ctx);
      return runOutline({ ...args, ...options }, ctx);
    },
  });
}

export const astGrepTool = createAstGrepTool();
