import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as vscode from 'vscode';
import type { RevertOutcome } from '../../../src/host/review/editHistory';
import type { RunToolResult } from '../../../src/host/runTool';
import { fixture, reviewTabs, runTool, setMagi, sha256, tagOf, waitFor } from '../support/edits';

/** Waits for the review diff of the running tool call to open; returns its tab and the proposed text it shows. */
async function openReview(running: Thenable<RunToolResult>): Promise<{ input: vscode.TabInputTextDiff; proposed: string }> {
  let finished: RunToolResult | undefined;
  running.then((result) => (finished = result));
  const [open] = await waitFor('the review diff editor', () => {
    if (finished) throw new Error(`the tool finished without a review: ${finished.content}`);
    return reviewTabs().length > 0 ? reviewTabs() : undefined;
  });
  assert.ok(open);
  const proposed = (await vscode.workspace.openTextDocument(open.input.modified)).getText();
  return { input: open.input, proposed };
}

async function closedAfterDecision(): Promise<void> {
  await waitFor('the review diff to close', () => (reviewTabs().length === 0 ? true : undefined));
}

describe('Review of edits (magi.edits.review)', () => {
  afterEach(async () => {
    // A failed test may leave its review open, which would hold up the next one.
    while (reviewTabs().length > 0) {
      await vscode.commands.executeCommand('magi.rejectEdit');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    await setMagi('edits.review', undefined);
  });

  it('before (default): Reject leaves hash_edit\'s file byte-for-byte unchanged and tells the model', async () => {
    const rel = 'review/reject-me.txt';
    const hash = await sha256(rel);
    const running = runTool('hash_edit', { input: `[${rel}#${await tagOf(rel)}]\nSWAP 2:\n+TWO` });
    const { input, proposed } = await openReview(running);
    assert.equal(input.original.toString(), vscode.Uri.file(fixture(rel)).toString(), 'the left side is the file itself');
    assert.equal(proposed, 'one\nTWO\nthree\n');
    assert.equal(await vscode.commands.executeCommand('magi.rejectEdit'), true);
    const result = await running;
    assert.equal(result.status, 'error');
    assert.match(result.content, /^rejected by the user: the hash_edit was not applied; review\/reject-me\.txt is unchanged\./);
    assert.equal(await sha256(rel), hash);
    await closedAfterDecision();
  });

  it('before: Accept applies exactly the proposed text of a hash_edit', async () => {
    const rel = 'review/accept-me.txt';
    const running = runTool('hash_edit', { input: `[${rel}#${await tagOf(rel)}]\nDEL 1\nSWAP 3:\n+THREE` });
    const { proposed } = await openReview(running);
    assert.equal(await vscode.commands.executeCommand('magi.acceptEdit'), true);
    const result = await running;
    assert.equal(result.status, 'success', result.content);
    assert.equal(proposed, 'two\nTHREE\n');
    assert.equal(await fsp.readFile(fixture(rel), 'utf8'), proposed);
    await closedAfterDecision();
  });

  it('before: a rejected write of a new file creates nothing; the diff compares against an empty proposed document', async () => {
    const rel = 'review/new/created.txt';
    const running = runTool('write', { path: rel, content: 'brand new\n' });
    const { input, proposed } = await openReview(running);
    assert.equal(input.original.scheme, 'magi-proposed');
    assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), '');
    assert.equal(proposed, 'brand new\n');
    await vscode.commands.executeCommand('magi.rejectEdit');
    const result = await running;
    assert.match(result.content, /^rejected by the user: .*review\/new\/created\.txt was not created/);
    await assert.rejects(fsp.stat(fixture('review/new')), 'not even the folder is left');
    await closedAfterDecision();
  });

  it('before: write — Reject keeps the file, Accept writes exactly the proposed text', async () => {
    const kept = 'review/write-reject.txt';
    const hash = await sha256(kept);
    const rejected = runTool('write', { path: kept, content: 'replaced\n' });
    await openReview(rejected);
    await vscode.commands.executeCommand('magi.rejectEdit');
    assert.match((await rejected).content, /^rejected by the user/);
    assert.equal(await sha256(kept), hash);
    await closedAfterDecision();

    const rel = 'review/write-accept.txt';
    const accepted = runTool('write', { path: rel, content: 'new content\r\nwith CRLF\r\n' });
    const { proposed } = await openReview(accepted);
    await vscode.commands.executeCommand('magi.acceptEdit');
    assert.equal((await accepted).status, 'success');
    assert.equal(await fsp.readFile(fixture(rel), 'utf8'), 'new content\r\nwith CRLF\r\n');
    assert.equal(proposed.replace(/\r\n/g, '\n'), 'new content\nwith CRLF\n', 'the diff shows the proposed text');
    await closedAfterDecision();
  });

  it('before: reviews wait in line, one diff at a time', async () => {
    const first = runTool('write', { path: 'review/queue-1.txt', content: 'first\n' });
    assert.equal((await openReview(first)).proposed, 'first\n');
    const second = runTool('write', { path: 'review/queue-2.txt', content: 'second\n' });
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(reviewTabs().length, 1, 'the second review waits for the first');
    await vscode.commands.executeCommand('magi.acceptEdit');
    await first;
    await waitFor('the second review', () => (reviewTabs()[0]?.input.modified.path.endsWith('queue-2.txt') ? true : undefined));
    await vscode.commands.executeCommand('magi.rejectEdit');
    assert.match((await second).content, /^rejected by the user/);
    assert.equal(await fsp.readFile(fixture('review/queue-1.txt'), 'utf8'), 'first\n');
    await assert.rejects(fsp.stat(fixture('review/queue-2.txt')));
  });

  it('before: closing the diff without deciding rejects the edit', async () => {
    const rel = 'review/write-reject.txt';
    const hash = await sha256(rel);
    const running = runTool('write', { path: rel, content: 'closed unseen\n' });
    await openReview(running);
    // A Tab object goes stale when its tab changes (it becomes active just after opening): close the current ones until none is left.
    for (let tries = 0; reviewTabs().length > 0 && tries < 50; tries++) {
      await vscode.window.tabGroups.close(reviewTabs().map(({ tab }) => tab));
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    assert.match((await running).content, /^rejected by the user/);
    assert.equal(await sha256(rel), hash);
  });

  it('after: the edit applies at once, and magi.revertEdit restores the original bytes', async () => {
    const rel = 'review/revert-me.txt';
    const original = await fsp.readFile(fixture(rel));
    await setMagi('edits.review', 'after');
    const result = await runTool('hash_edit', { input: `[${rel}#${await tagOf(rel)}]\nSWAP 1:\n+after revert?` });
    assert.equal(result.status, 'success', result.content);
    assert.equal(reviewTabs().length, 0, 'no review diff in mode after');
    assert.equal(await fsp.readFile(fixture(rel), 'utf8'), 'after revert?\nline two\n');
    const outcome = await vscode.commands.executeCommand<RevertOutcome>('magi.revertEdit');
    assert.equal(outcome.reverted, true, outcome.message);
    assert.deepEqual(await fsp.readFile(fixture(rel)), original);
    const again = await vscode.commands.executeCommand<RevertOutcome>('magi.revertEdit');
    assert.deepEqual(again, { reverted: false, message: 'There is no applied Magi edit to revert.' });
  });

  it('after: revert refuses, changing nothing, once the file changed since the edit', async () => {
    const rel = 'review/after-changed.txt';
    await setMagi('edits.review', 'after');
    assert.equal((await runTool('write', { path: rel, content: 'written\n' })).status, 'success');
    await fsp.writeFile(fixture(rel), 'changed by the person\n');
    const outcome = await vscode.commands.executeCommand<RevertOutcome>('magi.revertEdit');
    assert.equal(outcome.reverted, false);
    assert.match(outcome.message, /^Cannot revert the write of review\/after-changed\.txt: after-changed\.txt changed after the edit/);
    assert.equal(await fsp.readFile(fixture(rel), 'utf8'), 'changed by the person\n');
  });

  it('off: the edit applies at once with no review', async () => {
    await setMagi('edits.review', 'off');
    const result = await runTool('write', { path: 'review/off.txt', content: 'no review\n' });
    assert.equal(result.status, 'success', result.content);
    assert.equal(await fsp.readFile(fixture('review/off.txt'), 'utf8'), 'no review\n');
  });
});
