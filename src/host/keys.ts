import * as vscode from 'vscode';
import type { CredentialService, CredentialSource } from '../core/tools/credentials';
import type { Command } from './commands';

export const SET_API_KEY_COMMAND = 'magi.setApiKey';

/** The providers that take an API key, with what the person sees when picking one. */
const KEYED_PROVIDERS = {
  openai: { label: 'OpenAI-compatible', detail: 'OpenAI, OpenRouter, vLLM … (local servers such as Ollama need no key)' },
  anthropic: { label: 'Anthropic', detail: 'Anthropic Messages API' },
} as const;

export type KeyedProvider = keyof typeof KEYED_PROVIDERS;

export function isKeyedProvider(value: unknown): value is KeyedProvider {
  return typeof value === 'string' && Object.hasOwn(KEYED_PROVIDERS, value);
}

/**
 * The API keys, kept in VS Code's SecretStorage only (never in settings, logs or sessions), one
 * fixed secret name per provider. Also the tools' CredentialSource: `view_image`'s vision model
 * takes the `openai` key for both OpenAI kinds and the `anthropic` key for Anthropic.
 */
export class ApiKeys implements CredentialSource {
  constructor(private readonly secrets: vscode.SecretStorage) {}

  /** The stored key, or undefined when none is. */
  async get(provider: KeyedProvider): Promise<string | undefined> {
    return (await this.secrets.get(secretName(provider))) || undefined;
  }

  apiKey(service: CredentialService): Promise<string | undefined> {
    return this.get(service);
  }

  /** Stores `key`; an empty (or blank) key removes the stored one. Resolves to what happened. */
  async set(provider: KeyedProvider, key: string): Promise<'stored' | 'cleared'> {
    const trimmed = key.trim();
    if (trimmed === '') {
      await this.secrets.delete(secretName(provider));
      return 'cleared';
    }
    await this.secrets.store(secretName(provider), trimmed);
    return 'stored';
  }
}

function secretName(provider: KeyedProvider): string {
  return `magi.apiKey.${provider}`;
}

/**
 * `magi.setApiKey`. Without arguments it asks for the provider (QuickPick) and the key (a password
 * InputBox; empty removes the stored key) and resolves to undefined when the person cancels. Called
 * with `(provider, key)` (`executeCommand('magi.setApiKey', 'openai', 'sk-…')`) it stores without UI
 * and resolves to `stored` or `cleared`; a provider other than openai/anthropic or a key that is not
 * a string rejects.
 */
export function setApiKeyCommand(keys: ApiKeys): Command {
  return {
    id: SET_API_KEY_COMMAND,
    execute: (...args: unknown[]) => (args.length === 0 ? setInteractively(keys) : setFromArguments(keys, args[0], args[1])),
  };
}

async function setFromArguments(keys: ApiKeys, provider: unknown, key: unknown): Promise<'stored' | 'cleared'> {
  if (!isKeyedProvider(provider) || typeof key !== 'string') {
    throw new Error(`${SET_API_KEY_COMMAND} takes a provider ("openai" or "anthropic") and the key as a string (empty removes it).`);
  }
  return keys.set(provider, key);
}

async function setInteractively(keys: ApiKeys): Promise<'stored' | 'cleared' | undefined> {
  const picked = await vscode.window.showQuickPick(
    (Object.keys(KEYED_PROVIDERS) as KeyedProvider[]).map((provider) => ({ provider, label: KEYED_PROVIDERS[provider].label, detail: KEYED_PROVIDERS[provider].detail })),
    { title: 'Magi: Set API Key', placeHolder: 'Which provider is the key for?' },
  );
  if (!picked) return undefined;
  const key = await vscode.window.showInputBox({
    title: `Magi: ${picked.label} API key`,
    prompt: 'Kept in VS Code\'s secret storage. Leave empty to remove the stored key.',
    password: true,
    ignoreFocusOut: true,
  });
  if (key === undefined) return undefined;
  const outcome = await keys.set(picked.provider, key);
  void vscode.window.showInformationMessage(outcome === 'stored' ? `Magi: the ${picked.label} API key is stored.` : `Magi: the ${picked.label} API key is removed.`);
  return outcome;
}
