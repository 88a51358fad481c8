import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { contentTag } from '../../../../../src/core/tools/textDoc';
import { numberedLines, tempWorkspace, type TempWorkspace } from '../../../helpers/workspace';

const MiB = 1024 * 1024;

describe('read', () => {
  let ws: TempWorkspace;
  beforeEach(async () => {
    ws = await tempWorkspace();
  });
  afterEach(() => ws.cleanup());

  it('returns hashline text: [path#TAG] then LINE:TEXT rows with unpadded numbers', async () => {
    await ws.files({ 'src/a.ts': 'const a = 1;\n\nexport { a };\n' });
    const result = await ws.run('read', { paths: ['src/a.ts'] });
    assert.equal(result.status, 'success');
    const tag = contentTag('const a = 1;\n\nexport { a };\n');
    assert.match(tag, /^[0-9A-F]{6}$/);
    assert.equal(result.content, `[src/a.ts#${tag}]\n1:const a = 1;\n2:\n3:export { a };`);
    assert.deepEqual(result.metadata.paths, ['src/a.ts']);
  });

  it('records a snapshot with exactly the visible lines', async () => {
    await ws.files({ 'f.txt': numberedLines(50) });
    await ws.run('read', { paths: ['f.txt:10-12'] });
    const snap = ws.runtime.snapshots.newest(path.join(ws.root, 'f.txt'));
    assert.ok(snap);
    assert.deepEqual([...snap.visible].sort((a, b) => a - b), [10, 11, 12]);
    assert.equal(snap.tag, contentTag(numberedLines(50)));
  });

  describe('selectors', () => {
    const cases: [string, number, number][] = [
      [':5', 5, 404],
      [':5-7', 5, 7],
      [':-3', 1, 3],
      [':998+', 998, 1000],
      [':10+3', 10, 12],
    ];
    for (const [selector, first, last] of cases) {
      it(`${selector} shows lines ${first} to ${last}`, async () => {
        await ws.files({ 'f.txt': numberedLines(1000) });
        const result = await ws.run('read', { paths: [`f.txt${selector}`] });
        assert.equal(result.status, 'success');
        const rows = result.content.split('\n').filter((l) => /^\d+:/.test(l));
        assert.equal(rows[0], `${first}:line ${first}`);
        assert.equal(rows[rows.length - 1], `${last}:line ${last}`);
        assert.equal(rows.length, last - first + 1);
      });
    }

    it(':raw gives plain text without header or numbers, and compounds with a range', async () => {
      await ws.files({ 'f.txt': numberedLines(10) });
      const raw = await ws.run('read', { paths: ['f.txt:raw'] });
      assert.equal(raw.content, numberedLines(10).trimEnd());
      const compound = await ws.run('read', { paths: ['f.txt:raw:3-4'] });
      assert.equal(compound.content, 'line 3\nline 4');
      const reversed = await ws.run('read', { paths: ['f.txt:3-4:raw'] });
      assert.equal(reversed.content, 'line 3\nline 4');
    });

    it('without a selector shows 400 lines and says how to read on', async () => {
      await ws.files({ 'f.txt': numberedLines(1000) });
      const result = await ws.run('read', { paths: ['f.txt'] });
      const rows = result.content.split('\n').filter((l) => /^\d+:/.test(l));
      assert.equal(rows.length, 400);
      assert.match(result.content, /\[showing lines 1-400 of 1000 \(1000 lines in all\); read f\.txt:401-1000 for more\]$/);
    });

    it('shows at most 2,000 lines per file and marks the cut', async () => {
      await ws.files({ 'f.txt': numberedLines(2500) });
      const result = await ws.run('read', { paths: ['f.txt:1+'] });
      const rows = result.content.split('\n').filter((l) => /^\d+:/.test(l));
      assert.equal(rows.length, 2000);
      assert.equal(result.metadata.truncated, true);
      assert.match(result.content, /at most 2000 lines per call\); read f\.txt:2001-2500 for more\]$/);
    });

    it('a start past the end of the file is an error; an end past the end stops at the last line', async () => {
      await ws.files({ 'f.txt': numberedLines(5) });
      const past = await ws.run('read', { paths: ['f.txt:6'] });
      assert.equal(past.status, 'error');
      assert.match(past.content, /line 6 is past the end of f\.txt, which has 5 lines/);
      const clamped = await ws.run('read', { paths: ['f.txt:4-99'] });
      assert.equal(clamped.status, 'success');
      assert.match(clamped.content, /4:line 4\n5:line 5$/);
    });

    it('line 0 and reversed ranges are errors that say what to write', async () => {
      await ws.files({ 'f.txt': numberedLines(5) });
      assert.match((await ws.run('read', { paths: ['f.txt:0'] })).content, /line numbers start at 1/);
      assert.match((await ws.run('read', { paths: ['f.txt:4-2'] })).content, /write it as 2-4/);
    });

    it('an empty file reads as a header with no rows', async () => {
      await ws.files({ 'empty.txt': '' });
      const result = await ws.run('read', { paths: ['empty.txt'] });
      assert.equal(result.status, 'success');
      assert.equal(result.content, `[empty.txt#${contentTag('')}]`);
    });
  });

  describe('arguments', () => {
    it('rejects missing, empty, blank and over-long path lists', async () => {
      assert.match((await ws.run('read', {})).content, /`paths` is required/);
      assert.match((await ws.run('read', { paths: [] })).content, /field `paths`/);
      assert.match((await ws.run('read', { paths: ['  '] })).content, /paths\[0\] is empty or blank/);
      assert.match((await ws.run('read', { paths: Array(9).fill('a') })).content, /field `paths`/);
    });

    it('rejects unknown fields by name', async () => {
      const result = await ws.run('read', { paths: ['a'], glob: '*.ts' });
      assert.equal(result.status, 'error');
      assert.match(result.content, /unknown field `glob` \(allowed fields: paths\)/);
    });

    it('accepts legacy `path` only on replay, and never together with `paths`', async () => {
      await ws.files({ 'a.txt': 'x\n' });
      assert.match((await ws.run('read', { path: 'a.txt' })).content, /only accepted when replaying/);
      assert.equal((await ws.run('read', { path: 'a.txt' }, { replay: true })).status, 'success');
      assert.match((await ws.run('read', { path: 'a.txt', paths: ['a.txt'] }, { replay: true })).content, /not both/);
    });

    it('accepts the older offset/limit, rejecting a limit over 2,000 instead of clamping it', async () => {
      await ws.files({ 'f.txt': numberedLines(30) });
      const result = await ws.run('read', { paths: ['f.txt'], offset: 10, limit: 2 });
      assert.equal(result.content.split('\n').slice(1, 3).join('|'), '10:line 10|11:line 11');
      const tooMany = await ws.run('read', { paths: ['f.txt'], limit: 2001 });
      assert.equal(tooMany.status, 'error');
      assert.match(tooMany.content, /field `limit`/);
    });

    it('sends URLs to web open', async () => {
      const result = await ws.run('read', { paths: ['https://example.com/x'] });
      assert.match(result.content, /use web with \{"operation": "open"/);
    });
  });

  describe('caps and file errors', () => {
    it('reads a file of exactly 1 MiB and refuses one byte more', async () => {
      const line = 'x'.repeat(1023) + '\n';
      await ws.files({ 'ok.txt': line.repeat(1024), 'big.txt': line.repeat(1024) + 'y' });
      const ok = await ws.run('read', { paths: ['ok.txt:1-3'] });
      assert.equal(ok.status, 'success');
      const big = await ws.run('read', { paths: ['big.txt'] });
      assert.equal(big.status, 'error');
      assert.match(big.content, /1048577 bytes, over the 1 MiB read cap/);
      // :raw changes the formatting only, never a cap or a path rule.
      assert.match((await ws.run('read', { paths: ['big.txt:raw'] })).content, /over the 1 MiB read cap/);
      assert.match((await ws.run('read', { paths: ['../x.txt:raw'] })).content, /escapes the workspace root/);
    });

    it('refuses binary and invalid UTF-8 files with a clear error', async () => {
      await ws.files({ 'bin.dat': Buffer.from([0x89, 0x50, 0x00, 0x01]), 'latin1.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]) });
      assert.match((await ws.run('read', { paths: ['bin.dat'] })).content, /binary file/);
      assert.match((await ws.run('read', { paths: ['latin1.txt'] })).content, /not valid UTF-8/);
    });

    it('keeps other sections when one file fails, each under --- FILE: headers', async () => {
      await ws.files({ 'a.txt': 'alpha\n', 'c.txt': 'gamma\n' });
      const result = await ws.run('read', { paths: ['a.txt', 'missing.txt', 'c.txt:raw'] });
      assert.equal(result.status, 'success');
      assert.equal(
        result.content,
        [`--- FILE: a.txt ---`, `[a.txt#${contentTag('alpha\n')}]`, '1:alpha', '--- FILE: missing.txt ---', 'ERROR: read: missing.txt does not exist; use find to locate the file.', '--- FILE: c.txt:raw ---', 'gamma'].join('\n'),
      );
      assert.equal(result.metadata.files_failed, 1);
    });

    it('is an error when every file fails', async () => {
      const result = await ws.run('read', { paths: ['nope1', 'nope2'] });
      assert.equal(result.status, 'error');
    });

    it('refuses directories with a pointer to list_files', async () => {
      await ws.files({ 'd/x.txt': 'x' });
      assert.match((await ws.run('read', { paths: ['d'] })).content, /is a directory; use list_files/);
    });

    it('caps the whole multi-file output at 1 MiB, headers included, and says where it cut', async () => {
      // Two files just under 1 MiB each: hashline rows alone exceed the aggregate cap.
      const body = ('y'.repeat(1000) + '\n').repeat(1000);
      await ws.files({ 'one.txt': body, 'two.txt': body });
      const result = await ws.run('read', { paths: ['one.txt:1+', 'two.txt:1+'] });
      assert.equal(result.status, 'success');
      assert.ok(Buffer.byteLength(result.content, 'utf8') <= MiB, `content is ${Buffer.byteLength(result.content)} bytes`);
      assert.equal(result.metadata.truncated, true);
      assert.match(result.content, /\[output cut by the 1 MiB cap after line \d+ of two\.txt; read two\.txt:\d+-1000 separately\]/);
      // Only lines actually shown become visible for hash_edit.
      const snap = ws.runtime.snapshots.newest(path.join(ws.root, 'two.txt'));
      const shownRows = result.content.split('--- FILE: two.txt:1+ ---')[1]?.split('\n').filter((l) => /^\d+:/.test(l)).length;
      assert.equal(snap?.visible.size, shownRows);
    });
  });

  describe('containment', () => {
    it('refuses .. escapes and symlinked parents that leave the root', async () => {
      const outside = path.join(path.dirname(ws.root), 'outside');
      await fsp.mkdir(outside);
      await fsp.writeFile(path.join(outside, 'secret.txt'), 'secret\n');
      await fsp.symlink(outside, path.join(ws.root, 'link'));
      assert.match((await ws.run('read', { paths: ['../outside/secret.txt'] })).content, /escapes the workspace root/);
      assert.match((await ws.run('read', { paths: ['link/secret.txt'] })).content, /resolves outside the workspace root through a symlink/);
    });

    it('allows absolute paths outside the root by default and refuses them when the setting is false', async () => {
      const outside = path.join(path.dirname(ws.root), 'outside.txt');
      await fsp.writeFile(outside, 'out\n');
      assert.equal((await ws.run('read', { paths: [outside] })).status, 'success');
      const strict = await tempWorkspace({ capabilities: { tools: { read: { absolute_paths: false } } } });
      try {
        const result = await strict.run('read', { paths: [outside] });
        assert.equal(result.status, 'error');
        assert.match(result.content, /capabilities\.tools\.read\.absolute_paths is false/);
      } finally {
        await strict.cleanup();
      }
    });

    it('treats an absolute path inside the root like a relative one', async () => {
      await ws.files({ 'in.txt': 'in\n' });
      const result = await ws.run('read', { paths: [path.join(ws.root, 'in.txt')] });
      assert.match(result.content, /^\[in\.txt#/);
    });
  });
});
