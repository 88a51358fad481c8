import assert from 'node:assert/strict';
import { parse, type SgNode } from '@ast-grep/napi';
import { napiLanguage } from '../../../../../src/core/tools/astGrep/languages';
import { expandRewrite } from '../../../../../src/core/tools/astGrep/rewrite';

/** The first match of `pattern` in JavaScript `source`, and the leading whitespace of its line. */
function matchOf(source: string, pattern: string): { node: SgNode; indent: string } {
  const node = parse(napiLanguage('javascript'), source).root().find(pattern);
  assert.ok(node, `no match of ${pattern}`);
  const line = source.split('\n')[node.range().start.line] ?? '';
  return { node, indent: /^[ \t]*/.exec(line)?.[0] ?? '' };
}

describe('ast_grep expandRewrite', () => {
  it('leaves out a replacement whose estimate (template plus captures) passes the cap', () => {
    const source = 'run(abcdef);\n';
    const { node, indent } = matchOf(source, 'run($A)');
    // 'go($A)' is 6 bytes, the capture 6 more.
    assert.deepEqual(expandRewrite('go($A)', node, source, indent, 11), { ok: false, estimate: 12 });
    assert.deepEqual(expandRewrite('go($A)', node, source, indent, 12), { ok: true, text: 'go(abcdef)' });
    // Each use of a capture counts.
    assert.deepEqual(expandRewrite('go($A, $A)', node, source, indent, 20), { ok: false, estimate: 22 });
  });

  it('replaces $NAME, $$$NAME (the span of the list) and an unmatched metavariable with nothing', () => {
    const source = 'call(a, b,  c);\n';
    const { node, indent } = matchOf(source, 'call($FIRST, $$$REST)');
    assert.deepEqual(expandRewrite('f($$$REST; $FIRST; $MISSING)', node, source, indent), { ok: true, text: 'f(b,  c; a; )' });
  });

  it('indents template lines after the first by the spaces that begin the match line', () => {
    const source = 'function f() {\n    run(x);\n}\n';
    const { node, indent } = matchOf(source, 'run($A)');
    assert.deepEqual(expandRewrite('go(\n  $A,\n)', node, source, indent), { ok: true, text: 'go(\n      x,\n    )' });
  });

  it('does not indent after a tab, as ast-grep counts spaces only', () => {
    const source = 'function f() {\n\t\trun(x);\n}\n';
    const { node, indent } = matchOf(source, 'run($A)');
    assert.deepEqual(expandRewrite('go(\n  $A,\n)', node, source, indent), { ok: true, text: 'go(\n  x,\n)' });
  });

  it('keeps a multi-line capture laid out relative to its place in the template (ast-grep indent.rs example)', () => {
    const source = 'if (true) {\n  a(\n    1\n      + 2\n      + 3\n  )\n}\n';
    const { node, indent } = matchOf(source, 'a($B)');
    const expansion = expandRewrite('c(\n  $B\n)', node, source, indent);
    assert.deepEqual(expansion, { ok: true, text: 'c(\n    1\n      + 2\n      + 3\n  )' });
  });

  it('moves a multi-line capture left when the template puts it shallower', () => {
    const source = 'wrap(\n      first,\n      second\n        + more);\n';
    const { node, indent } = matchOf(source, 'wrap($A, $B)');
    assert.deepEqual(expandRewrite('pair($B)', node, source, indent), { ok: true, text: 'pair(second\n  + more)' });
  });
});
