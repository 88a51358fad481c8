import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { useAnchoring } from '../../../../src/core/fs/anchor';
import { makeFolders, removeFolders } from '../../../../src/core/fs/folders';

describe('making parent folders', () => {
  let base: string;
  let root: string;
  let outside: string;
  const caller = () => ({ tool: 'write', display: 'target.txt', within: root });
  beforeEach(async () => {
    base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-folders-')));
    root = path.join(base, 'ws');
    outside = path.join(base, 'outside');
    await fsp.mkdir(root);
    await fsp.mkdir(outside);
  });
  afterEach(async () => {
    useAnchoring(undefined);
    await fsp.rm(base, { recursive: true, force: true });
  });

  for (const mode of [undefined, false] as const) {
    describe(mode === false ? 'path-only' : 'as the platform allows', () => {
      beforeEach(() => useAnchoring(mode));

      it('makes the missing folders one at a time and says which, outermost first', async () => {
        await fsp.mkdir(path.join(root, 'a'));
        const made = await makeFolders(path.join(root, 'a', 'b', 'c'), caller());
        assert.deepEqual(made, [path.join(root, 'a', 'b'), path.join(root, 'a', 'b', 'c')]);
        assert.ok((await fsp.stat(path.join(root, 'a', 'b', 'c'))).isDirectory());
        assert.deepEqual(await makeFolders(path.join(root, 'a', 'b', 'c'), caller()), []);
      });

      it('removes what it made, deepest first, but never a folder someone put a file in', async () => {
        const made = await makeFolders(path.join(root, 'a', 'b'), caller());
        await removeFolders(made);
        assert.deepEqual(await fsp.readdir(root), []);
        const again = await makeFolders(path.join(root, 'a', 'b'), caller());
        await fsp.writeFile(path.join(root, 'a', 'keep.txt'), 'k');
        await removeFolders(again);
        assert.deepEqual(await fsp.readdir(path.join(root, 'a')), ['keep.txt']);
      });

      it('refuses a parent that is a file', async () => {
        await fsp.writeFile(path.join(root, 'file'), '');
        await assert.rejects(makeFolders(path.join(root, 'file', 'sub'), caller()), /write: a parent of target\.txt exists and is not a folder\./);
      });

      it('refuses to make anything below a folder that resolves outside `within`, and makes nothing there', async () => {
        await fsp.symlink(outside, path.join(root, 'link'));
        await assert.rejects(makeFolders(path.join(root, 'link', 'new', 'deeper'), caller()), (err: Error & { code?: string }) => {
          assert.equal(err.code, 'conflict');
          assert.match(err.message, /write: the folder of target\.txt changed \(a symlink was swapped in\) while the call ran; nothing was written/);
          return true;
        });
        assert.deepEqual(await fsp.readdir(outside), []);
      });

      it('never creates through a dangling symlink on the way', async () => {
        await fsp.symlink(path.join(outside, 'made-there'), path.join(root, 'dangling'));
        await assert.rejects(makeFolders(path.join(root, 'dangling', 'x'), caller()), /changed \(a symlink was swapped in\)/);
        assert.deepEqual(await fsp.readdir(outside), []);
      });

      it('does not remove through a path that now leads elsewhere', async () => {
        await fsp.mkdir(path.join(root, 'p'));
        const made = await makeFolders(path.join(root, 'p', 'new'), caller());
        await fsp.rename(path.join(root, 'p'), path.join(root, 'p.real'));
        await fsp.symlink(outside, path.join(root, 'p'));
        await fsp.mkdir(path.join(outside, 'new'));
        await removeFolders(made);
        assert.deepEqual(await fsp.readdir(outside), ['new']);
      });
    });
  }
});
