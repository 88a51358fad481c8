import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { root, runTool } from '../support/magi';

const FORM = `<!doctype html><title>Sign up</title><h1>Sign up</h1>
<form action="/done"><label>Name <input name="name"></label><button>Send</button></form>`;

/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function body(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

// playwright-core loads from node_modules next to dist/extension.js, and the keys come from VS Code's SecretStorage.
describe('browser and view_image in the extension host', function () {
  this.timeout(60_000);
  const servers: Server[] = [];
  after(async () => {
    for (const server of servers) server.close();
    await vscode.workspace.getConfiguration('magi').update('capabilities.tools.view_image.vision_model', undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand('magi.setApiKey', 'openai', '');
  });

  it('drives Chromium through a form with refs from a snapshot, then closes page main', async () => {
    const server = createServer((request, response) => {
      response.setHeader('content-type', 'text/html');
      response.end(request.url?.startsWith('/done') ? `<title>Done</title><p>Hello ${new URL(request.url, 'http://x').searchParams.get('name') ?? ''}</p>` : FORM);
    });
    servers.push(server);
    const base = await listen(server);
    const opened = await runTool('browser', { command: `open ${base}/` });
    assert.equal(opened.status, 'success', opened.content);
    assert.match(opened.content, /Page: Sign up/);
    const snapshot = await runTool('browser', { command: 'snapshot -i' });
    const textbox = /textbox "Name" @(e\d+)/.exec(snapshot.content)?.[1];
    const button = /button "Send" @(e\d+)/.exec(snapshot.content)?.[1];
    assert.ok(textbox && button, snapshot.content);
    assert.equal((await runTool('browser', { command: `fill @${textbox} Ada` })).status, 'success');
    const clicked = await runTool('browser', { command: `click ${button}` });
    assert.equal(clicked.status, 'success', clicked.content);
    assert.equal((await runTool('browser', { command: 'get text' })).content, 'Hello Ada');
    assert.equal((await runTool('browser', { command: 'close' })).content, 'Closed page main.');
    const after = await runTool('browser', { command: 'get url' });
    assert.equal(after.status, 'error');
    assert.match(after.content, /page main is not open/);
  });

  it('sends an image to the configured vision model with the key from Magi: Set API Key', async () => {
    const seen: { authorization?: string; body: string }[] = [];
    const server = createServer((request, response) => {
      void body(request).then((text) => {
        seen.push({ authorization: request.headers.authorization, body: text });
        response.setHeader('content-type', 'application/json');
        response.end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'A single red pixel.' } }] }));
      });
    });
    servers.push(server);
    const base = await listen(server);
    const image = join(root(), 'pixel.png');
    await fsp.writeFile(image, PNG);
    const unconfigured = await runTool('view_image', { path: image, prompt: 'What colour is it?' });
    assert.equal(unconfigured.status, 'error');
    assert.match(unconfigured.content, /vision_model/);
    assert.equal(seen.length, 0);
    await vscode.commands.executeCommand('magi.setApiKey', 'openai', 'sk-host-test');
    await vscode.workspace.getConfiguration('magi').update('capabilities.tools.view_image.vision_model', { provider: 'openai-compatible', model: 'vision-1', baseUrl: base }, vscode.ConfigurationTarget.Global);
    const answered = await runTool('view_image', { path: image, prompt: 'What colour is it?' });
    assert.equal(answered.status, 'success', answered.content);
    assert.equal(answered.content, 'A single red pixel.');
    assert.equal(seen.length, 1);
    assert.equal(seen[0]?.authorization, 'Bearer sk-host-test');
    assert.ok(seen[0]?.body.includes(`data:image/png;base64,${PNG.toString('base64')}`));
  });
});
