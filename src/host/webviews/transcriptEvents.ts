import type { ActivityBody } from '../../core/activity';
import type { ChatMessage } from '../../core/agent/messages';

export interface TranscriptContext {
  cwd: string;
  provider: string;
  model: string;
  sessionFile: string | null;
}

/**
 * A reopened session's conversation as activity, so the chat can render it like live runs: one
 * run per task (run_start, a message_end per answer, run_end). Tool results are left out (their raw
 * text is not bounded like live activity); the answers say what the tools did.
 */
export function transcriptRuns(messages: readonly ChatMessage[], context: TranscriptContext): ActivityBody[][] {
  const runs: ActivityBody[][] = [];
  let run: ActivityBody[] | undefined;
  let turn = 0;
  let last = '';
  const close = (): void => {
    if (run) run.push({ type: 'run_end', outcome: 'completed', turns: turn, durationMs: 0, finalText: last });
  };
  for (const message of messages) {
    if (message.role === 'user') {
      close();
      run = [{ type: 'run_start', task: message.content, cwd: context.cwd, provider: context.provider, model: context.model, sessionFile: context.sessionFile, resumed: true }];
      runs.push(run);
      turn = 0;
      last = '';
    } else if (message.role === 'assistant' && run) {
      turn++;
      last = message.content;
      run.push({ type: 'message_end', turn, text: message.content, toolCalls: message.toolCalls.length });
    }
  }
  close();
  return runs;
}
