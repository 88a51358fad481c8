import { astGrepTool } from './astGrep';
import { bashTool } from './bash';
import { browserTool } from './browser';
import type { ToolDefinition } from './definition';
import { findTool } from './find';
import { grepTool } from './grep';
import { hashEditTool } from './hashEdit';
import { definitionTool, diagnosticsTool, referencesTool, symbolsTool } from './language';
import { listFilesTool } from './listFiles';
import { readTool } from './read';
import { repoMapTool } from './repoMap';
import { subagentsTool } from './subagents';
import { webTool } from './web';
import { viewImageTool } from './viewImage';
import { ToolRegistry } from './registry';
import { writeTool } from './write';

/** Every built-in tool of the core, in no particular order (the registry orders them). */
export const BUILTIN_TOOLS: readonly ToolDefinition[] = [
  readTool, hashEditTool, writeTool, bashTool, findTool, listFilesTool, grepTool, repoMapTool, astGrepTool, diagnosticsTool, referencesTool, definitionTool, symbolsTool, webTool, browserTool, subagentsTool,
  viewImageTool,
];

/** A registry holding every built-in tool. */
export function createDefaultRegistry(): ToolRegistry {
  return new ToolRegistry(BUILTIN_TOOLS);
}
