import * as vscode from 'vscode';
import type { ModelProvider } from '../../core/agent/provider';
import { createHttpProvider } from '../../core/agent/providers';
import type { ApiKeys } from '../keys';
import { createLmProvider } from '../lmProvider';
import { SETTINGS_SECTION } from '../settings';
import { httpProviderConfig, providerKind } from './providerChoice';

/**
 * The model provider for a task that starts now: `magi.provider`, `magi.baseUrl` and `magi.model`
 * are read at this moment (a change applies to the next task), the key comes from SecretStorage.
 * Rejects with TaskSetupError (settings, missing key) or ProviderError (no chat model, bad URL).
 */
export async function taskProvider(keys: ApiKeys, scope: vscode.Uri): Promise<ModelProvider> {
  const config = vscode.workspace.getConfiguration(SETTINGS_SECTION, scope);
  const kind = providerKind(config.get('provider'));
  const model = config.get<string>('model') ?? '';
  if (kind === 'vscode-lm') return createLmProvider(model);
  return createHttpProvider(httpProviderConfig(kind, config.get<string>('baseUrl') ?? '', model, await keys.get(kind)));
}
