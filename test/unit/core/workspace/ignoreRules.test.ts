import assert from 'node:assert/strict';
import fc from 'fast-check';
import { IGNORED, INCLUDED, NO_MATCH, RuleSet, ignoredBy, type Layer } from '../../../../src/core/workspace/ignoreRules';

describe('ignore rules', () => {
  it('matches case-sensitively, as git does on Linux', () => {
    const rules = new RuleSet('/x/.gitignore', 'Build/\n*.LOG\n');
    assert.equal(rules.verdict('Build', '', 0, 'Build', true), IGNORED);
    assert.equal(rules.verdict('build', '', 0, 'build', true), NO_MATCH);
    assert.equal(rules.verdict('a.log', '', 0, 'a.log', false), NO_MATCH);
  });

  it('tells no match from a re-inclusion, and applies directory-only patterns to directories only', () => {
    const rules = new RuleSet('/x/.gitignore', 'out/\n*.gen\n!keep.gen\n');
    assert.equal(rules.verdict('out', '', 0, 'out', true), IGNORED);
    assert.equal(rules.verdict('out', '', 0, 'out', false), NO_MATCH);
    assert.equal(rules.verdict('a/b.gen', '', 0, 'b.gen', false), IGNORED);
    assert.equal(rules.verdict('a/keep.gen', '', 0, 'keep.gen', false), INCLUDED);
  });

  it('matches anchored patterns against the path relative to the file’s folder', () => {
    const rules = new RuleSet('/x/sub/.gitignore', '/local.txt\ndeep/*.c\n');
    // `sub/local.txt` walked from /x: strip "sub/".
    assert.equal(rules.verdict('sub/local.txt', '', 4, 'local.txt', false), IGNORED);
    assert.equal(rules.verdict('sub/a/local.txt', '', 4, 'local.txt', false), NO_MATCH);
    assert.equal(rules.verdict('sub/deep/x.c', '', 4, 'x.c', false), IGNORED);
    // A file above the walk base: prefix the base's path below it.
    assert.equal(rules.verdict('x.c', 'deep/', 0, 'x.c', false), IGNORED);
  });

  it('the first layer with a matching line decides', () => {
    const outer: Layer = { rules: new RuleSet('/r/.gitignore', '*.log\n'), prefix: '', strip: 0 };
    const inner: Layer = { rules: new RuleSet('/r/a/.gitignore', '!x.log\n'), prefix: '', strip: 2 };
    assert.equal(ignoredBy([inner, outer], 'a/x.log', 'x.log', false), false);
    assert.equal(ignoredBy([inner, outer], 'a/y.log', 'y.log', false), true);
    assert.equal(ignoredBy([outer], 'a/x.log', 'x.log', false), true);
  });

  it('the per-name verdict cache agrees with matching the whole path (property)', () => {
    const part = fc.constantFrom('a', 'b.c', 'x.log', 'dir', 'Q', 'e f', '[x]');
    const line = fc.oneof(fc.constantFrom('*.log', '!x.log', 'dir/', '!dir/', 'b.*', '?', '[ab]*', '\\[x]', '*', '!*', 'e\\ f', '# c', ''), part);
    fc.assert(
      fc.property(fc.array(line, { maxLength: 6 }), fc.array(part, { minLength: 1, maxLength: 4 }), fc.boolean(), (lines, parts, isDir) => {
        const text = lines.join('\n');
        // The same lines plus one that can never match but has an inner slash turn the cache off.
        const cached = new RuleSet('/r/.gitignore', text);
        const uncached = new RuleSet('/r/.gitignore', text + '\nnever/matches/this\n');
        const rel = parts.join('/');
        const name = parts[parts.length - 1] as string;
        assert.equal(cached.verdict(rel, '', 0, name, isDir), uncached.verdict(rel, '', 0, name, isDir));
        assert.equal(cached.verdict(rel, '', 0, name, isDir), uncached.verdict(rel, '', 0, name, isDir), 'cached twice');
      }),
      { numRuns: 500 },
    );
  });
});
