/** What every tool returns. `content` is provider-visible and already capped by the tool itself. */
export interface ToolResult {
  status: 'success' | 'error';
  /** The raw text: shown locally, kept in the session, and sent to the provider unless `providerContent` is set. */
  content: string;
  /**
   * What the provider sees instead of `content` when set (a compressed summary of `bash` output,
   * see `tools/bash/compression`). Never replaces `content` locally nor in the session.
   */
  providerContent?: string;
  /** Small typed facts for the visible block and for Mission Control. */
  metadata: ToolMetadata;
  /** Display-only data (a diff); never sent to the model nor written to the provider transcript. */
  display?: ToolDisplay;
}

export type MetadataValue = string | number | boolean | null | readonly string[] | readonly number[];
export type ToolMetadata = Record<string, MetadataValue>;

export interface ToolDisplay {
  /** Unified diffs of the files a successful edit changed. */
  diffs?: { path: string; diff: string }[];
  /**
   * What a person sees instead of `content` (subagents: only the aggregate summary, while the
   * parent model gets each task's bounded answer).
   */
  visibleOutput?: string;
}

export function success(content: string, metadata: ToolMetadata = {}, display?: ToolDisplay): ToolResult {
  return display ? { status: 'success', content, metadata, display } : { status: 'success', content, metadata };
}

/** The text a provider request carries for this result: `providerContent` when set, else `content`. */
export function providerText(result: ToolResult): string {
  return result.providerContent ?? result.content;
}

export function failure(content: string, metadata: ToolMetadata = {}): ToolResult {
  return { status: 'error', content, metadata };
}

/** The output a person sees: the display's replacement when a tool gives one, else the content. */
export function visibleOutput(result: ToolResult): string {
  return result.display?.visibleOutput ?? result.content;
}

/** Metadata keys rendered as their own visible line, in this order, before the generic ones. */
const LEADING_KEYS = ['paths', 'path'] as const;

function renderValue(value: MetadataValue): string {
  if (Array.isArray(value)) return value.join(', ');
  return value === null ? 'null' : String(value);
}

/**
 * The visible block the seeds show: `STATUS:`, one line per metadata fact (`PATHS:` first), then
 * `OUTPUT:` and the content. Used by the CLI, the output channel and plain transcripts.
 */
export function formatVisible(result: ToolResult): string {
  const lines = [`STATUS: ${result.status}`];
  const keys = Object.keys(result.metadata);
  const ordered = [...LEADING_KEYS.filter((k) => keys.includes(k)), ...keys.filter((k) => !(LEADING_KEYS as readonly string[]).includes(k))];
  for (const key of ordered) {
    const value = result.metadata[key];
    if (value === undefined) continue;
    lines.push(`${key.toUpperCase()}: ${renderValue(value)}`);
  }
  const output = visibleOutput(result);
  if (output.length > 0) lines.push('OUTPUT:', output);
  return lines.join('\n');
}
