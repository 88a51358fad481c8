import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFilePort, type MoveOptions, type WriteOptions } from '../../../../../src/core/fs/filePort';
import { hashEditTool } from '../../../../../src/core/tools/hashEdit';
import { dispatchTool } from '../../../../../src/core/tools/dispatch';
import { ToolRegistry } from '../../../../../src/core/tools/registry';
import { ToolRuntime } from '../../../../../src/core/tools/runtime';
import { contentTag } from '../../../../../src/core/tools/textDoc';
import { abs, edit, editOk, exists, fileWith, makeFixture, put, text, type Fixture } from './helpers';

describe('hash_edit MV, REM and the commit step', () => {
  let fx: Fixture;
  beforeEach(async () => {
    fx = await makeFixture();
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  it('moves a file, creating parent folders, and carries the tag to the new path', async () => {
    const header = await fileWith(fx, 'a.txt', 'one\ntwo\n');
    const tag = contentTag('one\ntwo\n');
    const result = await editOk(fx, `${header}\nMV deep/er/b.txt`);
    assert.equal(result.content, `[deep/er/b.txt#${tag}]\nmoved a.txt to deep/er/b.txt; the content is unchanged, so tag #${tag} and its line numbers stay valid at the new path.`);
    assert.deepEqual(result.metadata.paths, ['a.txt', 'deep/er/b.txt']);
    assert.equal(await exists(fx, 'a.txt'), false);
    assert.equal(await text(fx, 'deep/er/b.txt'), 'one\ntwo\n');
    await editOk(fx, `[deep/er/b.txt#${tag}]\nSWAP 2:\n+TWO`);
    assert.equal(await text(fx, 'deep/er/b.txt'), 'one\nTWO\n');
    assert.equal(fx.runtime.snapshots.newest(abs(fx, 'a.txt')), undefined);
  });

  it('refuses to move onto an existing file, changing neither', async () => {
    const header = await fileWith(fx, 'a.txt', 'a\n');
    await put(fx, 'b.txt', 'b\n');
    const result = await edit(fx, `${header}\nMV b.txt`);
    assert.equal(result.metadata.error, 'conflict');
    assert.match(result.content, /MV destination b\.txt already exists; MV never overwrites/);
    assert.equal(await text(fx, 'a.txt'), 'a\n');
    assert.equal(await text(fx, 'b.txt'), 'b\n');
  });

  it('refuses a destination that is a dangling symlink or escapes the root', async () => {
    const header = await fileWith(fx, 'a.txt', 'a\n');
    await fsp.symlink(abs(fx, 'nowhere'), abs(fx, 'dangling'));
    assert.equal((await edit(fx, `${header}\nMV dangling`)).metadata.error, 'symlink');
    assert.equal((await edit(fx, `${header}\nMV ../b.txt`)).metadata.error, 'outside_root');
    assert.equal(await text(fx, 'a.txt'), 'a\n');
  });

  it('refuses an absolute destination outside the root when the setting is false', async () => {
    const denied = await makeFixture({ 'capabilities.tools.hash_edit.absolute_paths': false });
    const outside = await fsp.mkdtemp(path.join(os.tmpdir(), 'hash-edit-outside-'));
    try {
      const header = await fileWith(denied, 'a.txt', 'a\n');
      const result = await edit(denied, `${header}\nMV ${path.join(outside, 'b.txt')}`);
      assert.equal(result.metadata.error, 'setting_denied');
      assert.match(result.content, /capabilities\.tools\.hash_edit\.absolute_paths/);
      assert.equal(await text(denied, 'a.txt'), 'a\n');
      assert.deepEqual(await fsp.readdir(outside), []);
    } finally {
      await denied.cleanup();
      await fsp.rm(outside, { recursive: true, force: true });
    }
  });

  it('MV whose new destination folder is swapped for a symlink just before the move: nothing moves outside', async () => {
    const outside = path.join(path.dirname(fx.root), 'outside');
    await fsp.mkdir(path.join(outside, 'new'), { recursive: true });
    await fsp.writeFile(path.join(outside, 'new', 'keep.txt'), 'theirs\n');
    await fsp.mkdir(abs(fx, 'sub'));
    /** Swaps sub/ for a symlink to outside/ after every check of the commit step, just before the move. */
    class RacingPort extends NodeFilePort {
      override async moveFile(fromAbs: string, toAbs: string, options?: MoveOptions): Promise<void> {
        await fsp.rename(abs(fx, 'sub'), abs(fx, 'sub.real'));
        await fsp.symlink(outside, abs(fx, 'sub'));
        return super.moveFile(fromAbs, toAbs, options);
      }
    }
    const runtime = await ToolRuntime.create({ root: fx.root, files: new RacingPort() });
    const local: Fixture = { ...fx, runtime };
    const header = await fileWith(local, 'a.txt', 'a\n');
    const { result } = await dispatchTool(new ToolRegistry([hashEditTool]), runtime, 'hash_edit', { input: `${header}\nMV sub/new/b.txt` });
    assert.equal(result.metadata.error, 'conflict', result.content);
    assert.match(result.content, /the folder of sub\/new\/b\.txt changed \(a symlink was swapped in\) while the call ran; nothing was written/);
    assert.equal(await text(fx, 'a.txt'), 'a\n');
    assert.deepEqual(await fsp.readdir(path.join(outside, 'new')), ['keep.txt']);
  });

  it('removes a regular file and forgets its tags', async () => {
    const header = await fileWith(fx, 'a.txt', 'a\n');
    const result = await editOk(fx, `${header}\nREM`);
    assert.equal(result.content, 'removed a.txt; its tags no longer apply.');
    assert.equal(await exists(fx, 'a.txt'), false);
    assert.equal(fx.runtime.snapshots.newest(abs(fx, 'a.txt')), undefined);
  });

  it('refuses REM of a directory and of a symlink', async () => {
    await fsp.mkdir(abs(fx, 'dir'));
    const dir = await edit(fx, '[dir#ABCDEF]\nREM');
    assert.match(dir.content, /dir is a directory/);
    assert.ok((await fsp.stat(abs(fx, 'dir'))).isDirectory());

    await put(fx, 'real.txt', 'r\n');
    await fsp.symlink(abs(fx, 'real.txt'), abs(fx, 'link.txt'));
    fx.runtime.snapshots.record(abs(fx, 'link.txt'), contentTag('r\n'), 'r\n', [1]);
    const link = await edit(fx, `[link.txt#${contentTag('r\n')}]\nREM`);
    assert.equal(link.metadata.error, 'symlink');
    assert.ok((await fsp.lstat(abs(fx, 'link.txt'))).isSymbolicLink());
    assert.equal(await text(fx, 'real.txt'), 'r\n');
  });

  it('names the files already changed when a later commit fails', async () => {
    /** Fails writes to b.txt, as a full disk would. */
    class FailingPort extends NodeFilePort {
      override async writeFile(absPath: string, data: Uint8Array, options: WriteOptions = {}): Promise<void> {
        if (path.basename(absPath) === 'b.txt') throw new Error('ENOSPC: no space left on device');
        return super.writeFile(absPath, data, options);
      }
    }
    const runtime = await ToolRuntime.create({ root: fx.root, files: new FailingPort() });
    const local: Fixture = { ...fx, runtime };
    const a = await fileWith(local, 'a.txt', 'a\n');
    const b = await fileWith(local, 'b.txt', 'b\n');
    const { result } = await dispatchTool(new ToolRegistry([hashEditTool]), runtime, 'hash_edit', { input: `${a}\nSWAP 1:\n+A\n${b}\nSWAP 1:\n+B` });
    assert.equal(result.status, 'error');
    assert.equal(result.metadata.error, 'io');
    assert.match(result.content, /stopped at b\.txt \(ENOSPC: no space left on device\)\. These files were already changed: a\.txt; re-read them/);
    assert.equal(await text(fx, 'a.txt'), 'A\n');
    assert.equal(await text(fx, 'b.txt'), 'b\n');
    // a.txt's new tag was recorded, so it can be edited again right away.
    await editOk(local, `[a.txt#${contentTag('A\n')}]\nSWAP 1:\n+AA`);
  });

  it('checks the target again just before committing (recheckBeforeWrite)', async () => {
    const header = await fileWith(fx, 'a.txt', 'a\n');
    /** Swaps a symlink in between validation and commit. */
    class RacingPort extends NodeFilePort {
      override async writeFile(absPath: string, data: Uint8Array, options: WriteOptions = {}): Promise<void> {
        await fsp.rename(absPath, `${absPath}.orig`);
        await fsp.symlink(`${absPath}.orig`, absPath);
        return super.writeFile(absPath, data, options);
      }
    }
    const runtime = await ToolRuntime.create({ root: fx.root, files: new RacingPort() });
    runtime.snapshots.record(abs(fx, 'a.txt'), contentTag('a\n'), 'a\n', [1]);
    const { result } = await dispatchTool(new ToolRegistry([hashEditTool]), runtime, 'hash_edit', { input: `${header}\nSWAP 1:\n+x` });
    assert.equal(result.metadata.error, 'symlink');
    assert.equal(await text(fx, 'a.txt.orig'), 'a\n');
  });
});
