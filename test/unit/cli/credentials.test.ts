import assert from 'node:assert/strict';
import { environmentCredentials } from '../../../src/cli/credentials';

describe('CLI credentials for tools', () => {
  it('takes MAGI_VISION_API_KEY first, else OPENAI_API_KEY / ANTHROPIC_API_KEY; blank is unset', async () => {
    const both = environmentCredentials({ MAGI_VISION_API_KEY: ' vision ', OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a' });
    assert.equal(await both.apiKey('openai'), 'vision');
    assert.equal(await both.apiKey('anthropic'), 'vision');
    const split = environmentCredentials({ MAGI_VISION_API_KEY: '  ', OPENAI_API_KEY: 'o', ANTHROPIC_API_KEY: 'a' });
    assert.equal(await split.apiKey('openai'), 'o');
    assert.equal(await split.apiKey('anthropic'), 'a');
    assert.equal(await environmentCredentials({}).apiKey('openai'), undefined);
    assert.equal(await environmentCredentials({ MAGI_API_KEY: 'chat-only' }).apiKey('anthropic'), undefined);
  });
});
