import assert from 'node:assert/strict';
import { Settings, type SettingsTree } from '../../../../../src/core/settings';
import { ToolError } from '../../../../../src/core/tools/errors';
import { DEFAULT_MAX_IMAGE_BYTES, MAX_IMAGE_BYTES_LIMIT, viewImageConfig } from '../../../../../src/core/tools/viewImage/config';
import { sniffFormat } from '../../../../../src/core/tools/viewImage/image';
import { visionPost } from '../../../../../src/core/tools/viewImage/wire';
import { IMAGES } from './scripted';

const config = (tree: SettingsTree) => viewImageConfig(new Settings(tree));
const withModel = (vision_model: unknown, extra: Record<string, unknown> = {}) => config({ capabilities: { tools: { view_image: { vision_model, ...extra } } } });
const model = { provider: 'openai-responses', model: 'gpt-4.1-mini' };
const fails = (thunk: () => unknown, pattern: RegExp): void => {
  assert.throws(thunk, (err: unknown) => err instanceof ToolError && err.code === 'not_configured' && pattern.test(err.message));
};

describe('view_image settings', () => {
  it('defaults: the public API of each provider, 5 MiB; openai key for both OpenAI kinds', () => {
    assert.deepEqual(withModel(model), { visionModel: { provider: 'openai-responses', model: 'gpt-4.1-mini', baseUrl: 'https://api.openai.com/v1', publicApi: true, service: 'openai' }, maxImageBytes: DEFAULT_MAX_IMAGE_BYTES });
    assert.equal(withModel({ provider: 'openai-compatible', model: 'm' }).visionModel.service, 'openai');
    assert.deepEqual(withModel({ provider: 'anthropic', model: ' claude-sonnet-4-5 ' }).visionModel, { provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: 'https://api.anthropic.com', publicApi: true, service: 'anthropic' });
    const local = withModel({ provider: 'openai-compatible', model: 'qwen2.5vl', baseUrl: 'http://127.0.0.1:11434/v1/' }).visionModel;
    assert.deepEqual([local.baseUrl, local.publicApi], ['http://127.0.0.1:11434/v1', false]);
    assert.equal(withModel({ ...model, baseUrl: 'https://api.openai.com/v1/' }).visionModel.publicApi, true);
  });

  it('reads dotted keys and the older tools.view_image alias', () => {
    assert.equal(config({ 'capabilities.tools.view_image.vision_model': model, 'capabilities.tools.view_image.max_image_bytes': 1 }).maxImageBytes, 1);
    assert.equal(config({ tools: { view_image: { vision_model: model } } }).visionModel.model, 'gpt-4.1-mini');
  });

  it('missing vision_model says which setting to add, with a JSON example', () => {
    fails(() => config({}), /^no vision model is configured, and image bytes never go to the chat model: set capabilities\.tools\.view_image\.vision_model .*magi\.capabilities\.tools\.view_image\.vision_model.*e\.g\. \{"capabilities"/);
    fails(() => withModel({}), /no vision model is configured/);
    fails(() => withModel(null), /no vision model is configured/);
  });

  it('bad vision_model fields name the key and the allowed values', () => {
    fails(() => withModel('gpt-4o'), /setting capabilities\.tools\.view_image\.vision_model must be an object \{"provider", "model", "baseUrl"\?\}/);
    fails(() => withModel({ provider: 'local-vision', model: 'm' }), /setting capabilities\.tools\.view_image\.vision_model\.provider must be one of openai-responses, anthropic, openai-compatible, not "local-vision"/);
    fails(() => withModel({ provider: 'anthropic' }), /vision_model\.model must be a non-empty model id/);
    fails(() => withModel({ provider: 'anthropic', model: '  ' }), /vision_model\.model must be a non-empty model id/);
    fails(() => withModel({ ...model, baseUrl: 'ftp://example.com' }), /vision_model\.baseUrl must be an http\(s\) URL \(default https:\/\/api\.openai\.com\/v1\), not "ftp:\/\/example\.com"/);
    fails(() => withModel({ ...model, baseUrl: 'not a url' }), /vision_model\.baseUrl must be an http\(s\) URL/);
    fails(() => withModel({ ...model, baseUrl: 'https://me:pw@example.com' }), /must not carry a user or password/);
    fails(() => withModel({ ...model, temperature: 0 }), /unknown field\(s\) temperature; allowed: provider, model, baseUrl/);
  });

  it('max_image_bytes: 1 byte through 20 MiB, whole numbers only', () => {
    assert.equal(withModel(model, { max_image_bytes: MAX_IMAGE_BYTES_LIMIT }).maxImageBytes, 20 * 1024 * 1024);
    assert.equal(withModel(model, { max_image_bytes: 1 }).maxImageBytes, 1);
    for (const bad of [0, -1, MAX_IMAGE_BYTES_LIMIT + 1, 1.5, '5242880', true]) {
      fails(() => withModel(model, { max_image_bytes: bad }), /setting capabilities\.tools\.view_image\.max_image_bytes must be a whole number of bytes from 1 to 20971520 \(20 MiB; default 5242880\)/);
    }
    // A bad size is reported even before a missing model.
    fails(() => config({ 'capabilities.tools.view_image.max_image_bytes': 0 }), /max_image_bytes/);
  });
});

describe('view_image image signatures and wire details', () => {
  it('sniffs PNG, JPEG, GIF87a/89a and RIFF…WEBP, nothing else', () => {
    assert.equal(sniffFormat(IMAGES.png), 'png');
    assert.equal(sniffFormat(IMAGES.jpeg), 'jpeg');
    assert.equal(sniffFormat(IMAGES.gif), 'gif');
    assert.equal(sniffFormat(Buffer.from('GIF87a....')), 'gif');
    assert.equal(sniffFormat(IMAGES.webp), 'webp');
    for (const other of ['', 'BM6', '<svg', 'RIFF\0\0\0\0WAVE', 'GIF88a', '\x89PNG\r\n']) assert.equal(sniffFormat(Buffer.from(other, 'latin1')), undefined, JSON.stringify(other));
  });

  it('openai-compatible on api.openai.com asks with max_completion_tokens, elsewhere with max_tokens', () => {
    const image = { path: '/x.png', bytes: IMAGES.png, format: 'png' as const, mime: 'image/png' };
    const at = (baseUrl: string) => visionPost({ provider: 'openai-compatible', model: 'm', baseUrl, publicApi: false, service: 'openai' }, 'k', 'p', image).body;
    assert.equal(at('https://api.openai.com/v1').max_completion_tokens, 4096);
    assert.equal(at('https://api.openai.com/v1').max_tokens, undefined);
    assert.equal(at('http://127.0.0.1:11434/v1').max_tokens, 4096);
  });
});
