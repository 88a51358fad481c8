import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { anchoring, idOf, openChild, openFolder, removeIfSame, useAnchoring, type Folder } from '../../../../src/core/fs/anchor';

/** Swaps the folder `dir` for a symlink to `target`, keeping the real folder at `dir.real`. */
async function swap(dir: string, target: string): Promise<void> {
  await fsp.rename(dir, `${dir}.real`);
  await fsp.symlink(target, dir);
}

async function opened(dir: string): Promise<Folder> {
  const folder = await openFolder(dir);
  assert.ok(folder, `${dir} should open`);
  return folder;
}

describe('anchored folders', () => {
  let base: string;
  let outside: string;
  beforeEach(async () => {
    base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-anchor-')));
    outside = path.join(base, 'outside');
    await fsp.mkdir(path.join(base, 'ws', 'd'), { recursive: true });
    await fsp.mkdir(outside);
  });
  afterEach(async () => {
    useAnchoring(undefined);
    await fsp.rm(base, { recursive: true, force: true });
  });

  it('opens a folder by its real path, through a symlink on the way', async () => {
    await fsp.symlink(path.join(base, 'ws'), path.join(base, 'alias'));
    const folder = await opened(path.join(base, 'alias', 'd'));
    try {
      assert.equal(folder.real, path.join(base, 'ws', 'd'));
      assert.equal(folder.anchored, await anchoring());
    } finally {
      await folder.close();
    }
  });

  it('opens a folder named by a symlink as its target', async () => {
    await fsp.symlink(path.join(base, 'ws', 'd'), path.join(base, 'ws', 'link'));
    for (const mode of [undefined, false] as const) {
      useAnchoring(mode);
      const folder = await opened(path.join(base, 'ws', 'link'));
      assert.equal(folder.real, path.join(base, 'ws', 'd'));
      await folder.close();
    }
  });

  it('anchored (Linux): a name used after the folder was swapped for a symlink stays in the folder', async function () {
    if (!(await anchoring())) this.skip();
    const d = path.join(base, 'ws', 'd');
    const folder = await opened(d);
    try {
      await swap(d, outside);
      await fsp.writeFile(folder.at('x.txt'), 'x');
      await fsp.rename(folder.at('x.txt'), folder.at('y.txt'));
      assert.deepEqual(await fsp.readdir(outside), []);
      assert.deepEqual(await fsp.readdir(`${d}.real`), ['y.txt']);
      // It says where the folder is now, not where its old path leads.
      assert.equal(await folder.locate('y.txt', idOf(await fsp.lstat(folder.at('y.txt')))), path.join(`${d}.real`, 'y.txt'));
    } finally {
      await folder.close();
    }
  });

  it('path-only: locate says where the path leads now, even outside the folder', async () => {
    useAnchoring(false);
    const d = path.join(base, 'ws', 'd');
    await fsp.writeFile(path.join(outside, 'x.txt'), 'elsewhere');
    const folder = await opened(d);
    assert.equal(folder.anchored, false);
    await swap(d, outside);
    const id = idOf(await fsp.lstat(path.join(outside, 'x.txt')));
    assert.equal(await folder.locate('x.txt', id), path.join(outside, 'x.txt'));
    await folder.close();
  });

  it('openChild never opens a symlink, and says ENOTDIR for a file', async () => {
    const d = path.join(base, 'ws', 'd');
    await fsp.symlink(outside, path.join(d, 'link'));
    await fsp.writeFile(path.join(d, 'file'), '');
    await fsp.mkdir(path.join(d, 'sub'));
    for (const mode of [undefined, false] as const) {
      useAnchoring(mode);
      const folder = await opened(d);
      try {
        assert.equal(await openChild(folder, 'link'), undefined);
        await assert.rejects(openChild(folder, 'file'), { code: 'ENOTDIR' });
        const sub = await openChild(folder, 'sub');
        assert.equal(sub?.real, path.join(d, 'sub'));
        await sub?.close();
      } finally {
        await folder.close();
      }
    }
  });

  it('removeIfSame leaves a file that replaced ours, and one outside `within`', async () => {
    const d = path.join(base, 'ws', 'd');
    await fsp.writeFile(path.join(d, 'a'), 'ours');
    const ours = idOf(await fsp.lstat(path.join(d, 'a')));
    // Kept alive elsewhere, so the new file cannot reuse its inode number.
    await fsp.rename(path.join(d, 'a'), path.join(base, 'ours'));
    await fsp.writeFile(path.join(d, 'a'), 'theirs');
    const folder = await opened(d);
    try {
      assert.equal(await removeIfSame(folder, 'a', ours), false);
      assert.equal(await fsp.readFile(path.join(d, 'a'), 'utf8'), 'theirs');
      const theirs = idOf(await fsp.lstat(path.join(d, 'a')));
      assert.equal(await removeIfSame(folder, 'a', theirs, outside), false);
      assert.equal(await removeIfSame(folder, 'a', theirs, path.join(base, 'ws')), true);
      assert.deepEqual(await fsp.readdir(d), []);
    } finally {
      await folder.close();
    }
  });

  it('anchored (Linux): errors name the real folder, not /proc/self/fd', async function () {
    if (!(await anchoring())) this.skip();
    const d = path.join(base, 'ws', 'd');
    await fsp.writeFile(path.join(d, 'taken'), '');
    const folder = await opened(d);
    try {
      const err = await fsp.open(folder.at('taken'), 'wx').then(
        () => assert.fail('expected EEXIST'),
        (e: unknown) => folder.inRealPaths(e),
      );
      assert.match(String(err), new RegExp(`EEXIST.*${path.join(d, 'taken').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      assert.doesNotMatch(String(err), /\/proc\/self\/fd/);
    } finally {
      await folder.close();
    }
  });
});
