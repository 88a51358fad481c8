import assert from 'node:assert/strict';
import fs from 'node:fs';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { DIR, FILE, ListingCache, SPECIAL, SYMLINK, type ListingCacheOptions } from '../../../../src/core/workspace/listingCache';
import type { WalkEnvironment } from '../../../../src/core/workspace/types';
import { walkWorkspace } from '../../../../src/core/workspace/walker';
import { isolatedEnvironment, tempDir, writeTree } from '../../helpers/tree';

/** Sets a path's mtime to `secondsAgo` in the past. */
async function age(p: string, secondsAgo: number): Promise<void> {
  const when = new Date(Date.now() - secondsAgo * 1000);
  await fsp.utimes(p, when, when);
}

/** Counts the fs calls made while `work` runs: readdir of any kind, and stat of each path. */
async function countCalls<T>(work: () => Promise<T>): Promise<{ result: T; readdirs: string[]; stats: string[] }> {
  // The walker's `import * as fs` reads these through getters on the module object, so replacing them here is seen there.
  const mutable = fs as unknown as Record<'readdirSync' | 'statSync' | 'readdir', (...args: unknown[]) => unknown>;
  const originals = { readdirSync: mutable.readdirSync, statSync: mutable.statSync, readdir: mutable.readdir };
  const readdirs: string[] = [];
  const stats: string[] = [];
  mutable.readdirSync = (...args) => (readdirs.push(String(args[0])), originals.readdirSync(...args));
  mutable.readdir = (...args) => (readdirs.push(String(args[0])), originals.readdir(...args));
  mutable.statSync = (...args) => (stats.push(String(args[0])), originals.statSync(...args));
  try {
    return { result: await work(), readdirs, stats };
  } finally {
    Object.assign(mutable, originals);
  }
}

describe('ListingCache (fs_cache)', () => {
  let dir: string;
  let now: number;
  const make = (options: ListingCacheOptions = {}): ListingCache => new ListingCache({ now: () => now, ...options });

  beforeEach(async () => {
    dir = await tempDir();
    now = Date.now();
  });
  afterEach(() => fsp.rm(dir, { recursive: true, force: true }));

  it('lists a directory sorted as paths sort (a folder d as d/), with entry kinds', async () => {
    await writeTree(dir, { 'b.txt': '', 'a-x': '', 'a/': null, 'a.b': '', 'link': { symlink: 'a' }, 'fifo': { fifo: true } });
    const listing = make().list(dir);
    assert.deepEqual(listing.names, ['a-x', 'a.b', 'a', 'b.txt', 'fifo', 'link']);
    assert.deepEqual([...listing.kinds], [FILE, FILE, DIR, FILE, SPECIAL, SYMLINK]);
  });

  it('sorts in UTF-8 byte order where UTF-16 order differs', async () => {
    await writeTree(dir, { '\u{1F600}.txt': '', '\uFF21.txt': '', 'z.txt': '' });
    assert.deepEqual(make().list(dir).names, ['z.txt', '\uFF21.txt', '\u{1F600}.txt']);
  });

  it('reuses a listing while the directory is unchanged, and reads it again once its mtime moves', async () => {
    await writeTree(dir, { 'a.txt': '' });
    await age(dir, 60);
    const cache = make();
    const first = cache.list(dir);
    await fsp.writeFile(path.join(dir, 'b.txt'), '');
    await age(dir, 60); // a change that kept an old mtime cannot be seen: the cache trusts the mtime
    assert.equal(cache.list(dir), first);
    await age(dir, 0);
    assert.deepEqual(cache.list(dir).names, ['a.txt', 'b.txt']);
  });

  it('does not trust a listing read within racyMs of the directory’s mtime', async () => {
    await writeTree(dir, { 'a.txt': '' });
    await age(dir, 1); // modified one second before the read
    const cache = make({ racyMs: 2000 });
    const first = cache.list(dir);
    assert.notEqual(cache.list(dir), first, 'read again');
    const trusting = make({ racyMs: 0 });
    const kept = trusting.list(dir);
    assert.equal(trusting.list(dir), kept);
  });

  it('reads a listing again after its TTL', async () => {
    await writeTree(dir, { 'a.txt': '' });
    await age(dir, 60);
    const cache = make({ ttlMs: 1000 });
    const first = cache.list(dir);
    now += 999;
    assert.equal(cache.list(dir), first);
    now += 2;
    assert.notEqual(cache.list(dir), first);
  });

  it('reads again when another directory took the path (a new inode), even with an older mtime', async () => {
    await writeTree(dir, { 'd/a.txt': '', 'other/b.txt': '' });
    await age(path.join(dir, 'd'), 60);
    await age(path.join(dir, 'other'), 120);
    const cache = make();
    const d = path.join(dir, 'd');
    assert.deepEqual(cache.list(d).names, ['a.txt']);
    await fsp.rm(d, { recursive: true });
    await fsp.rename(path.join(dir, 'other'), d);
    assert.deepEqual(cache.list(d).names, ['b.txt']);
  });

  it('trusts a listing read without a stat only where the caller allows it', async () => {
    await writeTree(dir, { 'a.txt': '' });
    await age(dir, 60);
    const cache = make();
    const read = cache.readSync(dir, 0);
    assert.equal(cache.cached(dir, false).listing, undefined, 'no inode yet: not trusted below a re-read folder');
    assert.equal(cache.cached(dir, true).listing, read);
    assert.equal(cache.cached(dir, false).listing, read, 'the stat recorded the inode');
  });

  it('drops the oldest listings beyond maxNames', async () => {
    await writeTree(dir, { 'a/1': '', 'a/2': '', 'b/1': '', 'b/2': '', 'c/1': '' });
    const cache = make({ maxNames: 4 });
    for (const d of ['a', 'b', 'c']) cache.list(path.join(dir, d));
    assert.equal(cache.has(path.join(dir, 'a')), false);
    assert.equal(cache.has(path.join(dir, 'b')), true);
    assert.equal(cache.has(path.join(dir, 'c')), true);
    assert.equal(cache.size, 2);
  });

  it('parses an ignore file once, again when its content changes, and keeps identical text as the same rules', async () => {
    const file = path.join(dir, '.gitignore');
    await fsp.writeFile(file, '*.log\n');
    await age(file, 60);
    const cache = make();
    const first = cache.rules(file);
    assert.ok(first);
    assert.equal(cache.rules(file), first);
    await fsp.writeFile(file, '*.tmp\n'); // same size, new mtime
    const second = cache.rules(file);
    assert.notEqual(second?.id, first.id);
    assert.equal(second?.verdict('x.tmp', '', 0, 'x.tmp', false), 1);
    await fsp.writeFile(file, '*.tmp\n');
    assert.equal(cache.rules(file), second, 'rewritten with the same text');
    await fsp.writeFile(file, '# only a comment\n\n');
    assert.equal(cache.rules(file), undefined);
    assert.equal(cache.rules(path.join(dir, 'missing')), undefined);
    assert.equal(cache.rules(dir), undefined, 'a directory is not a rule file');
  });

  it('reads at most 1 MiB of a rule file, keeping whole lines', async () => {
    const file = path.join(dir, '.gitignore');
    const filler = '# filler line\n'.repeat(Math.ceil((1024 * 1024) / 14));
    await fsp.writeFile(file, 'early.txt\n' + filler + 'late.txt\n');
    const rules = make().rules(file);
    assert.equal(rules?.verdict('early.txt', '', 0, 'early.txt', false), 1);
    assert.equal(rules?.verdict('late.txt', '', 0, 'late.txt', false), 0);
  });

  describe('in a walk', () => {
    let environment: WalkEnvironment;
    beforeEach(async () => {
      await fsp.mkdir(path.join(dir, 'home'));
      environment = isolatedEnvironment(path.join(dir, 'home'));
      await writeTree(dir, { 'ws/.gitignore': '*.log\n', 'ws/a/1.txt': '', 'ws/a/b/2.txt': '', 'ws/c/3.log': '', 'ws/c/4.txt': '' });
      for (const d of ['ws', 'ws/a', 'ws/a/b', 'ws/c']) await age(path.join(dir, d), 60);
      await age(path.join(dir, 'ws/.gitignore'), 60);
    });
    const walk = (cache: ListingCache) => walkWorkspace({ root: path.join(dir, 'ws'), dir: path.join(dir, 'ws'), environment }, cache);

    it('a warm walk reads no directory and stats each directory once', async () => {
      const cache = make();
      const cold = await countCalls(() => walk(cache));
      assert.equal(cold.readdirs.length, 4);
      const warm = await countCalls(() => walk(cache));
      assert.deepEqual(warm.result, cold.result);
      assert.deepEqual(warm.readdirs, []);
      const dirStats = warm.stats.filter((p) => ['ws', 'ws/a', 'ws/a/b', 'ws/c'].map((d) => path.join(dir, d)).includes(p));
      assert.deepEqual(dirStats.sort(), ['ws', 'ws/a', 'ws/a/b', 'ws/c'].map((d) => path.join(dir, d)).sort());
    });

    it('sees a new file once its folder’s mtime changes, reading only that folder', async () => {
      const cache = make();
      await walk(cache);
      await fsp.writeFile(path.join(dir, 'ws/a/b/new.txt'), ''); // moves the folder's mtime past the cached read
      const after = await countCalls(() => walk(cache));
      assert.deepEqual(after.readdirs, [path.join(dir, 'ws/a/b')]);
      assert.deepEqual(after.result.files, ['a/1.txt', 'a/b/2.txt', 'a/b/new.txt', 'c/4.txt']);
    });

    it('sees an edited .gitignore although no folder changed', async () => {
      const cache = make();
      await walk(cache);
      await fsp.writeFile(path.join(dir, 'ws/.gitignore'), '*.txt\n');
      assert.deepEqual((await walk(cache)).files, ['c/3.log']);
    });

    it('reads everything again after the TTL', async () => {
      const cache = make({ ttlMs: 10_000 });
      await walk(cache);
      now += 10_001;
      assert.equal((await countCalls(() => walk(cache))).readdirs.length, 4);
    });
  });
});
