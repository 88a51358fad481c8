import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { dispatchTool } from '../../../../../src/core/tools/dispatch';
import { MAX_FILE_BYTES, contentTag } from '../../../../../src/core/tools/textDoc';
import { abs, edit, editOk, fileWith, makeFixture, put, text, type Fixture } from './helpers';

describe('hash_edit validation before any write', () => {
  let fx: Fixture;
  beforeEach(async () => {
    fx = await makeFixture();
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  it('leaves the first file untouched when a later section fails, for each kind of failure', async () => {
    const first = await fileWith(fx, 'a.txt', 'a1\na2\n');
    const second = await fileWith(fx, 'b.txt', 'b1\nb2\n');
    const badSeconds = [
      `[b.txt#ABCDEF]\nSWAP 1:\n+x`, // unknown tag
      `${second}\nSWAP 3:\n+x`, // past the end
      `${second}\nDEL 1\nSWAP 1:\n+x`, // overlap
      `${second}\nDEL.BLK 1`, // not a block
      `[missing.txt#ABCDEF]\nDEL 1`, // no such file
      `[../out.txt#ABCDEF]\nDEL 1`, // escape
      `${second}\nMV a.txt`, // existing destination (and one file named twice)
    ];
    for (const bad of badSeconds) {
      const result = await edit(fx, `${first}\nSWAP 1:\n+CHANGED\n${bad}`);
      assert.equal(result.status, 'error', bad);
      assert.equal(await text(fx, 'a.txt'), 'a1\na2\n', bad);
      assert.equal(await text(fx, 'b.txt'), 'b1\nb2\n', bad);
    }
  });

  it('refuses a file that turned into invalid UTF-8 or binary since the read, changing nothing', async () => {
    for (const bytes of [Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]), Buffer.from([0x61, 0x00, 0x0a])]) {
      const header = await fileWith(fx, 'enc.txt', 'cafe\n');
      await put(fx, 'enc.txt', bytes);
      const result = await edit(fx, `${header}\nSWAP 1:\n+x`);
      assert.equal(result.status, 'error');
      assert.match(result.content, /not valid UTF-8|binary file/);
      assert.deepEqual(await fsp.readFile(abs(fx, 'enc.txt')), bytes);
    }
  });

  it('refuses a file that does not exist and says to find it (write only for a new file)', async () => {
    const result = await edit(fx, '[new.txt#ABCDEF]\nINS.HEAD:\n+x');
    assert.equal(result.metadata.error, 'not_found');
    assert.match(result.content, /new\.txt does not exist; use find to locate the file \(hash_edit only edits existing files; use write only when you mean to create a new file\)\./);
    await assert.rejects(fsp.stat(abs(fx, 'new.txt')));
  });

  it('refuses a directory', async () => {
    await fsp.mkdir(abs(fx, 'dir'));
    const result = await edit(fx, '[dir#ABCDEF]\nDEL 1');
    assert.match(result.content, /dir is a directory; hash_edit only edits, moves and removes regular files/);
  });

  it('refuses a symlink as the target and leaves the link and its target alone', async () => {
    await put(fx, 'real.txt', 'r\n');
    await fsp.symlink(abs(fx, 'real.txt'), abs(fx, 'link.txt'));
    fx.runtime.snapshots.record(abs(fx, 'link.txt'), 'AAAAAA', 'r\n', [1]);
    const result = await edit(fx, '[link.txt#AAAAAA]\nSWAP 1:\n+x');
    assert.equal(result.metadata.error, 'symlink');
    assert.match(result.content, /link\.txt is a symbolic link/);
    assert.equal(await text(fx, 'real.txt'), 'r\n');
    assert.ok((await fsp.lstat(abs(fx, 'link.txt'))).isSymbolicLink());
  });

  it('refuses .. escapes and symlinked parents that leave the root', async () => {
    const escape = await edit(fx, '[../x.txt#ABCDEF]\nDEL 1');
    assert.equal(escape.metadata.error, 'outside_root');
    assert.match(escape.content, /escapes the workspace root.*section at input line 1/);

    const outside = await fsp.mkdtemp(path.join(os.tmpdir(), 'hash-edit-outside-'));
    try {
      await fsp.writeFile(path.join(outside, 'f.txt'), 'secret\n');
      await fsp.symlink(outside, abs(fx, 'linked'));
      const viaLink = await edit(fx, '[linked/f.txt#ABCDEF]\nSWAP 1:\n+x');
      assert.equal(viaLink.metadata.error, 'outside_root');
      assert.equal(await fsp.readFile(path.join(outside, 'f.txt'), 'utf8'), 'secret\n');
    } finally {
      await fsp.rm(outside, { recursive: true, force: true });
    }
  });

  it('edits an absolute path outside the root by default but not with the setting off', async () => {
    const outside = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'hash-edit-outside-')));
    const file = path.join(outside, 'f.txt');
    const denied = await makeFixture({ capabilities: { tools: { hash_edit: { absolute_paths: false } } } });
    try {
      await fsp.writeFile(file, 'o\n');
      const header = `[${file}#${contentTag('o\n')}]`;
      for (const f of [fx, denied]) f.runtime.snapshots.record(file, contentTag('o\n'), 'o\n', [1]);
      const result = await edit(denied, `${header}\nSWAP 1:\n+x`);
      assert.equal(result.metadata.error, 'setting_denied');
      assert.match(result.content, /capabilities\.tools\.hash_edit\.absolute_paths is false/);
      assert.equal(await fsp.readFile(file, 'utf8'), 'o\n');
      await editOk(fx, `${header}\nSWAP 1:\n+x`);
      assert.equal(await fsp.readFile(file, 'utf8'), 'x\n');
    } finally {
      await denied.cleanup();
      await fsp.rm(outside, { recursive: true, force: true });
    }
  });

  it('refuses two sections for one file, even spelled differently', async () => {
    const header = await fileWith(fx, 'a.txt', 'a\nb\n');
    const result = await edit(fx, `${header}\nSWAP 1:\n+x\n${header.replace('[a.txt', '[./a.txt')}\nSWAP 2:\n+y`);
    assert.match(result.content, /the sections at input lines 1 and 4 both name a\.txt; put all edits of one file into one section/);
    assert.equal(await text(fx, 'a.txt'), 'a\nb\n');
  });

  it('refuses files over 1 MiB and non-UTF-8 files', async () => {
    await put(fx, 'big.txt', 'x'.repeat(MAX_FILE_BYTES + 1));
    const big = await edit(fx, '[big.txt#ABCDEF]\nDEL 1');
    assert.equal(big.metadata.error, 'too_large');
    await put(fx, 'bin.dat', Uint8Array.from([0x61, 0xff, 0x0a]));
    const bin = await edit(fx, '[bin.dat#ABCDEF]\nDEL 1');
    assert.equal(bin.metadata.error, 'not_utf8');
  });

  it('accepts a result of exactly 1 MiB and refuses one byte more, writing nothing', async () => {
    const line = 'y'.repeat(1023);
    const content = `${line}\n`.repeat(1023); // 1023 KiB
    const header = await fileWith(fx, 'a.txt', content);
    const over = await edit(fx, `${header}\nINS.TAIL:\n+${'z'.repeat(1024)}`);
    assert.equal(over.metadata.error, 'too_large');
    assert.match(over.content, /would be 1048577 bytes, over the 1048576-byte \(1 MiB\) limit; nothing was written/);
    assert.equal(await text(fx, 'a.txt'), content);
    await editOk(fx, `${header}\nINS.TAIL:\n+${'z'.repeat(1023)}`);
    assert.equal((await fsp.stat(abs(fx, 'a.txt'))).size, MAX_FILE_BYTES);
  });

  it('refuses an aborted call before writing', async () => {
    const header = await fileWith(fx, 'a.txt', 'a\n');
    const controller = new AbortController();
    controller.abort();
    const { result } = await dispatchTool(fx.registry, fx.runtime, 'hash_edit', { input: `${header}\nSWAP 1:\n+x` }, { signal: controller.signal });
    assert.equal(result.status, 'error');
    assert.match(result.content, /cancelled/);
    assert.equal(await text(fx, 'a.txt'), 'a\n');
  });
});
