import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { root, runTool } from '../support/magi';

const EXTENSION_ID = 'magi-code.magi-code';

/** The hashline rows `read` shows for a whole LF-terminated file: `N:TEXT`. */
function hashlineRows(text: string): string[] {
  return text.replace(/\n$/, '').split('\n').map((line, i) => `${i + 1}:${line}`);
}

describe('Magi in the real extension host', () => {
  // These tests apply edits directly; review.test.ts covers the review of edits (default `before`).
  before(() => vscode.workspace.getConfiguration('magi').update('edits.review', 'off', vscode.ConfigurationTarget.Global));
  after(() => vscode.workspace.getConfiguration('magi').update('edits.review', undefined, vscode.ConfigurationTarget.Global));

  it('activates and contributes magi.runTool', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, `${EXTENSION_ID} is loaded`);
    await extension.activate();
    assert.equal(extension.isActive, true);
    assert.ok((await vscode.commands.getCommands(true)).includes('magi.runTool'));
  });

  it('runs read without UI and returns the hashline text of the file', async () => {
    const text = await fsp.readFile(join(root(), 'hello.txt'), 'utf8');
    const result = await runTool('read', { paths: ['hello.txt'] });
    assert.equal(result.status, 'success', result.content);
    assert.equal(result.tool, 'read');
    const [header, ...rows] = result.content.split('\n');
    assert.match(header ?? '', /^\[hello\.txt#[0-9A-F]{6}\]$/);
    assert.deepEqual(rows, hashlineRows(text));
    assert.deepEqual(result.metadata['paths'], ['hello.txt']);
  });

  it('keeps one runtime across calls: a read then a hash_edit changes the file on disk', async () => {
    const read = await runTool('read', { paths: ['edit-me.txt'] });
    const tag = /^\[edit-me\.txt#([0-9A-F]+)\]/.exec(read.content)?.[1];
    assert.ok(tag, read.content);
    const edit = await runTool('hash_edit', { input: `[edit-me.txt#${tag}]\nSWAP 2:\n+beta, edited by Magi` });
    assert.equal(edit.status, 'success', edit.content);
    assert.equal(await fsp.readFile(join(root(), 'edit-me.txt'), 'utf8'), 'alpha\nbeta, edited by Magi\ngamma\n');
  });

  it('greps in worker threads inside the extension host, and finds and lists files', async () => {
    const grep = await runTool('grep', { patterns: ['Magi!$', 'Third'], mode: 'raw' });
    assert.equal(grep.status, 'success', grep.content);
    assert.equal(grep.content, 'hello.txt:1:Hello, Magi!\nhello.txt:3:Third line.');
    const find = await runTool('fffind', { query: 'hello' });
    assert.equal(find.tool, 'find');
    assert.equal(find.content.split('\n')[0], 'hello.txt');
    const list = await runTool('list_files', {});
    assert.equal(list.status, 'success', list.content);
    assert.match(list.content, /^edit-me\.txt$/m);
  });

  it('returns an error result for an unknown tool', async () => {
    const result = await runTool('no_such_tool', {});
    assert.equal(result.status, 'error');
    assert.match(result.content, /^Unknown tool `no_such_tool`\. Available tools: read, /);
  });

  it('reads the magi settings and rebuilds the runtime when they change', async () => {
    const outside = await fsp.mkdtemp(join(tmpdir(), 'magi-outside-'));
    const file = join(outside, 'note.txt');
    await fsp.writeFile(file, 'outside the workspace\n');
    const config = vscode.workspace.getConfiguration('magi');
    const key = 'capabilities.tools.read.absolute_paths';
    try {
      assert.equal((await runTool('read', { paths: [file] })).status, 'success', 'absolute paths are allowed by default');
      await config.update(key, false, vscode.ConfigurationTarget.Global);
      const denied = await runTool('read', { paths: [file] });
      assert.equal(denied.status, 'error');
      assert.match(denied.content, /the setting capabilities\.tools\.read\.absolute_paths is false/);
      await config.update(key, undefined, vscode.ConfigurationTarget.Global);
      assert.equal((await runTool('read', { paths: [file] })).status, 'success', 'allowed again once the setting is reset');
    } finally {
      await config.update(key, undefined, vscode.ConfigurationTarget.Global);
      await fsp.rm(outside, { recursive: true, force: true });
    }
  });
});
