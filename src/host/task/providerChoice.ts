/**
 * Which model provider a task uses, from the `magi.provider`, `magi.baseUrl` and `magi.model`
 * settings and the stored key. Plain Node (no `vscode`), so the rules are unit-tested.
 */
import type { HttpProviderConfig } from '../../core/agent/provider';
import { PUBLIC_BASE_URLS } from '../../core/agent/providers/publicApis';

export type ProviderKindSetting = 'vscode-lm' | 'openai' | 'anthropic';

/** What the person can do about a TaskSetupError: store a key, or fix a setting. */
export type SetupRemedy = 'setApiKey' | 'openSettings';

/** A task cannot start as configured; the message says why and `remedy` what fixes it. */
export class TaskSetupError extends Error {
  override readonly name = 'TaskSetupError';
  constructor(message: string, readonly remedy: SetupRemedy) {
    super(message);
  }
}

/** The `magi.provider` setting, checked (the manifest's enum is only a hint to the settings editor). */
export function providerKind(value: unknown): ProviderKindSetting {
  if (value === 'vscode-lm' || value === 'openai' || value === 'anthropic') return value;
  throw new TaskSetupError(`magi.provider must be vscode-lm, openai or anthropic, not ${JSON.stringify(value)}.`, 'openSettings');
}

/**
 * The HTTP provider's configuration: an empty base URL means the public API, and the public API
 * without a stored key is a TaskSetupError (remedy `setApiKey`). Any other base URL works without a
 * key, because local servers (Ollama, LM Studio) need none.
 */
export function httpProviderConfig(kind: 'openai' | 'anthropic', baseUrl: string, model: string, apiKey: string | undefined): HttpProviderConfig {
  const name = model.trim();
  if (name === '') throw new TaskSetupError(`magi.model is empty: set the ${kind} model to use (e.g. ${kind === 'openai' ? 'gpt-4.1 or qwen3' : 'claude-sonnet-4-5'}).`, 'openSettings');
  const url = baseUrl.trim() === '' ? PUBLIC_BASE_URLS[kind] : baseUrl.trim();
  if (!apiKey && url === PUBLIC_BASE_URLS[kind]) {
    throw new TaskSetupError(`No ${kind === 'openai' ? 'OpenAI' : 'Anthropic'} API key is stored: run Magi: Set API Key…, or point magi.baseUrl at a local server that needs none.`, 'setApiKey');
  }
  return { kind, baseUrl: url, model: name, ...(apiKey ? { apiKey } : {}) };
}
