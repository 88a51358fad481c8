import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FindIndex, FindIndexCache } from '../../../../../src/core/tools/find/entries';
import { rankPage, type FindKind } from '../../../../../src/core/tools/find/rank';
import { compareBytes } from '../../../../../src/core/workspace/pathOrder';
import { parseQuery } from '../../../../../src/core/tools/find/scorer';

/** The ranked paths for a query over explicit lists (no walk). */
function rank(query: string, files: string[], dirs: string[] = [], kind: FindKind = 'files', offset = 0, limit = 200): string[] {
  return rankPage(new FindIndex(files, dirs), parseQuery(query), kind, offset, limit).paths;
}

describe('find ranking', () => {
  it('a file name match beats a match in the folders only, even a contiguous one', () => {
    assert.deepEqual(rank('find', ['src/find/a.ts', 'lib/finder.ts']), ['lib/finder.ts', 'src/find/a.ts']);
    // Letters scattered through the name still beat the word spelled out in a folder name.
    assert.deepEqual(rank('find', ['find/x.ts', 'lib/fooIndex.ts']), ['lib/fooIndex.ts', 'find/x.ts']);
  });

  it('orders exact name, name without extension, prefix, substring at a word start, substring, scattered, folder', () => {
    const files = ['src/find/x.ts', 'a/fooIndex.ts', 'a/refind.ts', 'a/my_find.ts', 'a/finder.ts', 'a/find.ts', 'a/find'];
    assert.deepEqual(rank('find', files), ['a/find', 'a/find.ts', 'a/finder.ts', 'a/my_find.ts', 'a/refind.ts', 'a/fooIndex.ts', 'src/find/x.ts']);
  });

  it('puts the exact name first however deep it is', () => {
    assert.deepEqual(rank('util.ts', ['util.tsx', 'deep/er/and/deeper/util.ts', 'utilities.ts']), ['deep/er/and/deeper/util.ts', 'util.tsx', 'utilities.ts']);
    assert.deepEqual(rank('index.ts', ['a/index.tsx', 'x/myindex.ts', 'b/c/d/index.ts', 'src/index.ts']), ['src/index.ts', 'b/c/d/index.ts', 'a/index.tsx', 'x/myindex.ts']);
  });

  it('breaks ties by the shorter path, then by byte order', () => {
    assert.deepEqual(rank('index.ts', ['src/a/index.ts', 'src/index.ts', 'index.ts']), ['index.ts', 'src/index.ts', 'src/a/index.ts']);
    assert.deepEqual(rank('x.ts', ['b/x.ts', 'a/x.ts', 'B/x.ts']), ['B/x.ts', 'a/x.ts', 'b/x.ts']);
  });

  it('byte order is UTF-8 order, not UTF-16 order', () => {
    // U+FFFD (EF BF BD) sorts before U+1F600 (F0 9F 98 80) in UTF-8; in UTF-16 the surrogate D83D sorts first.
    const emoji = 'x\u{1F600}';
    const replacement = 'x\uFFFDy';
    assert.equal(emoji.length, replacement.length);
    assert.ok(emoji < replacement, 'JavaScript order differs');
    assert.deepEqual(rank('x', [emoji, replacement]), [replacement, emoji]);
    assert.ok(compareBytes(replacement, emoji) < 0);
    assert.ok(compareBytes('a', 'ab') < 0 && compareBytes('b', 'ab') > 0 && compareBytes('a', 'a') === 0);
  });

  it('is case-insensitive and folds accents', () => {
    assert.deepEqual(rank('readme', ['docs/ReadMe.txt', 'README.md']), ['README.md', 'docs/ReadMe.txt']);
    assert.deepEqual(rank('cafe', ['Café.md', 'x.md']), ['Café.md']);
  });

  it('needs every space-separated word to match (AND), in any order', () => {
    const files = ['src/core/index.ts', 'src/index.ts', 'core/misc.ts', 'lib/core/tools/index.ts'];
    assert.deepEqual(rank('core index', files), ['src/core/index.ts', 'lib/core/tools/index.ts']);
    assert.deepEqual(rank('index core', files), ['src/core/index.ts', 'lib/core/tools/index.ts']);
    assert.deepEqual(rank('core nothing', files), []);
  });

  it('matches a word with / against the path: exact path, segment suffix, whole segments, segment start, substring, scattered', () => {
    const files = ['src/core/tools/read/index.ts', 'src/core/tools/reader.ts', 'x/mytools/read.ts', 'tools/read', 'a/tools/readme.md', 'tXoXoXlXs/rXeXaXd.ts', 'lib/tools/read'];
    assert.deepEqual(rank('tools/read', files), [
      'tools/read',
      'lib/tools/read',
      'src/core/tools/read/index.ts',
      'a/tools/readme.md',
      'src/core/tools/reader.ts',
      'x/mytools/read.ts',
      'tXoXoXlXs/rXeXaXd.ts',
    ]);
    assert.deepEqual(rank('core/tools/find.ts', ['x/core/tools/find.ts', 'core/tools/find.ts', 'a/core/tools/find.ts.bak']), ['core/tools/find.ts', 'x/core/tools/find.ts', 'a/core/tools/find.ts.bak']);
  });

  it('reads a leading ./ and backslashes as path syntax', () => {
    assert.deepEqual(rank('./src\\a.ts', ['src/a.ts', 'b.ts']), ['src/a.ts']);
  });

  it('filters by kind; directories end with /', () => {
    const files = ['src/tools/a.ts', 'tools.md'];
    const dirs = ['src', 'src/tools'];
    assert.deepEqual(rank('tools', files, dirs, 'directories'), ['src/tools/']);
    assert.deepEqual(rank('tools', files, dirs, 'files'), ['tools.md', 'src/tools/a.ts']);
    assert.deepEqual(rank('tools', files, dirs, 'mixed'), ['src/tools/', 'tools.md', 'src/tools/a.ts']);
    assert.deepEqual(rank('src/', files, dirs, 'mixed'), ['src/', 'src/tools/', 'src/tools/a.ts']);
  });

  it('counts every match and returns the requested window', () => {
    const files = Array.from({ length: 30 }, (_, i) => `dir/item${String(i).padStart(2, '0')}.ts`);
    const index = new FindIndex(files, []);
    const all = rankPage(index, parseQuery('item'), 'files', 0, 100);
    assert.equal(all.total, 30);
    const pages = [0, 10, 20].flatMap((offset) => rankPage(index, parseQuery('item'), 'files', offset, 10).paths);
    assert.deepEqual(pages, all.paths);
    const past = rankPage(index, parseQuery('item'), 'files', 40, 10);
    assert.deepEqual(past, { paths: [], total: 30 });
  });

  it('a page of the bounded selection equals the same window of a full sort (property)', () => {
    const segment = fc.constantFrom('a', 'b', 'ab', 'ba', 'abc', 'x', 'index', 'src', 'A', 'idx', 'b.ts', 'a.md');
    const pathArb = fc.array(segment, { minLength: 1, maxLength: 4 }).map((parts) => parts.join('/'));
    fc.assert(
      fc.property(fc.uniqueArray(pathArb, { maxLength: 40 }), fc.constantFrom('a', 'ab', 'b a', 'idx', 'a/b', 'x', 'ts'), fc.nat(20), fc.integer({ min: 1, max: 15 }), (files, query, offset, limit) => {
        const index = new FindIndex(files, []);
        const full = rankPage(index, parseQuery(query), 'files', 0, files.length + 1);
        const page = rankPage(index, parseQuery(query), 'files', offset, limit);
        assert.equal(page.total, full.total);
        assert.deepEqual(page.paths, full.paths.slice(offset, offset + limit));
      }),
    );
  });

  it('checks cancellation while ranking', () => {
    const files = Array.from({ length: 20_000 }, (_, i) => `f${i}.ts`);
    const controller = new AbortController();
    controller.abort();
    assert.throws(() => rankPage(new FindIndex(files, []), parseQuery('f'), 'files', 0, 10, controller.signal), { name: 'AbortError' });
  });
});

describe('FindIndexCache', () => {
  it('reuses the index for the same walk result, and for an equal listing in new arrays', () => {
    const cache = new FindIndexCache();
    const walk = { files: ['a.ts', 'b/c.ts'], dirs: ['b'] };
    const first = cache.get(walk, walk.files, walk.dirs);
    assert.equal(first.reused, false);
    const same = cache.get(walk, walk.files, walk.dirs);
    assert.equal(same.reused, true);
    assert.equal(same.index, first.index);
    const rebuilt = { files: [...walk.files], dirs: [...walk.dirs] };
    const equal = cache.get(rebuilt, rebuilt.files, rebuilt.dirs);
    assert.equal(equal.reused, true);
    assert.equal(equal.index, first.index);
  });

  it('builds a new index when the listing changed', () => {
    const cache = new FindIndexCache();
    const before = cache.get({}, ['a.ts'], []);
    const added = cache.get({}, ['a.ts', 'b.ts'], []);
    const renamed = cache.get({}, ['c.ts'], []);
    assert.equal(added.reused, false);
    assert.equal(renamed.reused, false);
    assert.notEqual(added.index, before.index);
    assert.deepEqual(rankPage(added.index, parseQuery('b'), 'files', 0, 10).paths, ['b.ts']);
  });

  it('keeps only the most recent listings', () => {
    const cache = new FindIndexCache(2);
    cache.get({}, ['1'], []);
    cache.get({}, ['2'], []);
    cache.get({}, ['3'], []);
    assert.equal(cache.get({}, ['3'], []).reused, true);
    assert.equal(cache.get({}, ['1'], []).reused, false);
  });
});
