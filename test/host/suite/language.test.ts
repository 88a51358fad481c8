import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { root, runTool } from '../support/magi';

/**
 * The language tools against VS Code's real TypeScript service on the fixture project `ts/`
 * (greet.ts exports `greet` and `Greeter`; main.ts uses them and assigns a string to a number).
 */

const TYPE_ERROR = "ts/main.ts:4:7: error ts(2322): Type 'string' is not assignable to type 'number'.";

describe('Language tools on the real TypeScript service', function () {
  this.timeout(60_000);

  before(async () => {
    // A write must not wait for a person to accept it in the diff editor.
    await vscode.workspace.getConfiguration('magi').update('edits.review', 'off', vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    await vscode.workspace.getConfiguration('magi').update('edits.review', undefined, vscode.ConfigurationTarget.Global);
  });

  it('diagnostics reports the type error with its code and position, and a clean file as clean', async () => {
    let result = await runTool('diagnostics', { path: 'ts/main.ts' });
    // A cold TypeScript may take longer than the tool's bounded wait: then the answer is guidance to retry.
    for (let attempt = 0; attempt < 2 && result.metadata['ready'] === false; attempt++) {
      assert.match(result.content, /^diagnostics: no answer for ts\/main\.ts: no diagnostics arrived within 8 s; TypeScript is probably still starting\. Retry in a few seconds/);
      result = await runTool('diagnostics', { path: 'ts/main.ts' });
    }
    assert.equal(result.status, 'success', result.content);
    assert.equal(result.content, TYPE_ERROR);
    assert.equal(result.metadata['ready'], true);
    assert.equal(result.metadata['errors'], 1);
    assert.deepEqual(result.metadata['sources'], ['ts']);
    const clean = await runTool('diagnostics', { path: 'ts/greet.ts' });
    assert.equal(clean.content, 'No diagnostics for ts/greet.ts: its language service reports no problems.');
    assert.equal(clean.metadata['ready'], true);
  });

  it('diagnostics without a path summarises what VS Code holds for the workspace, errors first', async () => {
    const result = await runTool('diagnostics', {});
    assert.equal(result.status, 'success', result.content);
    const [summary, ...rows] = result.content.split('\n');
    assert.match(summary ?? '', /^Workspace diagnostics: [1-9]\d* errors?, \d+ warnings?, \d+ info, \d+ hints? in [1-9]\d* files?\.$/);
    assert.ok(rows.includes(TYPE_ERROR), result.content);
  });

  it('references finds the uses in both files, the declaration only when asked', async () => {
    const result = await runTool('references', { path: 'ts/greet.ts', line: 1, column: 17 });
    assert.equal(result.status, 'success', result.content);
    assert.deepEqual(result.content.split('\n'), [
      'ts/greet.ts:9:30: return `${this.prefix} ${greet(name)}`;',
      "ts/main.ts:1:10: import { greet, Greeter } from './greet';",
      "ts/main.ts:3:25: const message: string = greet('world');",
    ]);
    assert.equal(result.metadata['count'], 3);
    const withDeclaration = await runTool('references', { path: 'ts/greet.ts', line: 1, column: 17, include_declaration: true });
    assert.match(withDeclaration.content, /^ts\/greet\.ts:1:17: export function greet\(name: string\): string \{$/m);
    assert.equal(withDeclaration.metadata['count'], 4);
  });

  it('definition goes from a use in main.ts to the declaration in greet.ts', async () => {
    const result = await runTool('definition', { path: 'ts/main.ts', line: 3, column: 26 });
    assert.equal(result.status, 'success', result.content);
    assert.equal(result.content, 'ts/greet.ts:1:17: export function greet(name: string): string {');
  });

  it('symbols outlines the function and the class with its members', async () => {
    const result = await runTool('symbols', { path: 'ts/greet.ts' });
    assert.equal(result.status, 'success', result.content);
    const rows = result.content.split('\n');
    assert.equal(rows[0], 'greet (function) 1:17');
    assert.equal(rows[1], 'Greeter (class) 5:14');
    assert.ok(rows.includes('  welcome (method) 8:3'), result.content);
  });

  it('answers a file type without a language service with guidance, not an empty list', async () => {
    await fsp.writeFile(join(root(), 'ts', 'notes.xyz'), 'nothing to check\n');
    const result = await runTool('diagnostics', { path: 'ts/notes.xyz' });
    assert.equal(result.metadata['ready'], false);
    assert.match(result.content, /^diagnostics: no answer for ts\/notes\.xyz: no language service answers for \.xyz files\. Retry/);
  });

  it('measures how long diagnostics takes for a fresh type error', async () => {
    await fsp.writeFile(join(root(), 'ts', 'fresh.ts'), "export const n: number = 'x';\n");
    const started = Date.now();
    const result = await runTool('diagnostics', { path: 'ts/fresh.ts' });
    const ms = Date.now() - started;
    console.log(`MAGI_DIAGNOSTICS_LATENCY fresh TypeScript error answered in ${ms} ms`);
    assert.equal(result.content, "ts/fresh.ts:1:14: error ts(2322): Type 'string' is not assignable to type 'number'.");
  });

  it('appends the diagnostics after write and hash_edit only when magi.lsp.enabled is true', async () => {
    const config = vscode.workspace.getConfiguration('magi');
    const content = 'export const flag: boolean = 42;\n';
    const plain = await runTool('write', { path: 'ts/edited.ts', content });
    assert.equal(plain.status, 'success', plain.content);
    assert.doesNotMatch(plain.content, /Diagnostics after the edit/);
    try {
      await config.update('lsp.enabled', true, vscode.ConfigurationTarget.Global);
      const written = await runTool('write', { path: 'ts/edited.ts', content: `${content}export const other = flag;\n` });
      assert.equal(written.status, 'success', written.content);
      assert.match(written.content, /\n\nDiagnostics after the edit:\nts\/edited\.ts:1:14: error ts\(2322\): Type 'number' is not assignable to type 'boolean'\.$/);
      assert.equal(written.metadata['errors_after_edit'], 1);
      const read = await runTool('read', { paths: ['ts/edited.ts'] });
      const tag = /^\[ts\/edited\.ts#([0-9A-F]+)\]/.exec(read.content)?.[1];
      assert.ok(tag, read.content);
      const fixed = await runTool('hash_edit', { input: `[ts/edited.ts#${tag}]\nSWAP 1:\n+export const flag: boolean = true;` });
      assert.equal(fixed.status, 'success', fixed.content);
      assert.match(fixed.content, /\n\nDiagnostics after the edit: none\.$/, JSON.stringify(fixed.metadata));
    } finally {
      await config.update('lsp.enabled', undefined, vscode.ConfigurationTarget.Global);
    }
  });
});
