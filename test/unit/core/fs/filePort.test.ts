import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { anchoring, useAnchoring } from '../../../../src/core/fs/anchor';
import { NodeFilePort } from '../../../../src/core/fs/filePort';

/** Swaps the folder `dir` for a symlink to `target`, keeping the real folder at `dir.real`. */
async function swap(dir: string, target: string): Promise<void> {
  await fsp.rename(dir, `${dir}.real`);
  await fsp.symlink(target, dir);
}

const conflict = (pattern: RegExp) => (err: Error & { code?: string }): boolean => {
  assert.equal(err.code, 'conflict', err.message);
  assert.match(err.message, pattern);
  return true;
};

describe('NodeFilePort', () => {
  let base: string;
  let root: string;
  let d: string;
  let outside: string;
  let state: string;
  let port: NodeFilePort;
  const journal = async (): Promise<string[]> => fsp.readdir(path.join(state, 'inflight')).catch(() => []);
  beforeEach(async () => {
    base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-fileport-')));
    root = path.join(base, 'ws');
    d = path.join(root, 'd');
    outside = path.join(base, 'outside');
    state = path.join(base, 'state');
    await fsp.mkdir(d, { recursive: true });
    await fsp.mkdir(outside);
    port = new NodeFilePort(state);
  });
  afterEach(async () => {
    useAnchoring(undefined);
    await fsp.rm(base, { recursive: true, force: true });
  });

  for (const mode of [undefined, false] as const) {
    describe(mode === false ? 'path-only' : 'as the platform allows', () => {
      beforeEach(() => useAnchoring(mode));

      it('replaces a file atomically, keeps its mode, and leaves no temp file or journal entry', async () => {
        await fsp.writeFile(path.join(d, 'x.sh'), 'old');
        await fsp.chmod(path.join(d, 'x.sh'), 0o750);
        await port.writeFile(path.join(d, 'x.sh'), Buffer.from('new'), { within: root });
        assert.equal(await fsp.readFile(path.join(d, 'x.sh'), 'utf8'), 'new');
        assert.equal((await fsp.stat(path.join(d, 'x.sh'))).mode & 0o777, 0o750);
        assert.deepEqual(await fsp.readdir(d), ['x.sh']);
        assert.deepEqual(await journal(), []);
      });

      it('refuses a folder that resolves outside `within` when the write starts, leaving nothing', async () => {
        await swap(d, outside);
        await assert.rejects(port.writeFile(path.join(d, 'x.txt'), Buffer.from('x'), { within: root }), conflict(/^the folder of d\/x\.txt changed \(a symlink was swapped in\) while the call ran; nothing was written\. Retry the call\.$/));
        assert.deepEqual(await fsp.readdir(outside), []);
        assert.deepEqual(await journal(), []);
      });

      it('writes through a folder that is outside `within` only when no `within` is given', async () => {
        await port.writeFile(path.join(outside, 'allowed.txt'), Buffer.from('x'), {});
        assert.equal(await fsp.readFile(path.join(outside, 'allowed.txt'), 'utf8'), 'x');
      });

      it('a folder swapped for a symlink just before the rename: nothing lands outside', async () => {
        await fsp.writeFile(path.join(d, 'x.txt'), 'old');
        const attempt = port.writeFile(path.join(d, 'x.txt'), Buffer.from('new'), { within: root, beforeCommit: () => swap(d, outside) });
        if (await anchoring()) {
          // The temp file and the rename stay in the folder, which is now d.real.
          await attempt;
          assert.equal(await fsp.readFile(path.join(`${d}.real`, 'x.txt'), 'utf8'), 'new');
        } else {
          // By path, the rename looks for the temp file in outside/, finds nothing, and refuses.
          await assert.rejects(attempt, conflict(/changed \(a symlink was swapped in\)/));
          assert.equal(await fsp.readFile(path.join(`${d}.real`, 'x.txt'), 'utf8'), 'old');
        }
        assert.deepEqual(await fsp.readdir(outside), []);
      });

      it('moves a file, refusing an existing destination', async () => {
        await fsp.writeFile(path.join(d, 'a'), 'a');
        await fsp.writeFile(path.join(root, 'b'), 'b');
        await assert.rejects(port.moveFile(path.join(d, 'a'), path.join(root, 'b'), { fromWithin: root, toWithin: root }), { code: 'EEXIST' });
        await port.moveFile(path.join(d, 'a'), path.join(root, 'c'), { fromWithin: root, toWithin: root });
        assert.deepEqual((await fsp.readdir(root)).sort(), ['b', 'c', 'd']);
        assert.deepEqual(await fsp.readdir(d), []);
      });

      it('refuses a move whose destination folder resolves outside `toWithin`; the source stays', async () => {
        await fsp.writeFile(path.join(root, 'a'), 'a');
        await swap(d, outside);
        await assert.rejects(port.moveFile(path.join(root, 'a'), path.join(d, 'a'), { fromWithin: root, toWithin: root }), conflict(/the folder of d\/a changed/));
        assert.deepEqual(await fsp.readdir(outside), []);
        assert.equal(await fsp.readFile(path.join(root, 'a'), 'utf8'), 'a');
      });

      it('refuses a move whose source folder resolves outside `fromWithin`; the file there stays', async () => {
        await fsp.writeFile(path.join(outside, 'a'), 'theirs');
        await swap(d, outside);
        await assert.rejects(port.moveFile(path.join(d, 'a'), path.join(root, 'a'), { fromWithin: root, toWithin: root }), conflict(/the folder of d\/a changed/));
        assert.deepEqual(await fsp.readdir(outside), ['a']);
        assert.deepEqual((await fsp.readdir(root)).sort(), ['d', 'd.real']);
      });
    });
  }

  it('anchored (Linux): a file whose own folder was moved out of `within` during the write stays with it, and the call says where', async function () {
    if (!(await anchoring())) this.skip();
    await fsp.writeFile(path.join(d, 'x.txt'), 'old');
    const attempt = port.writeFile(path.join(d, 'x.txt'), Buffer.from('new'), { within: root, beforeCommit: () => fsp.rename(d, path.join(outside, 'd')) });
    await assert.rejects(attempt, conflict(/^d\/x\.txt: written, but its folder was moved out of the workspace during the write; the file is now at .*outside\/d\/x\.txt\./));
    assert.equal(await fsp.readFile(path.join(outside, 'd', 'x.txt'), 'utf8'), 'new');
    assert.deepEqual(await journal(), []);
  });

  it('a move whose destination folder was moved out of `toWithin` during the link is taken back; the source stays', async () => {
    await fsp.writeFile(path.join(root, 'a'), 'a');
    /** Moves d/ out of the root right after the port opened it: the link lands in the moved folder. */
    const realLink = fsp.link;
    let moved = false;
    fsp.link = async (existing, target) => {
      if (!moved) {
        moved = true;
        await fsp.rename(d, path.join(outside, 'd'));
      }
      return realLink(existing, target);
    };
    try {
      const attempt = port.moveFile(path.join(root, 'a'), path.join(d, 'a'), { fromWithin: root, toWithin: root });
      if (await anchoring()) await assert.rejects(attempt, conflict(/^d\/a: the file landed at .*outside\/d\/a, outside .*ws, because .* during the link\. Magi removed it from there; nothing was changed/));
      else await assert.rejects(attempt, { code: 'ENOENT' });
    } finally {
      fsp.link = realLink;
    }
    assert.deepEqual(await fsp.readdir(path.join(outside, 'd')), []);
    assert.equal(await fsp.readFile(path.join(root, 'a'), 'utf8'), 'a');
  });

  it('anchored (Linux): errors name real paths, not /proc/self/fd', async function () {
    if (!(await anchoring())) this.skip();
    await fsp.writeFile(path.join(d, 'a'), 'a');
    await fsp.writeFile(path.join(root, 'b'), 'b');
    await assert.rejects(port.moveFile(path.join(d, 'a'), path.join(root, 'b'), {}), (err: Error) => {
      assert.ok(err.message.includes(path.join(d, 'a')) && err.message.includes(path.join(root, 'b')), err.message);
      assert.doesNotMatch(err.message, /\/proc\/self\/fd/);
      return true;
    });
  });

  for (const mode of [undefined, false] as const) {
    it(`${mode === false ? 'path-only' : 'anchored where possible'}: a removal whose folder was swapped for a symlink never removes the file it now leads to`, async () => {
      useAnchoring(mode);
      await fsp.writeFile(path.join(d, 'x.txt'), 'inside');
      await fsp.writeFile(path.join(outside, 'x.txt'), 'outside');
      await swap(d, outside);
      await assert.rejects(port.removeFile(path.join(d, 'x.txt'), { within: root }), conflict(/^the folder of d\/x\.txt changed \(a symlink was swapped in\) while the call ran; nothing was removed\./));
      assert.equal(await fsp.readFile(path.join(outside, 'x.txt'), 'utf8'), 'outside');
      assert.equal(await fsp.readFile(path.join(`${d}.real`, 'x.txt'), 'utf8'), 'inside');
    });
  }

  it('removes a regular file inside `within`', async () => {
    await fsp.writeFile(path.join(d, 'x.txt'), 'x');
    await port.removeFile(path.join(d, 'x.txt'), { within: root });
    assert.deepEqual(await fsp.readdir(d), []);
  });
});
