import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { FindIndexCache } from '../../../../../src/core/tools/find/entries';
import { FIND_OUTPUT_CAP, findIndexCache, searchWalk, type FindArgs } from '../../../../../src/core/tools/find';
import type { WalkFacts, WalkResult } from '../../../../../src/core/workspace/types';
import { tempWorkspace, type TempWorkspace } from '../../../helpers/workspace';

const COMPLETE: WalkFacts = { scan_complete: true, entries_scanned: 10, entry_limit_reached: false, timed_out: false, walk_errors: 0, walk_entries_omitted: 0 };

/** A walk result over explicit lists, as the walker would hand it over. */
function walkOf(files: string[], dirs: string[] = [], facts: Partial<WalkFacts> = {}): WalkResult {
  const walk = { files, dirs, agents: [], base: '/ws', specials: 0, facts: { ...COMPLETE, ...facts }, warnings: [] };
  return walk;
}

function args(query: string, more: Partial<FindArgs> = {}): FindArgs {
  return { query, kind: 'files', limit: 50, offset: 0, ...more };
}

const items = (n: number): string[] => Array.from({ length: n }, (_, i) => `src/item${String(i).padStart(3, '0')}.ts`);

describe('find results', () => {
  it('one path per line; a complete scan has exact totals and has_more from offset+limit', () => {
    const result = searchWalk(walkOf(items(3)), args('item', { limit: 2 }), new FindIndexCache(), '.');
    assert.equal(result.status, 'success');
    assert.equal(result.content, 'src/item000.ts\nsrc/item001.ts\n[showing 1-2 of 3 matches; use offset=2 for more]');
    assert.deepEqual(result.metadata, {
      path: '.',
      kind: 'files',
      returned: 2,
      total_matched: 3,
      total_matched_exact: true,
      truncated: true,
      has_more: true,
      scan_complete: true,
      index_ready: true,
      entries_scanned: 10,
      entry_limit_reached: false,
      timed_out: false,
      walk_errors: 0,
      walk_entries_omitted: 0,
    });
    const last = searchWalk(walkOf(items(3)), args('item', { limit: 2, offset: 2 }), new FindIndexCache(), '.');
    assert.equal(last.content, 'src/item002.ts');
    assert.equal(last.metadata.has_more, false);
    assert.equal(last.metadata.truncated, false);
  });

  it('offset + limit equal to the total means no more', () => {
    const result = searchWalk(walkOf(items(4)), args('item', { limit: 2, offset: 2 }), new FindIndexCache(), '.');
    assert.equal(result.metadata.has_more, false);
    assert.equal(result.metadata.returned, 2);
  });

  it('caps limit at 200 and says so', () => {
    const result = searchWalk(walkOf(items(250)), args('item', { limit: 500 }), new FindIndexCache(), '.');
    const lines = result.content.split('\n');
    assert.equal(lines.filter((l) => !l.startsWith('[')).length, 200);
    assert.ok(lines.includes('[limit 500 capped at 200]'));
    assert.ok(lines.includes('[showing 1-200 of 250 matches; use offset=200 for more]'));
    assert.equal(result.metadata.limit_capped, true);
    assert.equal(result.metadata.has_more, true);
  });

  it('a partial scan ranks what it saw: truncated, index not ready, has_more null, total a lower bound', () => {
    const partial = { scan_complete: false, entry_limit_reached: true, entries_scanned: 100_000, walk_entries_omitted: 12 };
    const result = searchWalk(walkOf(items(3), [], partial), args('item', { limit: 2 }), new FindIndexCache(), 'src');
    assert.equal(result.status, 'success');
    assert.equal(result.metadata.scan_complete, false);
    assert.equal(result.metadata.total_matched, 3);
    assert.equal(result.metadata.total_matched_exact, false);
    assert.equal(result.metadata.truncated, true);
    assert.equal(result.metadata.index_ready, false);
    assert.equal(result.metadata.has_more, null);
    assert.equal(result.metadata.entry_limit_reached, true);
    assert.equal(result.metadata.walk_entries_omitted, 12);
    assert.match(result.content, /^src\/item000\.ts\nsrc\/item001\.ts\n\[partial scan: the walk reached its entry limit after 100,000 entries, .*lower bound.*Narrow path/);
    assert.doesNotMatch(result.content, /showing/);
    // Even a page that shows everything seen is truncated: the rest of the tree was never seen.
    const all = searchWalk(walkOf(items(3), [], { scan_complete: false, timed_out: true }), args('item'), new FindIndexCache(), 'src');
    assert.equal(all.metadata.truncated, true);
    assert.equal(all.metadata.has_more, null);
    assert.match(all.content, /time limit/);
  });

  it('caps the output at 64 KiB, whole paths only, and says where to continue', () => {
    const long = Array.from({ length: 150 }, (_, i) => `${'d'.repeat(900)}/file${String(i).padStart(3, '0')}.ts`);
    const result = searchWalk(walkOf(long), args('file', { limit: 200 }), new FindIndexCache(), '.');
    assert.ok(Buffer.byteLength(result.content) <= FIND_OUTPUT_CAP);
    const shown = result.metadata.returned as number;
    assert.ok(shown > 0 && shown < 150);
    const lines = result.content.split('\n');
    assert.ok(lines.slice(0, shown).every((l) => long.includes(l)));
    assert.equal(lines[shown], `[output cap of 64 KiB reached after ${shown} paths; use offset=${shown} for more]`);
    assert.equal(result.metadata.has_more, true);
    assert.equal(result.metadata.truncated, true);
  });

  it('says when nothing matched, and when offset is past the end', () => {
    const none = searchWalk(walkOf(items(3)), args('zzz'), new FindIndexCache(), 'src');
    assert.equal(none.status, 'success');
    assert.equal(none.content, '[no files match "zzz" in src; try fewer or other letters, kind "mixed" for folders, or grep to search contents]');
    assert.equal(none.metadata.total_matched, 0);
    assert.equal(none.metadata.has_more, false);
    const past = searchWalk(walkOf(items(3)), args('item', { offset: 10 }), new FindIndexCache(), '.');
    assert.equal(past.content, '[offset 10 is past the last of 3 matches; use a smaller offset]');
    assert.equal(past.metadata.returned, 0);
  });

  it('reports unreadable entries', () => {
    const result = searchWalk(walkOf(items(1), [], { walk_errors: 2 }), args('item'), new FindIndexCache(), '.');
    assert.match(result.content, /\[2 entries could not be read/);
    assert.equal(result.metadata.walk_errors, 2);
  });

  it('passes on the walk’s warnings (a git index it could not use) as notes and walk_warnings', () => {
    const warning = 'git index /ws/.git/index: it is a split index … The walk uses the ignore rules alone: tracked files that an ignore rule matches are not listed.';
    const result = searchWalk({ ...walkOf(items(1)), warnings: [warning] }, args('item'), new FindIndexCache(), '.');
    assert.equal(result.content, `src/item000.ts\n[${warning}]`);
    assert.deepEqual(result.metadata.walk_warnings, [warning]);
    assert.equal(searchWalk(walkOf(items(1)), args('item'), new FindIndexCache(), '.').metadata.walk_warnings, undefined);
  });
});

describe('find tool', () => {
  let ws: TempWorkspace;
  beforeEach(async () => {
    ws = await tempWorkspace();
  });
  afterEach(() => ws.cleanup());

  it('rejects a blank or over-long query with a clear message', async () => {
    for (const query of ['', '   \t ']) {
      const result = await ws.run('find', { query });
      assert.equal(result.status, 'error');
      assert.match(result.content, /^find: invalid arguments: field `query`: must not be empty or blank/);
    }
    const long = await ws.run('find', { query: 'a'.repeat(513) });
    assert.equal(long.status, 'error');
    assert.match(long.content, /field `query`: must be at most 512 characters after trimming/);
    const missing = await ws.run('find', {});
    assert.equal(missing.status, 'error');
    assert.match(missing.content, /field `query`/);
  });

  it('rejects bad kind, limit and offset, and unknown fields', async () => {
    for (const bad of [{ kind: 'links' }, { limit: 0 }, { limit: 1.5 }, { offset: -1 }, { pattern: 'x' }]) {
      const result = await ws.run('find', { query: 'a', ...bad });
      assert.equal(result.status, 'error', JSON.stringify(bad));
      assert.match(result.content, /^find: invalid arguments: /);
    }
  });

  it('rejects a relative path that escapes the root', async () => {
    const result = await ws.run('find', { query: 'a', path: '../' });
    assert.equal(result.status, 'error');
    assert.match(result.content, /escapes the workspace root/);
    assert.equal(result.metadata.error, 'outside_root');
  });

  it('rejects an absolute path outside the root when capabilities.tools.find.absolute_paths is false', async () => {
    const denied = await tempWorkspace({ capabilities: { tools: { find: { absolute_paths: false } } } });
    try {
      const outside = path.dirname(denied.root);
      const result = await denied.run('find', { query: 'a', path: outside });
      assert.equal(result.status, 'error');
      assert.match(result.content, /capabilities\.tools\.find\.absolute_paths is false/);
      assert.equal(result.metadata.error, 'setting_denied');
      // The older key reaches find through the fffind alias.
      const legacy = await tempWorkspace({ tools: { fffind: { absolute_paths: false } } });
      try {
        const viaAlias = await legacy.run('fffind', { query: 'a', path: path.dirname(legacy.root) });
        assert.match(viaAlias.content, /capabilities\.tools\.find\.absolute_paths is false/);
      } finally {
        await legacy.cleanup();
      }
    } finally {
      await denied.cleanup();
    }
  });

  it('rejects a path that is a file or does not exist', async () => {
    await ws.files({ 'src/a.ts': 'x' });
    const file = await ws.run('find', { query: 'a', path: 'src/a.ts' });
    assert.equal(file.status, 'error');
    assert.match(file.content, /^find: src\/a\.ts is a file, not a folder/);
    const missing = await ws.run('find', { query: 'a', path: 'nope' });
    assert.equal(missing.status, 'error');
    assert.match(missing.content, /^find: nope does not exist/);
    assert.equal(missing.metadata.error, 'not_found');
  });
});

describe('find over a real walk', () => {
  let ws: TempWorkspace;
  beforeEach(async () => {
    ws = await tempWorkspace();
  });
  afterEach(() => ws.cleanup());

  const pathsOf = (content: string): string[] => content.split('\n').filter((l) => l !== '' && !l.startsWith('['));

  it('ranks root-relative paths: exact name, then name prefix, then folder-only matches', async () => {
    await ws.files({ 'src/finder/x.ts': '', 'src/core/find.ts': '', 'lib/finders.ts': '', 'docs/find': '' });
    const result = await ws.run('find', { query: 'find' });
    assert.equal(result.status, 'success');
    assert.equal(result.content, 'docs/find\nsrc/core/find.ts\nlib/finders.ts\nsrc/finder/x.ts');
    assert.equal(result.metadata.path, '.');
    assert.equal(result.metadata.scan_complete, true);
    assert.equal(result.metadata.total_matched, 4);
    assert.equal(result.metadata.has_more, false);
    assert.equal(result.metadata.index_ready, true);
    assert.equal(typeof result.metadata.entries_scanned, 'number');
  });

  it('answers under its alias fffind', async () => {
    await ws.files({ 'a/b.ts': '' });
    const result = await ws.run('fffind', { query: 'b.ts' });
    assert.equal(result.status, 'success');
    assert.equal(result.content, 'a/b.ts');
  });

  it('never lists gitignored, hidden or .git entries', async () => {
    await ws.files({
      '.gitignore': 'build/\n*.log\n',
      'find.ts': '',
      'build/find.js': '',
      'logs/find.log': '',
      '.hidden/find.ts': '',
      '.git/find': '',
      'sub/.gitignore': 'local-find.ts\n',
      'sub/local-find.ts': '',
      'sub/kept-find.ts': '',
    });
    const result = await ws.run('find', { query: 'find', kind: 'mixed' });
    assert.deepEqual(pathsOf(result.content), ['find.ts', 'sub/kept-find.ts']);
  });

  it('filters by kind; directories end with /', async () => {
    await ws.files({ 'src/tools/a.ts': '', 'tools.md': '', 'src/other/b.ts': '' });
    assert.equal((await ws.run('find', { query: 'tools', kind: 'directories' })).content, 'src/tools/');
    assert.equal((await ws.run('find', { query: 'tools' })).content, 'tools.md\nsrc/tools/a.ts');
    assert.equal((await ws.run('find', { query: 'tools', kind: 'mixed' })).content, 'src/tools/\ntools.md\nsrc/tools/a.ts');
  });

  it('searches inside path and still prints root-relative paths', async () => {
    await ws.files({ 'src/a/util.ts': '', 'lib/util.ts': '' });
    const result = await ws.run('find', { query: 'util', path: 'src' });
    assert.equal(result.content, 'src/a/util.ts');
    assert.equal(result.metadata.path, 'src');
  });

  it('pages with offset and limit; has_more tells whether more follow', async () => {
    await ws.files(Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`item${i}.ts`, ''])));
    const first = await ws.run('find', { query: 'item', limit: 2 });
    assert.deepEqual(pathsOf(first.content), ['item0.ts', 'item1.ts']);
    assert.equal(first.metadata.has_more, true);
    assert.equal(first.metadata.truncated, true);
    assert.match(first.content, /\[showing 1-2 of 5 matches; use offset=2 for more\]/);
    const last = await ws.run('find', { query: 'item', limit: 2, offset: 4 });
    assert.deepEqual(pathsOf(last.content), ['item4.ts']);
    assert.equal(last.metadata.has_more, false);
    assert.equal(last.metadata.total_matched, 5);
  });

  it('prints absolute paths for a folder outside the root', async () => {
    const outside = path.join(path.dirname(ws.root), 'outside');
    await fsp.mkdir(path.join(outside, 'deep'), { recursive: true });
    await fsp.writeFile(path.join(outside, 'deep', 'notes.md'), '');
    const result = await ws.run('find', { query: 'notes', path: outside });
    assert.equal(result.status, 'success');
    assert.equal(result.content, `${outside}/deep/notes.md`.split(path.sep).join('/'));
    assert.equal(result.metadata.path, outside);
  });

  it('a scan cut by the entry limit is partial: truncated, index not ready, has_more null, a note to narrow path', async () => {
    await ws.files(Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`d${i % 3}/item${String(i).padStart(2, '0')}.ts`, ''])));
    const walk = ws.runtime.walk.bind(ws.runtime);
    ws.runtime.walk = (dir, signal) => walk(dir, signal, { maxEntries: 6 });
    const result = await ws.run('find', { query: 'item', limit: 2 });
    assert.equal(result.status, 'success');
    assert.equal(result.metadata.scan_complete, false);
    assert.equal(result.metadata.entry_limit_reached, true);
    assert.equal(result.metadata.entries_scanned, 6);
    assert.equal(result.metadata.truncated, true);
    assert.equal(result.metadata.index_ready, false);
    assert.equal(result.metadata.has_more, null);
    assert.equal(result.metadata.total_matched_exact, false);
    const seen = result.metadata.total_matched as number;
    assert.ok(seen > 0 && seen < 12, `a lower bound: ${seen}`);
    assert.match(result.content, /\[partial scan: the walk reached its entry limit after 6 entries, .*lower bound.*Narrow path/);
    // Paging does not resume the scan: a later page ranks the same observed entries.
    const later = await ws.run('find', { query: 'item', limit: 2, offset: 2 });
    assert.equal(later.metadata.total_matched, seen);
    assert.equal(later.metadata.has_more, null);
  });

  it('accepts a 512-character query once trimmed', async () => {
    const result = await ws.run('find', { query: `  ${'a'.repeat(512)}\n` });
    assert.equal(result.status, 'success');
    assert.equal(result.metadata.total_matched, 0);
  });

  it('reuses its prepared index while the tree is unchanged, and sees a change', async () => {
    await ws.files({ 'a/one.ts': '', 'b/two.ts': '' });
    const cache = findIndexCache(ws.runtime);
    await ws.run('find', { query: 'one' });
    await ws.run('find', { query: 'two' });
    assert.equal(cache.builds, 1);
    await ws.files({ 'b/three.ts': '' });
    const after = await ws.run('find', { query: 'three' });
    assert.equal(after.content, 'b/three.ts');
    assert.equal(cache.builds, 2);
  });
});
