/**
 * The conversation as VS Code's Language Model API takes it, built without `vscode` so it can be
 * tested in plain Node; lmProvider.ts turns these turns into `LanguageModelChatMessage`s.
 *
 * The API (1.100) has only User and Assistant roles, so the system prompt becomes the first user
 * text and a reminder a user text in `<system-reminder>` tags (as the HTTP providers send it);
 * tool results are parts of a User message. Consecutive turns of one role are merged, because
 * chat models behind the API expect the roles to alternate.
 */
import type { ChatMessage } from '../core/agent/messages';

export type LmPart =
  | { kind: 'text'; text: string }
  | { kind: 'tool_call'; callId: string; name: string; input: object }
  | { kind: 'tool_result'; callId: string; text: string };

export interface LmTurn {
  role: 'user' | 'assistant';
  parts: LmPart[];
}

/** The user turns and assistant turns for `system` and `messages`, roles alternating, no empty turn. */
export function lmTurns(system: string, messages: readonly ChatMessage[]): LmTurn[] {
  const turns: LmTurn[] = [];
  const add = (role: LmTurn['role'], parts: LmPart[]): void => {
    if (parts.length === 0) return;
    const last = turns.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else turns.push({ role, parts });
  };
  if (system !== '') add('user', [{ kind: 'text', text: system }]);
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        add('user', [{ kind: 'text', text: message.content }]);
        break;
      case 'reminder':
        add('user', [{ kind: 'text', text: `<system-reminder>\n${message.content}\n</system-reminder>` }]);
        break;
      case 'tool':
        add('user', [{ kind: 'tool_result', callId: message.toolCallId, text: message.content }]);
        break;
      case 'assistant':
        add('assistant', [
          ...(message.content !== '' ? [{ kind: 'text' as const, text: message.content }] : []),
          ...message.toolCalls.map((call) => ({ kind: 'tool_call' as const, callId: call.id, name: call.name, input: toolInput(call.arguments) })),
        ]);
        break;
      default: {
        const unknown: never = message;
        throw new Error(`unknown chat message role: ${JSON.stringify(unknown)}`);
      }
    }
  }
  return turns;
}

/**
 * The object a `LanguageModelToolCallPart` needs from the raw arguments the model streamed. Text
 * that is not a JSON object (the loop already answered such a call with an error) is kept under
 * `invalid_arguments`, so the model still sees what it sent.
 */
export function toolInput(raw: string): object {
  if (raw.trim() === '') return {};
  try {
    const value: unknown = JSON.parse(raw);
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value;
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
  }
  return { invalid_arguments: raw };
}

/**
 * The `vscode.lm.selectChatModels` selectors to try in order for the `magi.model` setting: any
 * model when it is empty, else the model with that id, then the models of that family.
 */
export function modelSelectors(model: string): Array<{ id: string } | { family: string } | undefined> {
  const name = model.trim();
  return name === '' ? [undefined] : [{ id: name }, { family: name }];
}
