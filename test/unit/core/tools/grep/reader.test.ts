import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { decodeForSearch, readInto } from '../../../../../src/core/tools/grep/reader';

const always = (): boolean => true;

describe('grep reader', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-grep-reader-'));
  });
  afterEach(() => fsp.rm(dir, { recursive: true, force: true }));

  const grant = (): boolean => true;

  it('reads a regular file whole when it is under the cap, and gives back the unused reservation', async () => {
    await fsp.writeFile(path.join(dir, 'a.txt'), 'hello\n');
    const scratch = Buffer.alloc(65);
    const ledger: number[] = [];
    const read = readInto(path.join(dir, 'a.txt'), scratch, 64, (n) => (ledger.push(n), true));
    assert.deepEqual(read, { status: 'ok', length: 6, prefixOnly: false });
    assert.equal(scratch.subarray(0, 6).toString(), 'hello\n');
    assert.equal(ledger.reduce((a, b) => a + b, 0), 6);
  });

  it('reads files of every size whole, whole pages included', async () => {
    for (const size of [0, 1, 4095, 4096, 4097, 8192, 100_000]) {
      await fsp.writeFile(path.join(dir, 's.bin'), Buffer.alloc(size, 0x61));
      assert.deepEqual(readInto(path.join(dir, 's.bin'), Buffer.alloc(200_001), 200_000, grant), { status: 'ok', length: size, prefixOnly: false });
    }
  });

  it('reads only the first `cap` bytes of a larger file and says so', async () => {
    await fsp.writeFile(path.join(dir, 'big.txt'), 'x'.repeat(100));
    const read = readInto(path.join(dir, 'big.txt'), Buffer.alloc(65), 64, grant);
    assert.deepEqual(read, { status: 'ok', length: 64, prefixOnly: true });
  });

  it('refuses to read when the budget says no', async () => {
    await fsp.writeFile(path.join(dir, 'a.txt'), 'hello\n');
    assert.equal(readInto(path.join(dir, 'a.txt'), Buffer.alloc(65), 64, () => false).status, 'over-budget');
  });

  it('does not follow a symlink, and reports missing files as unreadable', async () => {
    await fsp.writeFile(path.join(dir, 'target.txt'), 'secret\n');
    await fsp.symlink(path.join(dir, 'target.txt'), path.join(dir, 'link.txt'));
    assert.equal(readInto(path.join(dir, 'link.txt'), Buffer.alloc(65), 64, grant).status, 'symlink');
    assert.equal(readInto(path.join(dir, 'gone.txt'), Buffer.alloc(65), 64, grant).status, 'unreadable');
    assert.equal(readInto(dir, Buffer.alloc(65), 64, grant).status, 'unreadable');
  });

  it('never blocks on a FIFO: it is recognised as special, unread', async function () {
    if (process.platform === 'win32') this.skip();
    const fifo = path.join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const started = Date.now();
    assert.equal(readInto(fifo, Buffer.alloc(65), 64, grant).status, 'special');
    assert.ok(Date.now() - started < 1000);
  });

  describe('decodeForSearch', () => {
    it('a NUL byte anywhere means binary', () => {
      assert.equal(decodeForSearch(Buffer.from(`${'a'.repeat(20_000)}\0b`), false, always).kind, 'binary');
    });

    it('searches invalid UTF-8 with U+FFFD in place of the bad bytes, and says it was invalid', () => {
      const decoded = decodeForSearch(Buffer.from([0x61, 0xff, 0x62, 0x0a]), false, always);
      assert.deepEqual(decoded, { kind: 'text', text: 'a\ufffdb\n', invalidUtf8: true });
    });

    it('drops a UTF-8 BOM and transcodes UTF-16 with a BOM (both byte orders)', () => {
      assert.deepEqual(decodeForSearch(Buffer.from('\ufeffabc\n'), false, always), { kind: 'text', text: 'abc\n', invalidUtf8: false });
      const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hé\n', 'utf16le')]);
      assert.deepEqual(decodeForSearch(le, false, always), { kind: 'text', text: 'hé\n', invalidUtf8: false });
      const be = Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('hé\n', 'utf16le').swap16()]);
      assert.deepEqual(decodeForSearch(be, false, always), { kind: 'text', text: 'hé\n', invalidUtf8: false });
    });

    it('a prefix is searched up to its last complete line', () => {
      assert.deepEqual(decodeForSearch(Buffer.from('one\ntwo\nthr'), true, always), { kind: 'text', text: 'one\ntwo\n', invalidUtf8: false });
    });

    it('does not decode when the prefilter rules every pattern out', () => {
      assert.deepEqual(decodeForSearch(Buffer.from('abc\n'), false, () => false), { kind: 'no-match', invalidUtf8: false });
    });
  });
});
