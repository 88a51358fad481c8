import * as vscode from 'vscode';
import { ProviderError, type ModelProvider, type ModelRequest, type StreamEvent } from '../core/agent/provider';
import { lmTurns, modelSelectors, type LmTurn } from './lmMessages';

export const LM_PROVIDER_KIND = 'vscode-lm';

/**
 * A ModelProvider over VS Code's Language Model API: a chat model another extension (GitHub Copilot
 * Chat …) offers, so no key is needed. `model` is the `magi.model` setting: empty takes the first
 * chat model, otherwise a model with that id, else of that family. Rejects with a ProviderError
 * (kind `auth`) that says what to do when no chat model matches.
 */
export async function createLmProvider(model: string): Promise<ModelProvider> {
  return lmProviderFor(await selectChatModel(model));
}

/** The ModelProvider over one chat model (createLmProvider selects it; tests pass their own). */
export function lmProviderFor(chat: vscode.LanguageModelChat): ModelProvider {
  return {
    kind: LM_PROVIDER_KIND,
    model: chat.id,
    stream: (request, signal) => streamChat(chat, request, signal),
  };
}

async function selectChatModel(model: string): Promise<vscode.LanguageModelChat> {
  for (const selector of modelSelectors(model)) {
    const [first] = await vscode.lm.selectChatModels(selector);
    if (first) return first;
  }
  const which = model.trim() === '' ? 'No chat model is available in VS Code' : `No chat model with the id or family "${model.trim()}" is available in VS Code`;
  throw new ProviderError(
    `${which}. Install and sign in to an extension that provides one (such as GitHub Copilot Chat)${model.trim() === '' ? '' : ' or change magi.model'}, or set magi.provider to openai or anthropic and store a key with Magi: Set API Key….`,
    'auth',
  );
}

/**
 * One turn as ModelProvider events. The AbortSignal cancels the request's CancellationToken (the
 * one crossing the other way from cancellation.ts); a cancelled turn throws kind `cancelled`.
 * The API reports no token usage, so no `usage` event is yielded.
 */
async function* streamChat(chat: vscode.LanguageModelChat, request: ModelRequest, signal: AbortSignal): AsyncGenerator<StreamEvent> {
  if (signal.aborted) throw cancelled();
  const source = new vscode.CancellationTokenSource();
  const onAbort = (): void => source.cancel();
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    const messages = lmTurns(request.system, request.messages).map(toChatMessage);
    const tools = request.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.parameters }));
    let response: vscode.LanguageModelChatResponse;
    try {
      response = await chat.sendRequest(messages, { justification: 'Magi runs the coding task you gave it with this model.', tools }, source.token);
    } catch (err) {
      throw providerError(err, chat, signal);
    }
    let calls = 0;
    try {
      for await (const part of response.stream) {
        if (signal.aborted) break;
        if (part instanceof vscode.LanguageModelTextPart) {
          if (part.value !== '') yield { type: 'text_delta', text: part.value };
        } else if (part instanceof vscode.LanguageModelToolCallPart) {
          const index = calls++;
          yield { type: 'tool_call_begin', index, id: part.callId, name: part.name };
          yield { type: 'tool_call_end', index, id: part.callId, name: part.name, arguments: JSON.stringify(part.input) };
        }
      }
    } catch (err) {
      throw providerError(err, chat, signal);
    }
    if (signal.aborted) throw cancelled();
    yield { type: 'stop', reason: calls > 0 ? 'tool_calls' : 'end' };
  } finally {
    signal.removeEventListener('abort', onAbort);
    source.dispose();
  }
}

function toChatMessage(turn: LmTurn): vscode.LanguageModelChatMessage {
  if (turn.role === 'assistant') {
    return vscode.LanguageModelChatMessage.Assistant(turn.parts.map((part) => {
      if (part.kind === 'tool_call') return new vscode.LanguageModelToolCallPart(part.callId, part.name, part.input);
      if (part.kind === 'text') return new vscode.LanguageModelTextPart(part.text);
      throw new Error('a tool result cannot be part of an assistant message');
    }));
  }
  return vscode.LanguageModelChatMessage.User(turn.parts.map((part) => {
    if (part.kind === 'tool_result') return new vscode.LanguageModelToolResultPart(part.callId, [new vscode.LanguageModelTextPart(part.text)]);
    if (part.kind === 'text') return new vscode.LanguageModelTextPart(part.text);
    throw new Error('a tool call cannot be part of a user message');
  }));
}

function cancelled(): ProviderError {
  return new ProviderError('vscode-lm: the request was cancelled', 'cancelled');
}

/** A failure of the Language Model API as a ProviderError that says what to do about it. */
function providerError(err: unknown, chat: vscode.LanguageModelChat, signal: AbortSignal): ProviderError {
  if (signal.aborted || err instanceof vscode.CancellationError) return cancelled();
  const message = err instanceof Error ? err.message : String(err);
  const code = err instanceof vscode.LanguageModelError ? err.code : undefined;
  const model = `the chat model ${chat.name} (${chat.vendor}/${chat.id})`;
  switch (code) {
    case vscode.LanguageModelError.NoPermissions.name:
      return new ProviderError(`vscode-lm: Magi may not use ${model}: allow it when VS Code asks (Accounts menu > Manage Language Model Access). ${message}`, 'auth');
    case vscode.LanguageModelError.Blocked.name:
      return new ProviderError(`vscode-lm: ${model} refused the request (quota or rate limit); try again later or pick another model in magi.model. ${message}`, 'http', undefined, true);
    case vscode.LanguageModelError.NotFound.name:
      return new ProviderError(`vscode-lm: ${model} is no longer available; run the task again to select another, or change magi.model. ${message}`, 'auth');
    default:
      return new ProviderError(`vscode-lm: ${model} failed: ${message}`, 'http');
  }
}
