import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFilePort } from '../../../../src/core/fs/filePort';
import { EditHistory } from '../../../../src/host/review/editHistory';

describe('host/review/EditHistory', () => {
  let dir: string;
  let history: EditHistory;
  const at = (name: string): string => path.join(dir, name);
  const signal = new AbortController().signal;
  beforeEach(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-history-'));
    history = new EditHistory(new NodeFilePort());
  });
  afterEach(() => fsp.rm(dir, { recursive: true, force: true }));

  it('reverts the newest edit to the exact original bytes, then the one before', async () => {
    await fsp.writeFile(at('a.txt'), '\uFEFFold\r\n');
    await history.record({ tool: 'hash_edit', files: [{ path: at('a.txt'), display: 'a.txt', before: '\uFEFFold\r\n', after: 'new\n' }] }, signal);
    await fsp.writeFile(at('a.txt'), 'new\n');
    await history.record({ tool: 'write', files: [{ path: at('b.txt'), display: 'b.txt', before: null, after: 'created\n' }] }, signal);
    await fsp.writeFile(at('b.txt'), 'created\n');
    assert.deepEqual(await history.revert(), { reverted: true, message: 'Reverted the write of b.txt.' });
    await assert.rejects(fsp.stat(at('b.txt')), 'a created file is removed again');
    assert.equal((await history.revert()).reverted, true);
    assert.deepEqual(await fsp.readFile(at('a.txt')), Buffer.from('\uFEFFold\r\n'));
    assert.deepEqual(await history.revert(), { reverted: false, message: 'There is no applied Magi edit to revert.' });
  });

  it('changes nothing when any file no longer holds what the edit wrote', async () => {
    await fsp.writeFile(at('a.txt'), 'a0\n');
    await fsp.writeFile(at('b.txt'), 'b0\n');
    const edit = await history.record({
      tool: 'hash_edit',
      files: [
        { path: at('a.txt'), display: 'a.txt', before: 'a0\n', after: 'a1\n' },
        { path: at('b.txt'), display: 'b.txt', before: 'b0\n', after: 'b1\n' },
      ],
    }, signal);
    await fsp.writeFile(at('a.txt'), 'a1\n');
    await fsp.writeFile(at('b.txt'), 'b1, then changed by hand\n');
    const outcome = await history.revert(edit.id);
    assert.deepEqual(outcome, { reverted: false, message: 'Cannot revert the hash_edit of a.txt, b.txt: b.txt changed after the edit (or the edit did not apply). Nothing was reverted.' });
    assert.equal(await fsp.readFile(at('a.txt'), 'utf8'), 'a1\n');
  });

  it('moves a moved file back and restores a removed one', async () => {
    await fsp.writeFile(at('m.txt'), 'moved\n');
    await fsp.writeFile(at('r.txt'), 'removed\n');
    await history.record({
      tool: 'hash_edit',
      files: [
        { path: at('m.txt'), display: 'm.txt', before: 'moved\n', after: 'moved\n', movedTo: at('dest.txt') },
        { path: at('r.txt'), display: 'r.txt', before: 'removed\n', after: null },
      ],
    }, signal);
    await fsp.rename(at('m.txt'), at('dest.txt'));
    await fsp.rm(at('r.txt'));
    assert.equal((await history.revert()).reverted, true);
    assert.deepEqual((await fsp.readdir(dir)).sort(), ['m.txt', 'r.txt']);
    assert.equal(await fsp.readFile(at('r.txt'), 'utf8'), 'removed\n');
  });
});
