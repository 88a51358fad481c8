import { strict as assert } from 'node:assert';
import { treeComplexity } from '../../../../../src/core/tools/astGrep/complexity';
import { MAX_TREE_DEPTH, MAX_TREE_NODES } from '../../../../../src/core/tools/astGrep/limits';

describe('treeComplexity', () => {
  it('allows brackets nested up to one less than the depth limit (the root is a level), and refuses one more', () => {
    const nested = (n: number): string => '('.repeat(n) + 'x' + ')'.repeat(n);
    assert.deepEqual(treeComplexity(nested(MAX_TREE_DEPTH - 1)), { ok: true });
    const refused = treeComplexity(nested(MAX_TREE_DEPTH));
    assert.equal(refused.ok, false);
    assert.match(refused.ok ? '' : refused.reason, /nests 64 brackets deep \(tree depth limit 64\)/);
  });

  it('counts mixed bracket kinds and ignores unmatched closers', () => {
    assert.equal(treeComplexity(')))' + '{['.repeat(40) + ']}'.repeat(40)).ok, false);
    assert.equal(treeComplexity(')))' + '{['.repeat(31) + ']}'.repeat(31)).ok, true);
  });

  it('counts a run of word characters as one token and each punctuation character as one', () => {
    // `foo_bar1 $x é` is three words; `+=;` three punctuation tokens.
    assert.equal(treeComplexity('foo_bar1 $x é +=;', 6).ok, true);
    assert.equal(treeComplexity('foo_bar1 $x é +=;', 5).ok, false);
  });

  it('allows exactly the node limit in tokens and refuses one more', () => {
    const words = (n: number): string => Array.from({ length: n }, (_, i) => `w${i}`).join(' ');
    assert.equal(treeComplexity(words(MAX_TREE_NODES)).ok, true);
    const refused = treeComplexity(words(MAX_TREE_NODES + 1));
    assert.equal(refused.ok, false);
    assert.match(refused.ok ? '' : refused.reason, /more than 16384 tokens/);
  });
});
