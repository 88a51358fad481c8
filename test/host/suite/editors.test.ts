import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as vscode from 'vscode';
import { fixture, runTool, setMagi, tagOf, waitFor } from '../support/edits';

/** Opens the fixture file in an editor and returns it. */
async function showFile(rel: string): Promise<vscode.TextEditor> {
  const document = await vscode.workspace.openTextDocument(vscode.Uri.file(fixture(rel)));
  return vscode.window.showTextDocument(document, { preview: false });
}

describe('Open editors are the truth', () => {
  // Edits apply at once here; review.test.ts covers the review.
  // VS Code for the Web (code-server) auto-saves after a delay by default, which would save the dirty editor under test.
  before(async () => {
    await setMagi('edits.review', 'off');
    await vscode.workspace.getConfiguration('files').update('autoSave', 'off', vscode.ConfigurationTarget.Global);
  });
  after(async () => {
    await setMagi('edits.review', undefined);
    await vscode.workspace.getConfiguration('files').update('autoSave', undefined, vscode.ConfigurationTarget.Global);
  });

  it('a dirty editor: read sees its unsaved text, hash_edit edits it, and it stays unsaved with the disk untouched', async () => {
    const rel = 'review/dirty.txt';
    const onDisk = await fsp.readFile(fixture(rel), 'utf8');
    const editor = await showFile(rel);
    try {
      assert.ok(await editor.edit((edit) => edit.insert(new vscode.Position(2, 0), 'unsaved line 3\n')));
      assert.equal(editor.document.isDirty, true);
      const read = await runTool('read', { paths: [rel] });
      assert.deepEqual(read.content.split('\n').slice(1), ['1:saved line 1', '2:saved line 2', '3:unsaved line 3']);
      const edit = await runTool('hash_edit', { input: `[${rel}#${await tagOf(rel)}]\nSWAP 3:\n+unsaved line 3, edited by Magi` });
      assert.equal(edit.status, 'success', edit.content);
      assert.equal(editor.document.getText(), 'saved line 1\nsaved line 2\nunsaved line 3, edited by Magi\n');
      assert.equal(editor.document.isDirty, true, "the person's unsaved changes stay unsaved");
      assert.equal(await fsp.readFile(fixture(rel), 'utf8'), onDisk);
    } finally {
      await vscode.window.showTextDocument(editor.document);
      await vscode.commands.executeCommand('workbench.action.files.revert');
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    }
  });

  it('a clean open file: the edit is saved, and the editor\'s undo restores the old text', async () => {
    const rel = 'review/clean-open.txt';
    const editor = await showFile(rel);
    try {
      const edit = await runTool('hash_edit', { input: `[${rel}#${await tagOf(rel)}]\nSWAP 2:\n+clean 2, edited` });
      assert.equal(edit.status, 'success', edit.content);
      assert.equal(await fsp.readFile(fixture(rel), 'utf8'), 'clean 1\nclean 2, edited\n');
      assert.equal(editor.document.isDirty, false, 'saved');
      assert.equal(editor.document.getText(), 'clean 1\nclean 2, edited\n');
      await vscode.window.showTextDocument(editor.document);
      await vscode.commands.executeCommand('undo');
      await waitFor('the undo', () => (editor.document.getText() === 'clean 1\nclean 2\n' ? true : undefined));
    } finally {
      await vscode.window.showTextDocument(editor.document);
      await vscode.commands.executeCommand('workbench.action.files.revert');
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    }
  });

  it('a save participant does not change the bytes the tool wrote (trim trailing whitespace)', async () => {
    const rel = 'review/trailing.txt';
    const files = vscode.workspace.getConfiguration('files');
    await files.update('trimTrailingWhitespace', true, vscode.ConfigurationTarget.Global);
    const editor = await showFile(rel);
    try {
      const edit = await runTool('hash_edit', { input: `[${rel}#${await tagOf(rel)}]\nSWAP 2:\n+plain, then spaces   ` });
      assert.equal(edit.status, 'success', edit.content);
      assert.equal(await fsp.readFile(fixture(rel), 'utf8'), 'keep  \nplain, then spaces   \n');
      await waitFor('the editor to show the disk', () => (editor.document.getText() === 'keep  \nplain, then spaces   \n' ? true : undefined));
    } finally {
      await files.update('trimTrailingWhitespace', undefined, vscode.ConfigurationTarget.Global);
      await vscode.window.showTextDocument(editor.document);
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    }
  });

  it('keeps line endings byte-exact: a CRLF file in an editor, and a mixed one on disk only', async () => {
    const crlf = 'review/crlf.txt';
    const editor = await showFile(crlf);
    try {
      const edit = await runTool('hash_edit', { input: `[${crlf}#${await tagOf(crlf)}]\nSWAP 2:\n+SECOND\nINS.POST 3:\n+fourth` });
      assert.equal(edit.status, 'success', edit.content);
      assert.equal(await fsp.readFile(fixture(crlf), 'latin1'), 'first\r\nSECOND\r\nthird\r\nfourth\r\n');
      assert.equal(editor.document.isDirty, false);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    }
    const mixed = 'review/mixed.txt';
    const edit = await runTool('hash_edit', { input: `[${mixed}#${await tagOf(mixed)}]\nSWAP 1:\n+A` });
    assert.equal(edit.status, 'success', edit.content);
    assert.equal(await fsp.readFile(fixture(mixed), 'latin1'), 'A\r\nb\nc\r\n', 'mixed endings stay as they were');
  });
});
