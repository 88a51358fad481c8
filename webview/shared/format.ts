/**
 * Titles and one-line facts for tool calls, from the safe `tool_start` summary and the `tool_end`
 * metadata only (the seeds' visible-output rules): bash shows its intent, read its paths, write
 * its path and size, hash_edit its paths and input bytes, grep its patterns and then its counts,
 * subagents its task count. Tool arguments are never in the events, so never on screen.
 */
import type { ToolMetadata } from '../protocol';

type MetadataValue = ToolMetadata[string];

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} m ${Math.round((ms % 60_000) / 1000)} s`;
}

function list(value: MetadataValue | undefined): string[] {
  if (Array.isArray(value)) return value.map(String);
  return value === undefined || value === null ? [] : [String(value)];
}

function num(value: MetadataValue | undefined): number | undefined {
  return typeof value === 'number' ? value : undefined;
}

/** The card/row title of a call, from its `tool_start` summary. */
export function toolTitle(tool: string, summary: ToolMetadata): string {
  switch (tool) {
    case 'bash':
      return list(summary.intent)[0] ?? 'command';
    case 'read':
      return list(summary.paths).join(', ');
    case 'write': {
      const bytes = num(summary.bytes);
      return [list(summary.path)[0] ?? '', bytes === undefined ? '' : formatBytes(bytes)].filter(Boolean).join(' · ');
    }
    case 'hash_edit': {
      const bytes = num(summary.input_bytes);
      return [list(summary.paths).join(', '), bytes === undefined ? '' : `${formatBytes(bytes)} input`].filter(Boolean).join(' · ');
    }
    case 'grep':
      return list(summary.patterns).join(' | ');
    case 'subagents': {
      const tasks = num(summary.tasks);
      return tasks === undefined ? '' : `${tasks} task${tasks === 1 ? '' : 's'}`;
    }
    default:
      return ['query', 'path'].flatMap((key) => list(summary[key])).join(' · ');
  }
}

/** The facts a finished call adds to its title (grep's counts, the subagents' tally, an edit's files). */
export function endFacts(tool: string, metadata: ToolMetadata): string {
  switch (tool) {
    case 'grep': {
      const matched = num(metadata.total_matched);
      const files = num(metadata.files_matched);
      const parts = [matched === undefined ? '' : `${matched} match${matched === 1 ? '' : 'es'}`, files === undefined ? '' : `${files} file${files === 1 ? '' : 's'}`];
      return parts.filter(Boolean).join(' in ');
    }
    case 'subagents': {
      const completed = num(metadata.completed);
      const failed = num(metadata.failed);
      return completed === undefined ? '' : `${completed} completed${failed ? `, ${failed} failed` : ''}`;
    }
    case 'bash': {
      const code = num(metadata.exit_code);
      return code === undefined ? '' : `exit ${code}`;
    }
    default:
      return '';
  }
}

/** Metadata keys whose truthy value means the result was cut. */
export function truncationBadges(metadata: ToolMetadata, outputTruncated: boolean): string[] {
  const badges = Object.entries(metadata)
    .filter(([key, value]) => value === true && (key === 'truncated' || key.endsWith('_truncated') || key === 'has_more' || key === 'timed_out'))
    .map(([key]) => key.replace(/_/g, ' '));
  if (outputTruncated) badges.push('output cut');
  return badges;
}
