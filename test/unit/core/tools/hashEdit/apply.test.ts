import assert from 'node:assert/strict';
import { applyEdits, mapVisible } from '../../../../../src/core/tools/hashEdit/apply';
import { parseInput, type LineOp } from '../../../../../src/core/tools/hashEdit/parser';
import { planEdits } from '../../../../../src/core/tools/hashEdit/plan';
import { parseText, serializeText } from '../../../../../src/core/tools/textDoc';

/** Applies an op script (without header) to `text` and returns the new text. */
function run(text: string, script: string): string {
  const doc = parseText(text);
  const ops = (parseInput(`[f.txt#AA]\n${script}`)[0]?.ops ?? []) as LineOp[];
  return serializeText(applyEdits(doc, planEdits(ops, doc.lines, { path: 'f.txt', block: { mode: 'bracket', rustChars: false } })).doc);
}

describe('hash_edit apply', () => {
  it('applies each op kind', () => {
    const base = 'a\nb\nc\n';
    assert.equal(run(base, 'SWAP 2:\n+B'), 'a\nB\nc\n');
    assert.equal(run(base, 'SWAP 1.=2:\n+x\n+y\n+z'), 'x\ny\nz\nc\n');
    assert.equal(run(base, 'DEL 2'), 'a\nc\n');
    assert.equal(run(base, 'DEL 1.=3'), '');
    assert.equal(run(base, 'INS.PRE 2:\n+p'), 'a\np\nb\nc\n');
    assert.equal(run(base, 'INS.POST 2:\n+p'), 'a\nb\np\nc\n');
    assert.equal(run(base, 'INS.HEAD:\n+h'), 'h\na\nb\nc\n');
    assert.equal(run(base, 'INS.TAIL:\n+t'), 'a\nb\nc\nt\n');
  });

  it('uses the original line numbers for every op (no shifting within a call)', () => {
    assert.equal(run('1\n2\n3\n4\n5\n', 'INS.HEAD:\n+0\nDEL 2\nSWAP 4:\n+four\nINS.POST 5:\n+6'), '0\n1\n3\nfour\n5\n6\n');
  });

  it('writes body escapes literally', () => {
    assert.equal(run('a\n', 'SWAP 1:\n++x\n+- item\n+\n+end'), '+x\n- item\n\nend\n');
  });

  it('keeps CRLF and gives new lines the dominant ending', () => {
    assert.equal(run('a\r\nb\r\nc\r\n', 'SWAP 2:\n+B\n+B2\nINS.TAIL:\n+t'), 'a\r\nB\r\nB2\r\nc\r\nt\r\n');
  });

  it('keeps each line’s own ending in a mixed file; new lines get the most common one', () => {
    assert.equal(run('a\r\nb\nc\r\nd\r\n', 'INS.POST 1:\n+x\nSWAP 2:\n+y'), 'a\r\nx\r\ny\r\nc\r\nd\r\n');
    assert.equal(run('a\nb\rc\n', 'INS.POST 2:\n+x'), 'a\nb\rx\nc\n');
  });

  it('keeps a missing final newline when inserting after the last line', () => {
    assert.equal(run('a\nb', 'INS.POST 2:\n+c'), 'a\nb\nc');
    assert.equal(run('a\nb', 'INS.TAIL:\n+c\n+d'), 'a\nb\nc\nd');
    assert.equal(run('a\r\nb', 'INS.TAIL:\n+c'), 'a\r\nb\r\nc');
  });

  it('keeps a missing final newline when replacing or deleting the last line', () => {
    assert.equal(run('a\nb', 'SWAP 2:\n+x\n+y'), 'a\nx\ny');
    assert.equal(run('a\nb', 'DEL 2'), 'a');
    assert.equal(run('a\nb', 'INS.PRE 2:\n+x'), 'a\nx\nb');
  });

  it('keeps an empty last body row as a line at the end of a file without a final newline', () => {
    assert.equal(run('a\nb', 'INS.TAIL:\n+c\n+'), 'a\nb\nc\n\n');
    assert.equal(run('a\r\nb', 'SWAP 2:\n+'), 'a\r\n\r\n');
    assert.equal(run('a\nb', 'INS.PRE 2:\n+'), 'a\n\nb');
  });

  it('keeps a present final newline when deleting the last line', () => {
    assert.equal(run('a\nb\n', 'DEL 2'), 'a\n');
    assert.equal(run('a\nb\n', 'SWAP 2:\n+x'), 'a\nx\n');
  });

  it('terminates text inserted into an empty file', () => {
    assert.equal(run('', 'INS.HEAD:\n+x\n+y'), 'x\ny\n');
    assert.equal(run('', 'INS.TAIL:\n+x'), 'x\n');
  });

  it('keeps the BOM, also when line 1 changes or everything is deleted', () => {
    assert.equal(run('\uFEFFa\nb\n', 'SWAP 1:\n+A\nINS.HEAD:\n+h'), '\uFEFFh\nA\nb\n');
    assert.equal(run('\uFEFFa\n', 'DEL 1'), '\uFEFF');
  });

  it('reports hunks in both numberings and maps old lines to new numbers', () => {
    const doc = parseText('a\nb\nc\nd\n');
    const ops = (parseInput('[f#AA]\nINS.HEAD:\n+h\nDEL 2\nSWAP 3:\n+C\n+C2')[0]?.ops ?? []) as LineOp[];
    const applied = applyEdits(doc, planEdits(ops, doc.lines, { path: 'f', block: { mode: 'bracket', rustChars: false } }));
    assert.deepEqual(applied.hunks, [
      { oldStart: 1, oldCount: 0, newStart: 1, newCount: 1 },
      { oldStart: 2, oldCount: 1, newStart: 3, newCount: 0 },
      { oldStart: 3, oldCount: 1, newStart: 3, newCount: 2 },
    ]);
    assert.deepEqual([...applied.oldToNew], [0, 2, 0, 0, 5]);
    // Old 1 -> 2 and old 4 -> 5 stay visible; old 2 (deleted) is gone; new lines 1, 3, 4 were written.
    assert.deepEqual(mapVisible(applied, [1, 2, 4, 99]), [1, 2, 3, 4, 5]);
    assert.deepEqual(mapVisible(applied, []), [1, 3, 4]);
  });
});
