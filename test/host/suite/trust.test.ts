import * as assert from 'node:assert/strict';
import { existsSync, promises as fsp } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { ModalCommandApproval, RUN, RUN_AND_ALLOW, exactEntry, type AskPerson } from '../../../src/host/approval';
import { root, runTool } from '../support/magi';

const ALLOW = 'capabilities.tools.bash.allow';
const DENY = 'capabilities.tools.bash.deny';

/** An AskPerson that records each question and gives a fixed answer, in place of the modal a test cannot click. */
function answering(answer: string | undefined): AskPerson & { asked: { message: string; options: vscode.MessageOptions; buttons: string[] }[] } {
  const asked: { message: string; options: vscode.MessageOptions; buttons: string[] }[] = [];
  const ask = (message: string, options: vscode.MessageOptions, ...buttons: string[]): Thenable<string | undefined> => {
    asked.push({ message, options, buttons });
    return Promise.resolve(answer);
  };
  return Object.assign(ask, { asked });
}

/**
 * The workspace is trusted here (code-server runs with --disable-workspace-trust), so the mutating
 * tools are offered. Every bash command below is on the allow or deny list: an unlisted one would
 * open the modal approval prompt, which nothing here can answer, and the test would time out.
 */
describe('Trust and approvals in the real extension host', function () {
  this.timeout(30_000);
  const config = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('magi');
  // Edits apply at once here; review.test.ts covers their review (default `before`).
  before(() => config().update('edits.review', 'off', vscode.ConfigurationTarget.Global));
  after(() => config().update('edits.review', undefined, vscode.ConfigurationTarget.Global));
  afterEach(async () => {
    await config().update(ALLOW, undefined, vscode.ConfigurationTarget.Global);
    await config().update(DENY, undefined, vscode.ConfigurationTarget.Global);
    await config().update(ALLOW, undefined, vscode.ConfigurationTarget.Workspace);
  });

  it('runs write and hash_edit in a trusted workspace', async () => {
    assert.equal(vscode.workspace.isTrusted, true);
    const write = await runTool('write', { path: 'trust/written.txt', content: 'written by Magi\n' });
    assert.equal(write.status, 'success', write.content);
    assert.equal(await fsp.readFile(join(root(), 'trust/written.txt'), 'utf8'), 'written by Magi\n');
    const read = await runTool('read', { paths: ['trust/edit.txt'] });
    const tag = /^\[trust\/edit\.txt#([0-9A-F]+)\]/.exec(read.content)?.[1];
    assert.ok(tag, read.content);
    const edit = await runTool('hash_edit', { input: `[trust/edit.txt#${tag}]\nSWAP 2:\n+second, trusted` });
    assert.equal(edit.status, 'success', edit.content);
    assert.equal(await fsp.readFile(join(root(), 'trust/edit.txt'), 'utf8'), 'first\nsecond, trusted\nthird\n');
  });

  it('runs an allow-listed command without a prompt', async () => {
    await config().update(ALLOW, ['touch trust/allowed'], vscode.ConfigurationTarget.Global);
    const result = await runTool('bash', { command: 'touch trust/allowed', intent: 'make the marker' });
    assert.equal(result.status, 'success', result.content);
    assert.equal(existsSync(join(root(), 'trust/allowed')), true);
  });

  it('refuses a deny-listed command without a prompt, even when allowed, and names the entry', async () => {
    await config().update(ALLOW, ['touch'], vscode.ConfigurationTarget.Global);
    await config().update(DENY, ['/denied$/'], vscode.ConfigurationTarget.Global);
    const result = await runTool('bash', { command: 'touch trust/denied', intent: 'make the marker' });
    assert.equal(result.status, 'error');
    assert.equal(result.metadata['error'], 'setting_denied');
    assert.match(result.content, /^bash: refused: the command matches the entry "\/denied\$\/" of magi\.capabilities\.tools\.bash\.deny, .*ask the person to remove that entry/);
    assert.equal(existsSync(join(root(), 'trust/denied')), false);
  });

  it('asks with the intent as the message and the command and directory as the detail; Cancel declines', async () => {
    const ask = answering(undefined);
    const decision = await new ModalCommandApproval(ask).approve({ command: 'make build', intent: 'build the project', cwd: root() }, new AbortController().signal);
    assert.deepEqual(decision, { approved: false, reason: 'declined in the approval prompt' });
    assert.deepEqual(ask.asked, [{ message: 'build the project', options: { modal: true, detail: `Magi wants to run:\n\nmake build\n\nin ${root()}` }, buttons: [RUN, RUN_AND_ALLOW] }]);
    assert.deepEqual(await new ModalCommandApproval(answering(RUN)).approve({ command: 'make build', intent: 'build', cwd: root() }, new AbortController().signal), { approved: true });
  });

  it('declines at once when the run is cancelled while the prompt is open', async () => {
    const controller = new AbortController();
    const never: AskPerson = () => {
      controller.abort();
      return new Promise<string | undefined>(() => undefined);
    };
    const decision = await new ModalCommandApproval(never).approve({ command: 'make', intent: 'build', cwd: root() }, controller.signal);
    assert.deepEqual(decision, { approved: false, reason: 'the run was cancelled' });
  });

  it('"Run and Always Allow" adds the exact command to the workspace allow list, which then runs it without a prompt', async () => {
    const command = 'touch trust/remembered && echo "a.b (c)"';
    const decision = await new ModalCommandApproval(answering(RUN_AND_ALLOW)).approve({ command, intent: 'remember it', cwd: root() }, new AbortController().signal);
    assert.deepEqual(decision, { approved: true });
    assert.deepEqual(config().inspect<string[]>(ALLOW)?.workspaceValue, [exactEntry(command)]);
    const result = await runTool('bash', { command, intent: 'make the marker' });
    assert.equal(result.status, 'success', result.content);
    assert.equal(result.content, 'a.b (c)\n[exit 0]');
    assert.equal(existsSync(join(root(), 'trust/remembered')), true);
  });
});
