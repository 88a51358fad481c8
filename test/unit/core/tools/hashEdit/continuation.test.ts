import assert from 'node:assert/strict';
import { bracketBlockEnd, depthChange, type CodeSource } from '../../../../../src/core/tools/hashEdit/continuation';

/** Lines that are all code already; `inside` lists lines that start inside a string or comment. */
function source(lines: readonly string[], inside: readonly number[] = []): CodeSource {
  return {
    lineCount: lines.length,
    code: (n) => lines[n - 1] ?? '',
    indent: (n) => (inside.includes(n) ? null : (lines[n - 1] ?? '').search(/\S|$/u)),
  };
}

describe('hash_edit block continuations', () => {
  it('counts the net depth of a code line', () => {
    assert.equal(depthChange('} else if (a) {'), 0);
    assert.equal(depthChange('f({ a: [1'), 3);
    assert.equal(depthChange('})'), -2);
  });

  it('names the head line when the brackets opened on an Allman line never close', () => {
    assert.deepEqual(bracketBlockEnd(source(['void F()', '{', '  x();']), 1, 2, false), {
      ok: false,
      reason: 'the block starting at line 1 is not closed before the end of the file (unbalanced brackets); use SWAP/DEL with an explicit range',
    });
    assert.deepEqual(bracketBlockEnd(source(['void F()', '{', '}', 'else', '{', '}', 'x();']), 1, 2, false), { ok: true, end: 6 });
  });

  it('does not end an unbraced statement at a shallow line that starts inside a string or comment', () => {
    const lines = ['if (a) {', '} else', '  x = ``', '``;', 'z();'];
    assert.deepEqual(bracketBlockEnd(source(lines, [4]), 1, 1, false), { ok: true, end: 4 });
    assert.deepEqual(bracketBlockEnd(source(lines), 1, 1, false), {
      ok: false,
      reason: 'line 2 continues the statement with `else`, whose end could not be found; use SWAP/DEL with an explicit range',
    });
  });

  it('takes while only after a do-block, and catch after either', () => {
    const lines = ['{', '}', 'while (a);', 'z();'];
    assert.deepEqual(bracketBlockEnd(source(lines), 1, 1, true), { ok: true, end: 3 });
    assert.deepEqual(bracketBlockEnd(source(lines), 1, 1, false), { ok: true, end: 2 });
    assert.deepEqual(bracketBlockEnd(source(['{', '}', 'catch {', '}']), 1, 1, true), { ok: true, end: 4 });
  });
});
