/**
 * Provider-visible output compression for `bash` (`capabilities.tools.output_compression.enabled`,
 * default false; the older `tools.output_compression.enabled` is an alias). For a recognised simple
 * command the provider gets a deterministic summary in `ToolResult.providerContent`; `content`
 * — what the user sees and the session keeps — stays the raw output. Compound commands, unknown
 * commands and output a rule cannot read pass through unchanged. To add a rule, see README
 * "Output compression".
 */
import type { Settings } from '../../../settings';
import type { ToolResult } from '../../result';
import { simpleCommandWords } from './command';
import { cargoCheck, cargoTest } from './rules/cargo';
import { gitDiff, gitStatus } from './rules/git';
import { mocha } from './rules/mocha';
import { pytest } from './rules/pytest';
import { tsc } from './rules/tsc';
import { linesOf, type CompressionRule } from './types';

export type { CompressionRule } from './types';
export { simpleCommandWords } from './command';

export const OUTPUT_COMPRESSION_KEY = 'capabilities.tools.output_compression.enabled';

/** Every rule, tried in order; the first that matches the command decides. */
export const COMPRESSION_RULES: readonly CompressionRule[] = [gitStatus, gitDiff, cargoCheck, cargoTest, tsc, mocha, pytest];

export interface Compressed {
  rule: string;
  /** The marker line, then the rule's summary. */
  text: string;
}

/** The rule for a command, or undefined when it is compound or no rule knows it. */
export function findRule(command: string, rules: readonly CompressionRule[] = COMPRESSION_RULES): CompressionRule | undefined {
  const words = simpleCommandWords(command);
  return words ? rules.find((rule) => rule.matches(words)) : undefined;
}

function lineCount(text: string): number {
  const lines = linesOf(text);
  return lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
}

/**
 * The summary the provider should see instead of `output`, or undefined to send the output as it
 * is: the command is compound or unknown, its rule cannot read the output, or the summary would
 * not be shorter than the output. Pure and deterministic; never throws.
 */
export function compressOutput(command: string, output: string, exitCode: number | null, rules: readonly CompressionRule[] = COMPRESSION_RULES): Compressed | undefined {
  const rule = findRule(command, rules);
  if (!rule) return undefined;
  let body: string | undefined;
  try {
    body = rule.summarize(output, exitCode);
  } catch {
    return undefined;
  }
  if (body === undefined) return undefined;
  const marker = `[compressed ${rule.name} output: ${lineCount(output)} lines → ${lineCount(body)}. For the raw output rerun piped through \`| cat\`, or set ${OUTPUT_COMPRESSION_KEY}=false]`;
  const text = `${marker}\n${body}`;
  return text.length < output.length ? { rule: rule.name, text } : undefined;
}

/** Splits off the bash tool's own closing status lines (`[exit 1]`, `[warning: …]`), kept verbatim. */
function splitTrailer(content: string): { output: string; trailer: string[] } {
  const lines = linesOf(content);
  const trailer: string[] = [];
  while (lines.length > 0 && /^\[.*\]$/.test(lines[lines.length - 1] ?? '')) trailer.unshift(lines.pop() ?? '');
  return { output: lines.join('\n'), trailer };
}

/**
 * Dispatch's one hook: for the `bash` tool with compression on, returns `result` with
 * `providerContent` set to the summary of its output; otherwise returns `result` unchanged.
 * The exit code comes from `result.metadata.exit_code` (null when absent, e.g. a signal). A timed
 * out or cancelled run is never compressed (its partial output matters as it is); the bash tool's
 * closing status lines follow the summary verbatim, and a cut output says so. Never throws.
 */
export function withProviderView(toolName: string, args: unknown, result: ToolResult, settings: Settings): ToolResult {
  if (toolName !== 'bash' || !settings.bool(OUTPUT_COMPRESSION_KEY, false)) return result;
  if (result.metadata.timed_out === true || result.metadata.cancelled === true) return result;
  const command = typeof args === 'object' && args !== null ? (args as { command?: unknown }).command : undefined;
  if (typeof command !== 'string') return result;
  const exit = result.metadata.exit_code;
  const { output, trailer } = splitTrailer(result.content);
  const compressed = compressOutput(command, output, typeof exit === 'number' ? exit : null);
  if (!compressed) return result;
  const omitted = result.metadata.bytes_omitted;
  const cut = result.metadata.truncated === true ? [`[the output was cut${typeof omitted === 'number' ? ` (${omitted} bytes omitted)` : ''}; this summary covers only what was kept]`] : [];
  return { ...result, providerContent: [compressed.text, ...cut, ...trailer].join('\n') };
}
