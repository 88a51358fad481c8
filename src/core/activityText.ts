import type { ActivityEvent } from './activity';
import type { ToolMetadata } from './tools/result';

/** The one fact that names a tool call best in a line: the intent, the paths, the patterns … */
function subject(summary: ToolMetadata): string {
  for (const key of ['intent', 'paths', 'path', 'patterns', 'query', 'tasks']) {
    const value = summary[key];
    if (value === undefined || value === null) continue;
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    return key === 'tasks' ? `${text} tasks` : text;
  }
  return '';
}

/**
 * Turns an agent run's activity into plain text, for `magi run` and the host's output channel: the
 * main agent's answer as it streams and one line per tool call of the main agent (subagents' own
 * calls stay out of the way; their summary is the subagents call's line). Writes go through
 * `write`, so tests, the CLI and the host share it.
 */
export function createTextPrinter(write: (text: string) => void): (event: ActivityEvent) => void {
  const pending = new Map<string, ToolMetadata>();
  let atLineStart = true;
  const line = (text: string): void => {
    write((atLineStart ? '' : '\n') + text + '\n');
    atLineStart = true;
  };
  return (event) => {
    if (event.agent !== 'main') return;
    switch (event.type) {
      case 'text_delta':
        if (event.text === '') return;
        write(event.text);
        atLineStart = event.text.endsWith('\n');
        return;
      case 'tool_start':
        pending.set(event.callId, event.summary);
        return;
      case 'tool_end': {
        const about = subject(pending.get(event.callId) ?? {});
        pending.delete(event.callId);
        const tail = event.tool === 'subagents' ? ` · ${event.output}` : '';
        line(`[${event.tool}]${about ? ` ${about}` : ''} · ${event.status} · ${event.durationMs} ms${tail}`);
        return;
      }
      case 'reminder':
        line(`[reminder] ${event.rule}: retrying the turn`);
        return;
      case 'message_end':
        if (!atLineStart) write('\n');
        atLineStart = true;
        return;
      default:
        return;
    }
  };
}
