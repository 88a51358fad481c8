import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { SourceReader } from '../../../../../src/core/tools/astGrep/source';
import { tempWorkspace, type TempWorkspace } from '../../../helpers/workspace';

describe('ast_grep SourceReader', () => {
  let ws: TempWorkspace;
  const at = (rel: string) => path.join(ws.root, rel);
  beforeEach(async () => {
    ws = await tempWorkspace();
  });
  afterEach(() => ws.cleanup());

  it('stops at the call read cap: a file that would pass it is skipped, later smaller ones still fit', async () => {
    await ws.files({ 'a.js': 'a'.repeat(100), 'b.js': 'b'.repeat(100), 'c.js': 'c'.repeat(50) });
    const reader = new SourceReader(150);
    assert.deepEqual(await reader.read(at('a.js')), { ok: true, text: 'a'.repeat(100), bytes: 100 });
    assert.deepEqual(await reader.read(at('b.js')), { ok: false, reason: 'read_cap', detail: "the call's 150-byte read limit is reached" });
    assert.equal(reader.bytesRead, 100);
    assert.equal((await reader.read(at('c.js'))).ok, true);
    assert.equal(reader.bytesRead, 150);
  });

  it('skips a file over the per-file cap without reading it', async () => {
    await ws.files({ 'big.js': 'x'.repeat(65) });
    const reader = new SourceReader(1_000, 64);
    assert.deepEqual(await reader.read(at('big.js')), { ok: false, reason: 'too_large', detail: '65 bytes (limit 64)' });
    assert.equal(reader.bytesRead, 0);
  });

  it('reads a file of exactly the per-file cap, multi-byte text included', async () => {
    const text = 'é'.repeat(32);
    await ws.files({ 'e.js': text });
    assert.deepEqual(await new SourceReader(1_000, 64).read(at('e.js')), { ok: true, text, bytes: 64 });
  });

  it('refuses invalid UTF-8, a symlink, a folder and a missing file with their reasons', async () => {
    await ws.files({ 'bad.js': Buffer.from([0x61, 0xff, 0x62]), 'real.js': 'ok' });
    await fsp.symlink(at('real.js'), at('link.js'));
    await fsp.mkdir(at('dir.js'));
    const reader = new SourceReader();
    assert.deepEqual(await reader.read(at('bad.js')), { ok: false, reason: 'not_utf8', detail: 'not valid UTF-8' });
    assert.deepEqual(await reader.read(at('link.js')), { ok: false, reason: 'not_regular', detail: 'a symlink' });
    assert.deepEqual(await reader.read(at('dir.js')), { ok: false, reason: 'not_regular', detail: 'not a regular file' });
    assert.deepEqual(await reader.read(at('gone.js')), { ok: false, reason: 'unreadable', detail: 'ENOENT' });
    // The invalid file was read (and counts against the cap); the others were not.
    assert.equal(reader.bytesRead, 3);
  });
});
