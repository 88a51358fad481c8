import assert from 'node:assert/strict';
import { IMAGES, ScriptedVision, cleanupImageWorkspaces, fixedCredentials, imageWorkspace, json, visionSettings, type ImageWorkspace } from './scripted';

const KEY = 'sk-vision-test-0123456789abcdef';
const PROMPT = 'Read the text on the red button.';

describe('view_image wire formats (scripted vision endpoint on 127.0.0.1)', function () {
  this.timeout(20_000);
  let vision: ScriptedVision;
  let ws: ImageWorkspace | undefined;

  before(async () => (vision = await ScriptedVision.start()));
  after(() => vision.close());
  beforeEach(() => vision.reset());
  afterEach(cleanupImageWorkspaces);

  it('openai-responses: POST {base}/responses with input_text and an input_image data URL, Bearer key; answer from output[].content[] output_text', async () => {
    ws = await imageWorkspace(visionSettings('openai-responses', `${vision.baseUrl}/v1/`), fixedCredentials({ openai: KEY }));
    const file = await ws.write('shot.png', IMAGES.png);
    vision.script = (_req, res) => json(res, 200, { output: [{ type: 'reasoning', summary: [] }, { type: 'message', content: [{ type: 'output_text', text: 'The button ' }, { type: 'refusal', refusal: 'x' }, { type: 'output_text', text: 'says OK.' }] }] });
    const result = await ws.run({ path: file, prompt: PROMPT });
    assert.equal(result.status, 'success', result.content);
    assert.equal(result.content, 'The button says OK.');
    assert.equal(vision.requests.length, 1);
    const [request] = vision.requests;
    assert.equal(request?.method, 'POST');
    assert.equal(request?.url, '/v1/responses');
    assert.equal(request?.headers.authorization, `Bearer ${KEY}`);
    assert.equal(request?.headers['content-type'], 'application/json');
    assert.deepEqual(request?.body, {
      model: 'vision-1',
      input: [{ role: 'user', content: [{ type: 'input_text', text: PROMPT }, { type: 'input_image', image_url: `data:image/png;base64,${IMAGES.png.toString('base64')}` }] }],
      max_output_tokens: 4096,
    });
    assert.deepEqual(result.metadata, { path: file, provider: 'openai-responses', model: 'vision-1', format: 'png', image_bytes: IMAGES.png.length, truncated: false });
  });

  it('openai-responses: a top-level output_text wins', async () => {
    ws = await imageWorkspace(visionSettings('openai-responses', vision.baseUrl), fixedCredentials({ openai: KEY }));
    const file = await ws.write('shot.gif', IMAGES.gif);
    vision.script = (_req, res) => json(res, 200, { output_text: 'A single white pixel.', output: [] });
    const result = await ws.run({ path: file, prompt: PROMPT });
    assert.equal(result.content, 'A single white pixel.');
    assert.equal(result.metadata.format, 'gif');
  });

  it('anthropic: POST {base}/v1/messages with a base64 image block then the text, x-api-key and anthropic-version; answer = text blocks joined', async () => {
    ws = await imageWorkspace(visionSettings('anthropic', vision.baseUrl), fixedCredentials({ anthropic: KEY, openai: 'wrong-key-for-openai' }));
    const file = await ws.write('photo.jpg', IMAGES.jpeg);
    vision.script = (_req, res) => json(res, 200, { content: [{ type: 'text', text: 'Red ' }, { type: 'tool_use', id: 't', name: 'x', input: {} }, { type: 'text', text: 'square.' }] });
    const result = await ws.run({ path: file, prompt: PROMPT });
    assert.equal(result.status, 'success', result.content);
    assert.equal(result.content, 'Red square.');
    const [request] = vision.requests;
    assert.equal(request?.url, '/v1/messages');
    assert.equal(request?.headers['x-api-key'], KEY);
    assert.equal(request?.headers['anthropic-version'], '2023-06-01');
    assert.equal(request?.headers.authorization, undefined);
    assert.deepEqual(request?.body, {
      model: 'vision-1',
      max_tokens: 4096,
      messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: IMAGES.jpeg.toString('base64') } }, { type: 'text', text: PROMPT }] }],
    });
    assert.equal(result.metadata.format, 'jpeg');
  });

  it('anthropic: a base URL ending in /v1 is not doubled', async () => {
    ws = await imageWorkspace(visionSettings('anthropic', `${vision.baseUrl}/v1`), fixedCredentials({ anthropic: KEY }));
    const file = await ws.write('a.webp', IMAGES.webp);
    vision.script = (_req, res) => json(res, 200, { content: [{ type: 'text', text: 'ok' }] });
    assert.equal((await ws.run({ path: file, prompt: PROMPT })).content, 'ok');
    assert.equal(vision.requests[0]?.url, '/v1/messages');
  });

  it('openai-compatible: POST {base}/chat/completions with text and image_url parts, max_tokens; answer = choices[0].message.content as a string or parts', async () => {
    ws = await imageWorkspace(visionSettings('openai-compatible', `${vision.baseUrl}/v1`), fixedCredentials({ openai: KEY }));
    const file = await ws.write('pic.webp', IMAGES.webp);
    vision.script = (_req, res) => json(res, 200, { choices: [{ message: { role: 'assistant', content: 'A tiny image.' } }] });
    const result = await ws.run({ path: file, prompt: PROMPT });
    assert.equal(result.content, 'A tiny image.');
    const [request] = vision.requests;
    assert.equal(request?.url, '/v1/chat/completions');
    assert.equal(request?.headers.authorization, `Bearer ${KEY}`);
    assert.deepEqual(request?.body, {
      model: 'vision-1',
      messages: [{ role: 'user', content: [{ type: 'text', text: PROMPT }, { type: 'image_url', image_url: { url: `data:image/webp;base64,${IMAGES.webp.toString('base64')}` } }] }],
      max_tokens: 4096,
    });
    vision.script = (_req, res) => json(res, 200, { choices: [{ message: { content: [{ type: 'text', text: 'In ' }, { type: 'text', text: 'parts.' }] } }] });
    assert.equal((await ws.run({ path: file, prompt: PROMPT })).content, 'In parts.');
  });

  it('subagents use the same keys: derived runtimes share the credential source', async () => {
    const credentials = fixedCredentials({ openai: KEY });
    ws = await imageWorkspace(visionSettings('openai-compatible', vision.baseUrl), credentials);
    assert.equal(ws.runtime.derive({}).credentials, credentials);
  });

  it('a local base URL without any key sends no credentials', async () => {
    ws = await imageWorkspace(visionSettings('openai-compatible', vision.baseUrl));
    const file = await ws.write('a.png', IMAGES.png);
    vision.script = (_req, res) => json(res, 200, { choices: [{ message: { content: 'fine' } }] });
    const result = await ws.run({ path: file, prompt: PROMPT });
    assert.equal(result.status, 'success', result.content);
    assert.equal(vision.requests[0]?.headers.authorization, undefined);
    assert.equal(vision.requests[0]?.headers['x-api-key'], undefined);
  });
});
