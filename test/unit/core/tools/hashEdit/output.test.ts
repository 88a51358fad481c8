import assert from 'node:assert/strict';
import { MAX_SHOWN_ROWS } from '../../../../../src/core/tools/hashEdit/output';
import { formatVisible } from '../../../../../src/core/tools/result';
import { contentTag } from '../../../../../src/core/tools/textDoc';
import { editOk, fileWith, makeFixture, text, type Fixture } from './helpers';

describe('hash_edit result', () => {
  let fx: Fixture;
  beforeEach(async () => {
    fx = await makeFixture();
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  it('shows the new tag and the changed lines at their new numbers', async () => {
    const header = await fileWith(fx, 'a.txt', 'a\nb\nc\nd\ne\n');
    const result = await editOk(fx, `${header}\nINS.HEAD:\n+top\nSWAP 2:\n+B\n+B2\nDEL 4.=5`);
    const tag = contentTag(await text(fx, 'a.txt'));
    assert.equal(result.content, [`[a.txt#${tag}]`, '1:top', '3:B', '4:B2', '(deleted old lines 4-5)'].join('\n'));
    assert.deepEqual(result.metadata, { paths: ['a.txt'], files_changed: 1, ops: 3, recovered: false, truncated: false });
  });

  it('says when an empty last row made a file without a final newline end with one, and shows it where read will', async () => {
    const header = await fileWith(fx, 'n.txt', 'a\nb');
    const result = await editOk(fx, `${header}\nINS.TAIL:\n+c\n+`);
    assert.equal(await text(fx, 'n.txt'), 'a\nb\nc\n\n');
    assert.match(result.content, /the body's last row is an empty line at the end of a file that had no final newline; it is kept as a line, so the file now ends with a newline/);
    assert.match(result.content, /\n3:c\n4:$/);
  });

  it('returns a tag equal to the new content tag that works for the next edit without a re-read', async () => {
    const header = await fileWith(fx, 'a.txt', 'one\r\ntwo\r\n');
    const first = await editOk(fx, `${header}\nINS.POST 1:\n+mid`);
    const tag = /#([0-9A-F]+)\]/.exec(first.content)?.[1];
    assert.equal(tag, contentTag(await text(fx, 'a.txt')));
    await editOk(fx, `[a.txt#${tag}]\nSWAP 2.=3:\n+MID\n+TWO`);
    assert.equal(await text(fx, 'a.txt'), 'one\r\nMID\r\nTWO\r\n');
  });

  it('shows at most 200 changed rows per file and says how many more there are', async () => {
    const header = await fileWith(fx, 'a.txt', 'x\n');
    const body = Array.from({ length: 250 }, (_, i) => `+line ${i}`).join('\n');
    const result = await editOk(fx, `${header}\nINS.TAIL:\n${body}`);
    const rows = result.content.split('\n');
    assert.equal(rows.length, 1 + MAX_SHOWN_ROWS + 1);
    assert.equal(rows[MAX_SHOWN_ROWS], `${MAX_SHOWN_ROWS + 1}:line ${MAX_SHOWN_ROWS - 1}`); // new lines start at 2
    assert.equal(rows[rows.length - 1], '… 50 more changed lines not shown; read a.txt:202-251 to see them.');
    assert.equal(result.metadata.truncated, true);
  });

  it('puts a unified diff in display only, never in the content', async () => {
    const header = await fileWith(fx, 'a.txt', 'a\nb\n');
    const result = await editOk(fx, `${header}\nSWAP 2:\n+B`);
    const diff = result.display?.diffs?.[0];
    assert.equal(diff?.path, 'a.txt');
    assert.match(diff?.diff ?? '', /--- a\.txt\n\+\+\+ a\.txt\n@@ -1,2 \+1,2 @@\n a\n-b\n\+B\n/);
    assert.doesNotMatch(result.content, /@@/);
    assert.doesNotMatch(formatVisible(result), /@@/);
  });

  it('lists every file of a multi-file call and sums the ops', async () => {
    const a = await fileWith(fx, 'a.txt', 'a\n');
    const b = await fileWith(fx, 'b.txt', 'b\n');
    const c = await fileWith(fx, 'c.txt', 'c\n');
    const result = await editOk(fx, `${a}\nSWAP 1:\n+A\nINS.TAIL:\n+t\n${b}\nREM\n${c}\nMV d.txt`);
    assert.deepEqual(result.metadata.paths, ['a.txt', 'b.txt', 'c.txt', 'd.txt']);
    assert.equal(result.metadata.files_changed, 3);
    assert.equal(result.metadata.ops, 4);
    assert.equal(result.display?.diffs?.length, 1);
    const blocks = result.content.split('\n\n');
    assert.equal(blocks.length, 3);
    assert.equal(blocks[1], 'removed b.txt; its tags no longer apply.');
    assert.match(blocks[2] ?? '', /^\[d\.txt#[0-9A-F]+\]\nmoved c\.txt to d\.txt/);
  });

  it('shows the visible block the transcript renders', async () => {
    const header = await fileWith(fx, 'a.txt', 'a\n');
    const result = await editOk(fx, `${header}\nSWAP 1:\n+b`);
    assert.equal(formatVisible(result), ['STATUS: success', 'PATHS: a.txt', 'FILES_CHANGED: 1', 'OPS: 1', 'RECOVERED: false', 'TRUNCATED: false', 'OUTPUT:', `[a.txt#${contentTag('b\n')}]`, '1:b'].join('\n'));
  });
});
