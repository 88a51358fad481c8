import assert from 'node:assert/strict';
import { ANSWER_CAP } from '../../../../../src/core/tools/viewImage';
import { IMAGES, ScriptedVision, cleanupImageWorkspaces, fixedCredentials, imageWorkspace, json, visionSettings, type ImageWorkspace } from './scripted';

const KEY = 'sk-vision-test-0123456789abcdef';
const PROMPT = 'Describe the chart axes.';

const until = async (condition: () => boolean, ms = 5_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

describe('view_image answers and failures of the vision endpoint (127.0.0.1)', function () {
  this.timeout(20_000);
  let vision: ScriptedVision;
  let ws: ImageWorkspace;
  let file: string;

  before(async () => (vision = await ScriptedVision.start()));
  after(() => vision.close());
  beforeEach(async () => {
    vision.reset();
    ws = await imageWorkspace(visionSettings('openai-compatible', vision.baseUrl), fixedCredentials({ openai: KEY }));
    file = await ws.write('chart.png', IMAGES.png);
  });
  afterEach(cleanupImageWorkspaces);

  const failed = async (pattern: RegExp, code = 'upstream'): Promise<string> => {
    const result = await ws.run({ path: file, prompt: PROMPT });
    assert.equal(result.status, 'error', result.content);
    assert.match(result.content, pattern);
    assert.equal(result.metadata.error, code);
    const everything = JSON.stringify(result);
    assert.equal(everything.includes(KEY), false, 'the key is in no error or metadata');
    assert.equal(everything.includes(IMAGES.png.toString('base64')), false, 'the image bytes are in no result');
    return result.content;
  };

  it('HTTP 401 says the key was refused and how to set one; the key echoed by the server is redacted', async () => {
    vision.script = (_req, res) => json(res, 401, { error: { message: `Incorrect API key provided: ${KEY}.` } });
    const text = await failed(/answered HTTP 401: Incorrect API key provided: \[redacted\]\. The API key was refused: check it\. In VS Code run Magi: Set API Key…/);
    assert.match(text, /the vision model \(openai-compatible, vision-1\) at 127\.0\.0\.1:\d+/);
    assert.equal(vision.requests.length, 1, 'no retry');
  });

  it('HTTP 500 with a non-JSON body gives a short redacted snippet', async () => {
    vision.script = (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end(`<html><body>upstream crashed while handling Bearer ${KEY} ${'lorem '.repeat(400)}</body></html>`);
    };
    const text = await failed(/answered HTTP 500: <html><body>upstream crashed while handling \[redacted\].*…\. The service failed: try again later\./);
    assert.ok(text.length < 600, `short: ${text.length}`);
  });

  it('malformed JSON and a response without text are errors that name the provider kind', async () => {
    vision.script = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"choices": [');
    };
    await failed(/answered with something other than JSON; check that the baseUrl serves the openai-compatible API/);
    vision.script = (_req, res) => json(res, 200, { output: [{ type: 'message', content: [{ type: 'output_text', text: 'wrong format' }] }] });
    await failed(/answered without any text; check that the provider kind openai-compatible matches the endpoint/);
    vision.script = (_req, res) => json(res, 200, { choices: [{ message: { content: '   ' } }] });
    await failed(/answered without any text/);
  });

  it('a response over 4 MiB is dropped', async () => {
    vision.script = (_req, res) => json(res, 200, { choices: [{ message: { content: 'y'.repeat(4 * 1024 * 1024 + 10) } }] });
    await failed(/sent more than 4 MiB/);
  });

  it('cuts an answer over 64 KiB at a character boundary and says so', async () => {
    vision.script = (_req, res) => json(res, 200, { choices: [{ message: { content: 'é'.repeat(40_000) } }] });
    const result = await ws.run({ path: file, prompt: PROMPT });
    assert.equal(result.status, 'success', result.content.slice(0, 200));
    assert.equal(result.metadata.truncated, true);
    assert.ok(Buffer.byteLength(result.content, 'utf8') <= ANSWER_CAP);
    assert.ok(Buffer.byteLength(result.content, 'utf8') > ANSWER_CAP - 200);
    assert.match(result.content, /^é+\n\[truncated: the vision model's answer passed 64 KiB; ask about fewer details per call\]$/);
    assert.equal(result.content.includes('\uFFFD'), false);
  });

  it('an answer of exactly 64 KiB is whole', async () => {
    vision.script = (_req, res) => json(res, 200, { choices: [{ message: { content: 'z'.repeat(ANSWER_CAP) } }] });
    const result = await ws.run({ path: file, prompt: PROMPT });
    assert.equal(result.metadata.truncated, false);
    assert.equal(result.content.length, ANSWER_CAP);
  });

  it('cancellation mid-request ends the call promptly with a ToolError and closes the socket', async () => {
    vision.script = () => undefined; // hold the response
    const controller = new AbortController();
    const pending = ws.run({ path: file, prompt: PROMPT }, { signal: controller.signal });
    await until(() => vision.requests.length === 1);
    const started = Date.now();
    controller.abort();
    const result = await pending;
    assert.ok(Date.now() - started < 1_000, 'prompt');
    assert.equal(result.status, 'error');
    assert.equal(result.content, 'view_image: cancelled; the request to the vision model was aborted.');
    assert.equal(result.metadata.error, 'cancelled');
    await until(() => vision.closedConnections === vision.connections && vision.connections === 1);
  });

  it('HTTP 401 from a server that was sent no key says so', async () => {
    ws = await imageWorkspace(visionSettings('openai-compatible', vision.baseUrl));
    file = await ws.write('chart.png', IMAGES.png);
    vision.script = (_req, res) => json(res, 401, { error: { message: 'missing key' } });
    await failed(/answered HTTP 401: missing key\. No API key was sent and the server wants one\. In VS Code run Magi: Set API Key…/);
  });

  it('a server that holds its answer past the headers timeout is an upstream error, and its socket is closed', async () => {
    ws = await imageWorkspace(visionSettings('openai-compatible', vision.baseUrl), fixedCredentials({ openai: KEY }), { timing: { headersMs: 200 } });
    file = await ws.write('chart.png', IMAGES.png);
    vision.script = () => undefined;
    await failed(/did not answer within 0\.2 s; try again or ask about a smaller image/);
    await until(() => vision.connections === 1 && vision.closedConnections === 1);
  });

  it('a closed port is a connection error with no key in it', async () => {
    const closed = await ScriptedVision.start();
    const url = closed.baseUrl;
    await closed.close();
    ws = await imageWorkspace(visionSettings('openai-compatible', url), fixedCredentials({ openai: KEY }));
    file = await ws.write('chart.png', IMAGES.png);
    await failed(/refused the connection; check the baseUrl and that the server runs/);
  });

  it('a successful result carries neither the key nor the bytes', async () => {
    vision.script = (_req, res) => json(res, 200, { choices: [{ message: { content: 'Two axes: time and load.' } }] });
    const result = await ws.run({ path: file, prompt: PROMPT });
    assert.equal(result.status, 'success');
    const everything = JSON.stringify(result);
    assert.equal(everything.includes(KEY), false);
    assert.equal(everything.includes(IMAGES.png.toString('base64')), false);
  });
});
