import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { compressLines } from '../../../../../src/core/tools/hashEdit/tags';
import { contentTag } from '../../../../../src/core/tools/textDoc';
import { abs, edit, editOk, fileWith, makeFixture, put, seen, text, type Fixture } from './helpers';

describe('hash_edit tags and visibility', () => {
  let fx: Fixture;
  beforeEach(async () => {
    fx = await makeFixture();
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  it('refuses a tag this session never created for the file, saying to read it first', async () => {
    await put(fx, 'a.txt', 'one\ntwo\n');
    const result = await edit(fx, `[a.txt#${contentTag('one\ntwo\n')}]\nSWAP 1:\n+x`);
    assert.equal(result.status, 'error');
    assert.equal(result.metadata.error, 'unknown_tag');
    assert.match(result.content, /was not produced for a\.txt in this session\. Read the file first \(read a\.txt\)/);
    assert.equal(await text(fx, 'a.txt'), 'one\ntwo\n');
  });

  it("refuses another file's tag, naming the file the session gave it to", async () => {
    const header = await fileWith(fx, 'dir/a.txt', 'same\n');
    await put(fx, 'b.txt', 'same\n');
    const result = await edit(fx, `${header.replace('dir/a.txt', 'b.txt')}\nSWAP 1:\n+x`);
    assert.equal(result.metadata.error, 'unknown_tag');
    assert.match(result.content, /was not produced for b\.txt in this session \(it was produced for dir\/a\.txt, not for this file\)\. Read the file first \(read b\.txt\)/);
    assert.doesNotMatch(result.content, new RegExp(fx.root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  });

  it('says tags are six hex digits when a header carries a shorter one', async () => {
    await put(fx, 'a.txt', 'one\n');
    const result = await edit(fx, '[a.txt#A1B2]\nSWAP 1:\n+x');
    assert.match(result.content, /tags are six hex digits, like 3FA9C1; #A1B2 has 4/);
  });

  it('accepts the tag in lower case', async () => {
    await put(fx, 'a.txt', 'one\n');
    const tag = await seen(fx, 'a.txt');
    assert.match(tag, /[A-F]/, 'this content tag has letters, so lower-casing it matters');
    await editOk(fx, `[a.txt#${tag.toLowerCase()}]\nSWAP 1:\n+x`);
    assert.equal(await text(fx, 'a.txt'), 'x\n');
  });

  it('refuses a stale tag when an anchored line changed on disk, changing nothing', async () => {
    const header = await fileWith(fx, 'a.txt', 'one\ntwo\nthree\n');
    await put(fx, 'a.txt', 'one\nTWO\nthree\n');
    const result = await edit(fx, `${header}\nSWAP 2:\n+x`);
    assert.equal(result.metadata.error, 'stale_tag');
    assert.match(result.content, /line 2, used by SWAP 2, changed or was removed since that read\)\. Re-read lines 1-3 \(read a\.txt:1-3\) and retry with the new tag/);
    assert.equal(await text(fx, 'a.txt'), 'one\nTWO\nthree\n');
  });

  it('follows an older tag through a successful edit that moved its anchor', async () => {
    const header = await fileWith(fx, 'a.txt', 'one\ntwo\nthree\n');
    await editOk(fx, `${header}\nINS.HEAD:\n+zero`);
    const result = await editOk(fx, `${header}\nDEL 2`);
    assert.equal(result.metadata.recovered, true);
    assert.equal(await text(fx, 'a.txt'), 'zero\none\nthree\n');
  });

  it('recovers a stale tag when every anchored line is unchanged, and says so', async () => {
    const header = await fileWith(fx, 'a.txt', 'one\ntwo\nthree\n');
    await put(fx, 'a.txt', 'one\ntwo\nthree\nfour\n');
    const result = await editOk(fx, `${header}\nSWAP 2:\n+TWO\nINS.TAIL:\n+end`);
    assert.equal(result.metadata.recovered, true);
    assert.match(result.content, /recovered from stale tag/);
    // INS.TAIL follows the current end of the file.
    assert.equal(await text(fx, 'a.txt'), 'one\nTWO\nthree\nfour\nend\n');
  });

  it('recovers an older (not newest) tag whose anchors are unchanged', async () => {
    const header = await fileWith(fx, 'a.txt', 'a\nb\nc\nd\n');
    await editOk(fx, `${header}\nSWAP 1:\n+A`);
    const result = await editOk(fx, `${header}\nSWAP 4:\n+D`);
    assert.equal(result.metadata.recovered, true);
    assert.equal(await text(fx, 'a.txt'), 'A\nb\nc\nD\n');
  });

  it('refuses recovery when a block no longer ends where it did', async () => {
    const header = await fileWith(fx, 'a.py', 'def f():\n    a()\nx = 1\n');
    await put(fx, 'a.py', 'def f():\n    a()\n    b()\n');
    const result = await edit(fx, `${header}\nDEL.BLK 1`);
    assert.equal(result.metadata.error, 'stale_tag');
    assert.match(result.content, /the block at line 1 no longer ends where it did/);
  });

  it('refuses recovery when an anchored line no longer exists', async () => {
    const header = await fileWith(fx, 'a.txt', 'a\nb\nc\n');
    await put(fx, 'a.txt', 'a\n');
    const result = await edit(fx, `${header}\nDEL 3`);
    assert.match(result.content, /line 3, used by DEL 3, changed or was removed since that read\)\. Re-read line 1 \(read a\.txt:1-1\)/);
  });

  it('refuses a tag whose snapshot was dropped as too old', async () => {
    const header = await fileWith(fx, 'a.txt', 'v0\n');
    for (let i = 1; i <= 8; i++) {
      await put(fx, 'a.txt', `v${i}\n`);
      await seen(fx, 'a.txt');
    }
    await put(fx, 'a.txt', 'v0\n');
    const result = await edit(fx, `${header}\nSWAP 1:\n+x`);
    assert.equal(result.metadata.error, 'stale_tag');
    assert.match(result.content, /too old to compare against/);
  });

  it('requires the newest tag of the unchanged file for MV and REM', async () => {
    const header = await fileWith(fx, 'a.txt', 'a\n');
    await put(fx, 'a.txt', 'a\nb\n');
    for (const op of ['REM', 'MV b.txt']) {
      const result = await edit(fx, `${header}\n${op}`);
      assert.equal(result.metadata.error, 'stale_tag', op);
      assert.match(result.content, /needs the newest tag of the unchanged file/);
    }
    assert.equal(await text(fx, 'a.txt'), 'a\nb\n');
  });

  it('refuses lines the tag did not show, naming them and the read to run', async () => {
    await put(fx, 'a.txt', 'a\nb\nc\nd\ne\nf\n');
    const tag = await seen(fx, 'a.txt', [1, 2, 3]);
    const result = await edit(fx, `[a.txt#${tag}]\nSWAP 2.=5:\n+x`);
    assert.equal(result.metadata.error, 'unseen_line');
    assert.match(result.content, /input line 2 \(SWAP 2\.=5\) relies on lines 4-5, which tag #\w+ did not show\. Read them first \(read a\.txt:4-5\)/);
    const pre = await edit(fx, `[a.txt#${tag}]\nINS.PRE 6:\n+x`);
    assert.match(pre.content, /relies on line 6.*read a\.txt:6-6/);
    assert.equal(await text(fx, 'a.txt'), 'a\nb\nc\nd\ne\nf\n');
  });

  it('requires every line of a block to be visible for block ops', async () => {
    await put(fx, 'a.ts', 'f() {\n  x();\n  y();\n}\n');
    const tag = await seen(fx, 'a.ts', [1, 2]);
    const result = await edit(fx, `[a.ts#${tag}]\nINS.BLK.POST 1:\n+z();`);
    assert.equal(result.metadata.error, 'unseen_line');
    assert.match(result.content, /lines 3-4/);
  });

  it('needs no visible line for INS.HEAD and INS.TAIL', async () => {
    await put(fx, 'a.txt', 'a\nb\n');
    const tag = await seen(fx, 'a.txt', []);
    await editOk(fx, `[a.txt#${tag}]\nINS.HEAD:\n+h\nINS.TAIL:\n+t`);
    assert.equal(await text(fx, 'a.txt'), 'h\na\nb\nt\n');
  });

  it('carries visibility through an edit: shifted seen lines stay usable, unseen ones do not', async () => {
    await put(fx, 'a.txt', 'a\nb\nc\nd\n');
    const tag = await seen(fx, 'a.txt', [1, 2]);
    const first = await editOk(fx, `[a.txt#${tag}]\nINS.HEAD:\n+h`);
    const newTag = contentTag(await text(fx, 'a.txt'));
    assert.match(first.content, new RegExp(`^\\[a\\.txt#${newTag}\\]`));
    // Old line 2 ("b") is now line 3 and still visible; old line 3 ("c", now 4) was never shown.
    await editOk(fx, `[a.txt#${newTag}]\nSWAP 3:\n+B`);
    const unseen = await edit(fx, `[a.txt#${contentTag('h\na\nB\nc\nd\n')}]\nDEL 4`);
    assert.equal(unseen.metadata.error, 'unseen_line');
    assert.equal(await fsp.readFile(abs(fx, 'a.txt'), 'utf8'), 'h\na\nB\nc\nd\n');
  });

  it('compresses line lists into ranges', () => {
    assert.equal(compressLines([1, 2, 3, 5, 7, 8]), '1-3, 5, 7-8');
    assert.equal(compressLines([4]), '4');
  });
});
