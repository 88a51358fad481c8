import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { hashEditTool } from '../../../../../src/core/tools/hashEdit';
import { dispatchTool } from '../../../../../src/core/tools/dispatch';
import { ToolRegistry } from '../../../../../src/core/tools/registry';
import type { ReviewDecision } from '../../../../../src/core/tools/review';
import { ToolRuntime } from '../../../../../src/core/tools/runtime';
import { ScriptedReview } from '../../../helpers/review';
import { abs, exists, fileWith, makeFixture, type Fixture } from './helpers';

describe('hash_edit with a reviewer', () => {
  let fx: Fixture;
  beforeEach(async () => {
    fx = await makeFixture();
  });
  afterEach(() => fx.cleanup());

  /** Swaps in a runtime with the reviewer, keeping the fixture's read snapshots. */
  async function withReview(decision: ReviewDecision, onReview?: () => Promise<void>): Promise<ScriptedReview> {
    const review = new ScriptedReview(decision, onReview);
    const runtime = await ToolRuntime.create({ root: fx.root, review });
    for (const rel of ['a.txt', 'b.txt', 'gone.txt']) {
      const snapshot = fx.runtime.snapshots.newest(abs(fx, rel));
      if (snapshot) runtime.snapshots.record(abs(fx, rel), snapshot.tag, snapshot.text, snapshot.visible);
    }
    fx.runtime = runtime;
    return review;
  }

  async function run(input: string) {
    return (await dispatchTool(new ToolRegistry([hashEditTool]), fx.runtime, 'hash_edit', { input })).result;
  }

  it('rejected: every file keeps its bytes, and the result says rejected by the user', async () => {
    const a = await fileWith(fx, 'a.txt', 'one\r\ntwo\r\n');
    const gone = await fileWith(fx, 'gone.txt', 'bye\n');
    const review = await withReview('reject');
    const result = await run(`${a}\nSWAP 2:\n+TWO\n[gone.txt#${gone.slice(10, -1)}]\nREM`);
    assert.equal(result.status, 'error');
    assert.equal(result.content, 'rejected by the user: the hash_edit was not applied; a.txt is unchanged, gone.txt is unchanged. Do not retry the same change; ask the person what they want instead.');
    assert.deepEqual(review.proposals[0]?.files, [
      { path: abs(fx, 'a.txt'), display: 'a.txt', before: 'one\r\ntwo\r\n', after: 'one\r\nTWO\r\n' },
      { path: abs(fx, 'gone.txt'), display: 'gone.txt', before: 'bye\n', after: null },
    ]);
    assert.deepEqual([...(await fsp.readFile(abs(fx, 'a.txt')))], [...Buffer.from('one\r\ntwo\r\n')]);
    assert.equal(await exists(fx, 'gone.txt'), true);
  });

  it('accepted: asked while the files are untouched, then writes exactly the proposed text', async () => {
    const a = await fileWith(fx, 'a.txt', 'one\ntwo\n');
    const b = await fileWith(fx, 'b.txt', 'stay\n');
    const onDisk: string[] = [];
    const review = await withReview('accept', async () => {
      onDisk.push(await fsp.readFile(abs(fx, 'a.txt'), 'utf8'));
    });
    const result = await run(`${a}\nINS.POST 1:\n+zero\n${b}\nMV moved/b.txt`);
    assert.equal(result.status, 'success', result.content);
    assert.deepEqual(onDisk, ['one\ntwo\n']);
    const [editA, moveB] = review.proposals[0]?.files ?? [];
    assert.equal(await fsp.readFile(abs(fx, 'a.txt'), 'utf8'), editA?.after);
    assert.equal(editA?.after, 'one\nzero\ntwo\n');
    assert.deepEqual(moveB, { path: abs(fx, 'b.txt'), display: 'b.txt', before: 'stay\n', after: 'stay\n', movedTo: abs(fx, 'moved/b.txt') });
    assert.equal(await fsp.readFile(abs(fx, 'moved/b.txt'), 'utf8'), 'stay\n');
  });

  it('is not asked when validation fails', async () => {
    await fileWith(fx, 'a.txt', 'one\n');
    const review = await withReview('accept');
    const result = await run('[a.txt#000000]\nSWAP 1:\n+x');
    assert.equal(result.status, 'error');
    assert.deepEqual(review.proposals, []);
  });

  it('refuses as stale, writing nothing, when another program changed the file during the review', async () => {
    const a = await fileWith(fx, 'a.txt', 'one\ntwo\nthree\n');
    await withReview('accept', () => fsp.writeFile(abs(fx, 'a.txt'), 'one\ntwo\nthree\nadded by an editor\n'));
    const result = await run(`${a}\nSWAP 2:\n+TWO`);
    assert.equal(result.metadata.error, 'stale_tag');
    assert.match(result.content, /^hash_edit: a\.txt changed while the edit was being made \(another program wrote it\); nothing was written\. Re-read it \(read a\.txt:1-4\)/);
    assert.equal(await fsp.readFile(abs(fx, 'a.txt'), 'utf8'), 'one\ntwo\nthree\nadded by an editor\n');
  });
});
