import assert from 'node:assert/strict';
import { applyPatch } from 'diff';
import { parseText } from '../../../../../src/core/tools/textDoc';
import { unifiedDiff } from '../../../../../src/core/tools/hashEdit/diff';

const numbered = (n: number) => Array.from({ length: n }, (_, i) => `l${i + 1}\n`).join('');

describe('hash_edit display diff', () => {
  it('merges hunks whose context touches and splits distant ones', () => {
    const before = numbered(30);
    const after = before.replace('l5\n', 'L5\n').replace('l11\n', 'L11\n').replace('l25\n', 'L25\n');
    const hunks = [5, 11, 25].map((n) => ({ oldStart: n, oldCount: 1, newStart: n, newCount: 1 }));
    const diff = unifiedDiff('f.txt', parseText(before), parseText(after), hunks);
    assert.deepEqual(diff.match(/^@@.*@@$/gm), ['@@ -2,13 +2,13 @@', '@@ -22,7 +22,7 @@']);
    assert.equal(applyPatch(before, diff), after);
  });

  it('marks a missing final newline and shows a newline that came as a change', () => {
    const before = 'a\nb';
    const after = 'a\nb\nc';
    const diff = unifiedDiff('f.txt', parseText(before), parseText(after), [{ oldStart: 3, oldCount: 0, newStart: 3, newCount: 1 }]);
    assert.match(diff, /-b\n\\ No newline at end of file\n\+b\n\+c\n\\ No newline at end of file/);
    assert.equal(applyPatch(before, diff), after);
  });
});
