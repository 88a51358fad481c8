import * as assert from 'node:assert/strict';
import { PUBLIC_BASE_URLS } from '../../../../src/core/agent/providers/publicApis';
import { TaskSetupError, httpProviderConfig, providerKind } from '../../../../src/host/task/providerChoice';

function setupError(fn: () => unknown): TaskSetupError {
  try {
    fn();
  } catch (err) {
    assert.ok(err instanceof TaskSetupError, String(err));
    return err;
  }
  assert.fail('expected a TaskSetupError');
}

describe('providerChoice', () => {
  it('accepts the three providers and names the setting otherwise', () => {
    assert.equal(providerKind('vscode-lm'), 'vscode-lm');
    assert.equal(providerKind('anthropic'), 'anthropic');
    const err = setupError(() => providerKind('gemini'));
    assert.equal(err.message, 'magi.provider must be vscode-lm, openai or anthropic, not "gemini".');
    assert.equal(err.remedy, 'openSettings');
  });

  it('defaults the base URL to the public API, which needs a stored key', () => {
    assert.deepEqual(httpProviderConfig('anthropic', '', ' claude ', 'k'), { kind: 'anthropic', baseUrl: PUBLIC_BASE_URLS.anthropic, model: 'claude', apiKey: 'k' });
    const err = setupError(() => httpProviderConfig('openai', ' ', 'gpt-4.1', undefined));
    assert.equal(err.remedy, 'setApiKey');
    assert.match(err.message, /^No OpenAI API key is stored: run Magi: Set API Key…/);
    assert.equal(setupError(() => httpProviderConfig('anthropic', PUBLIC_BASE_URLS.anthropic, 'c', '')).remedy, 'setApiKey');
  });

  it('works without a key against any other base URL (local servers)', () => {
    assert.deepEqual(httpProviderConfig('openai', 'http://127.0.0.1:11434/v1', 'qwen3', undefined), { kind: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen3' });
  });

  it('needs a model name for the HTTP providers', () => {
    const err = setupError(() => httpProviderConfig('openai', 'http://127.0.0.1:1/v1', '  ', undefined));
    assert.equal(err.remedy, 'openSettings');
    assert.match(err.message, /^magi\.model is empty/);
  });
});
