import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { createDefaultRegistry } from '../../../../src/core/tools';
import { dispatchTool } from '../../../../src/core/tools/dispatch';
import type { ReviewDecision } from '../../../../src/core/tools/review';
import { ToolRuntime } from '../../../../src/core/tools/runtime';
import { ScriptedReview } from '../../helpers/review';
import { tempWorkspace, type TempWorkspace } from '../../helpers/workspace';

describe('write', () => {
  let ws: TempWorkspace;
  beforeEach(async () => {
    ws = await tempWorkspace();
  });
  afterEach(() => ws.cleanup());

  it('creates a file and its parent folders', async () => {
    const result = await ws.run('write', { path: 'a/b/c.txt', content: 'hello\n' });
    assert.equal(result.status, 'success');
    assert.equal(await ws.text('a/b/c.txt'), 'hello\n');
    assert.equal(result.metadata.created, true);
    assert.match(result.content, /^Created a\/b\/c\.txt \(6 bytes, 1 lines\)/);
  });

  it('overwrites atomically, keeps the mode, and leaves no temp file', async () => {
    await ws.files({ 'x.sh': '#!/bin/sh\n' });
    await fsp.chmod(path.join(ws.root, 'x.sh'), 0o755);
    const result = await ws.run('write', { path: 'x.sh', content: 'echo hi\n' });
    assert.equal(result.metadata.created, false);
    assert.equal(await ws.text('x.sh'), 'echo hi\n');
    assert.equal((await fsp.stat(path.join(ws.root, 'x.sh'))).mode & 0o777, 0o755);
    assert.deepEqual(await fsp.readdir(ws.root), ['x.sh']);
  });

  it('accepts exactly 1 MiB and refuses one byte more, changing nothing', async () => {
    const MiB = 1024 * 1024;
    assert.equal((await ws.run('write', { path: 'ok.txt', content: 'a'.repeat(MiB) })).status, 'success');
    const big = await ws.run('write', { path: 'big/big.txt', content: 'a'.repeat(MiB + 1) });
    assert.equal(big.status, 'error');
    assert.match(big.content, /1048577 bytes, over the 1 MiB cap/);
    await assert.rejects(fsp.stat(path.join(ws.root, 'big')));
    // Multi-byte characters count as bytes, not characters.
    assert.equal((await ws.run('write', { path: 'u.txt', content: 'é'.repeat(MiB / 2 + 1) })).status, 'error');
  });

  it('refuses a final symlink, even one pointing inside the root', async () => {
    await ws.files({ 'target.txt': 'keep\n' });
    await fsp.symlink('target.txt', path.join(ws.root, 'link.txt'));
    const result = await ws.run('write', { path: 'link.txt', content: 'new\n' });
    assert.equal(result.status, 'error');
    assert.match(result.content, /is a symbolic link; writes never go through a symlink/);
    assert.equal(await ws.text('target.txt'), 'keep\n');
  });

  it('refuses .. escapes and symlinked parent folders leaving the root', async () => {
    const outside = path.join(path.dirname(ws.root), 'outside');
    await fsp.mkdir(outside);
    await fsp.symlink(outside, path.join(ws.root, 'out'));
    assert.match((await ws.run('write', { path: '../escape.txt', content: 'x' })).content, /escapes the workspace root/);
    assert.match((await ws.run('write', { path: 'out/x.txt', content: 'x' })).content, /through a symlink/);
    assert.deepEqual(await fsp.readdir(outside), []);
  });

  it('refuses absolute paths outside the root when capabilities.tools.write.absolute_paths is false (older alias too)', async () => {
    const strict = await tempWorkspace({ tools: { write: { absolute_paths: false } } });
    try {
      const target = path.join(path.dirname(strict.root), 'out.txt');
      const result = await strict.run('write', { path: target, content: 'x' });
      assert.match(result.content, /capabilities\.tools\.write\.absolute_paths is false/);
      await assert.rejects(fsp.stat(target));
    } finally {
      await strict.cleanup();
    }
    const target = path.join(path.dirname(ws.root), 'allowed.txt');
    assert.equal((await ws.run('write', { path: target, content: 'x' })).status, 'success');
    assert.equal(await fsp.readFile(target, 'utf8'), 'x');
  });

  it('never creates a parent folder through a dangling symlink', async () => {
    const outside = path.join(path.dirname(ws.root), 'outside');
    await fsp.mkdir(outside);
    await fsp.symlink(path.join(outside, 'there'), path.join(ws.root, 'dangling'));
    assert.equal((await ws.run('write', { path: 'dangling/deeper/x.txt', content: 'x' })).status, 'error');
    assert.deepEqual(await fsp.readdir(outside), []);
  });

  it('refuses to replace a directory and rejects unknown fields', async () => {
    await ws.files({ 'd/x': '' });
    assert.match((await ws.run('write', { path: 'd', content: 'x' })).content, /is not a regular file/);
    assert.match((await ws.run('write', { path: 'a', content: 'x', mode: 'append' })).content, /unknown field `mode`/);
  });

  it('serializes concurrent writes to one file: the last call wins whole', async () => {
    const contents = Array.from({ length: 20 }, (_, i) => `${i}`.repeat(10000));
    await Promise.all(contents.map((content) => ws.run('write', { path: 'race.txt', content })));
    assert.ok(contents.includes(await ws.text('race.txt')));
    assert.deepEqual(await fsp.readdir(ws.root), ['race.txt']);
  });

  describe('with a reviewer', () => {
    async function reviewed(decision: ReviewDecision, args: { path: string; content: string }) {
      const shown: string[] = [];
      const review = new ScriptedReview(decision, async () => {
        shown.push(await fsp.readFile(path.join(ws.root, args.path), 'utf8').catch(() => '(absent)'));
      });
      const runtime = await ToolRuntime.create({ root: ws.root, review });
      const { result } = await dispatchTool(createDefaultRegistry(), runtime, 'write', args);
      return { result, review, shown };
    }

    it('rejected: leaves an existing file byte-for-byte unchanged and says so', async () => {
      await ws.files({ 'keep.txt': 'old\r\ntext\n' });
      const { result, review, shown } = await reviewed('reject', { path: 'keep.txt', content: 'new\n' });
      assert.equal(result.status, 'error');
      assert.equal(result.content, 'rejected by the user: the write was not applied; keep.txt is unchanged. Do not retry the same change; ask the person what they want instead.');
      assert.equal(result.metadata['error'], 'declined');
      assert.deepEqual(review.proposals, [{ tool: 'write', files: [{ path: path.join(ws.root, 'keep.txt'), display: 'keep.txt', before: 'old\r\ntext\n', after: 'new\n' }] }]);
      assert.deepEqual(shown, ['old\r\ntext\n']);
      assert.equal(await ws.text('keep.txt'), 'old\r\ntext\n');
    });

    it('rejected: a new file is not created, nor the folders made for it', async () => {
      const { result, review } = await reviewed('reject', { path: 'new/deep/file.txt', content: 'x\n' });
      assert.match(result.content, /^rejected by the user: the write was not applied; new\/deep\/file\.txt was not created\./);
      assert.equal(review.proposals[0]?.files[0]?.before, null);
      assert.deepEqual(await fsp.readdir(ws.root), []);
    });

    it('accepted: asked before the first byte is written, then writes exactly the proposed text', async () => {
      await ws.files({ 'a.txt': 'before\n' });
      const { result, shown } = await reviewed('accept', { path: 'a.txt', content: 'after\r\n' });
      assert.equal(result.status, 'success', result.content);
      assert.deepEqual(shown, ['before\n']);
      assert.equal(await ws.text('a.txt'), 'after\r\n');
    });

    it('cancelled while the review is open: reports the cancellation and writes nothing', async () => {
      await ws.files({ 'a.txt': 'kept\n' });
      const controller = new AbortController();
      const review = {
        review: (_proposal: unknown, signal: AbortSignal) => new Promise<ReviewDecision>((resolve) => {
          signal.addEventListener('abort', () => resolve('reject'), { once: true });
          controller.abort();
        }),
      };
      const runtime = await ToolRuntime.create({ root: ws.root, review });
      const { result } = await dispatchTool(createDefaultRegistry(), runtime, 'write', { path: 'a.txt', content: 'new\n' }, { signal: controller.signal });
      assert.equal(result.status, 'error');
      assert.equal(result.content, 'write: cancelled.');
      assert.equal(await ws.text('a.txt'), 'kept\n');
    });

    it('a folder swapped for a symlink during the review: nothing is written, and nothing outside is touched', async () => {
      const outside = path.join(path.dirname(ws.root), 'outside');
      await fsp.mkdir(path.join(outside, 'new'), { recursive: true });
      await fsp.writeFile(path.join(outside, 'new', 'keep.txt'), 'theirs\n');
      await ws.files({ 'd/old.txt': 'old\n' });
      const review = new ScriptedReview('accept', async () => {
        await fsp.rename(path.join(ws.root, 'd'), path.join(ws.root, 'd.real'));
        await fsp.symlink(outside, path.join(ws.root, 'd'));
      });
      const runtime = await ToolRuntime.create({ root: ws.root, review });
      const { result } = await dispatchTool(createDefaultRegistry(), runtime, 'write', { path: 'd/new/x.txt', content: 'x\n' });
      assert.equal(result.metadata['error'], 'conflict', result.content);
      assert.match(result.content, /the folder of d\/new\/x\.txt changed \(a symlink was swapped in\) while the call ran; nothing was written/);
      // The folder made for the file is not removed through the symlink (that would empty outside/new).
      assert.deepEqual(await fsp.readdir(path.join(outside, 'new')), ['keep.txt']);
      assert.deepEqual(await fsp.readdir(outside), ['new']);
    });

    it('shows a file that is not UTF-8 as a description, not as text', async () => {
      await ws.files({ 'bin.dat': Buffer.from([0xff, 0xfe, 0x00]) });
      const { review } = await reviewed('reject', { path: 'bin.dat', content: 'text\n' });
      assert.equal(review.proposals[0]?.files[0]?.before, '(3 bytes, not UTF-8 text)');
      assert.deepEqual([...(await fsp.readFile(path.join(ws.root, 'bin.dat')))], [0xff, 0xfe, 0x00]);
    });
  });
});
