import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { ListingCache } from '../../../../src/core/workspace/listingCache';
import type { WalkEnvironment, WalkRequest, WalkResult } from '../../../../src/core/workspace/types';
import { walkWorkspace } from '../../../../src/core/workspace/walker';
import { git, gitAvailable, gitFiles, isolatedEnvironment, tempDir, writeTree } from '../../helpers/tree';

describe('workspace walker', () => {
  let base: string;
  let root: string;
  let environment: WalkEnvironment;
  let cache: ListingCache;
  const walk = (dir = root, extra: Partial<WalkRequest> = {}): Promise<WalkResult> => walkWorkspace({ root, dir, environment, ...extra }, cache);

  beforeEach(async () => {
    base = await tempDir();
    root = path.join(base, 'ws');
    await fsp.mkdir(path.join(base, 'home'));
    await fsp.mkdir(root);
    environment = isolatedEnvironment(path.join(base, 'home'));
    cache = new ListingCache();
  });
  afterEach(() => fsp.rm(base, { recursive: true, force: true }));

  it('lists files in byte order, skips hidden entries and .git, lists symlinks without following them', async () => {
    await writeTree(root, {
      'b.txt': '', 'b/c.txt': '', 'a b.txt': '', 'a-x.txt': '', 'a/z.txt': '', 'é.txt': '', 'Z.txt': '',
      '.hidden': '', '.hdir/inner.txt': '', '.git/config': '', 'sub/.env': '',
      'link-to-file': { symlink: 'b.txt' }, 'link-to-dir': { symlink: 'b' }, 'pipe': { fifo: true }, 'empty/': null,
    });
    const result = await walk();
    assert.deepEqual(result.files, ['Z.txt', 'a b.txt', 'a-x.txt', 'a/z.txt', 'b.txt', 'b/c.txt', 'link-to-dir', 'link-to-file', 'é.txt']);
    assert.deepEqual(result.dirs, ['a', 'b', 'empty', 'sub']);
    assert.equal(result.specials, 1, 'the FIFO is counted, not listed');
    assert.equal(result.base, root);
    assert.deepEqual(result.facts, { scan_complete: true, entries_scanned: 14, entry_limit_reached: false, timed_out: false, walk_errors: 0, walk_entries_omitted: 0 });
  });

  it('applies nested .gitignore files relative to their folder: negations, anchored and directory-only patterns', async () => {
    await writeTree(root, {
      '.gitignore': '*.log\n!keep.log\n/top-only.txt\nbuild/\ndocs/*.tmp\n',
      'a.log': '', 'keep.log': '', 'top-only.txt': '', 'build/out.js': '', 'docs/x.tmp': '', 'docs/deep/y.tmp': '',
      'sub/top-only.txt': '', 'sub/build': 'a file named build is not a directory', 'sub/keep.log': '',
      'sub/.gitignore': '!a.log\n/local.txt\n',
      'sub/a.log': '', 'sub/local.txt': '', 'sub/deeper/local.txt': '',
    });
    const result = await walk();
    assert.deepEqual(result.files, ['docs/deep/y.tmp', 'keep.log', 'sub/a.log', 'sub/build', 'sub/deeper/local.txt', 'sub/keep.log', 'sub/top-only.txt']);
  });

  it('prunes an ignored directory before reading it, and keeps its negated child out as git does', async () => {
    await writeTree(root, { '.gitignore': 'build/\n!build/keep.txt\n', 'build/keep.txt': '', 'build/deep/x.txt': '', 'src/a.ts': '' });
    const result = await walk();
    assert.deepEqual(result.files, ['src/a.ts']);
    assert.equal(cache.has(path.join(root, 'build')), false, 'the ignored folder was never listed');
    assert.equal(cache.has(path.join(root, 'src')), true);
  });

  it('an inner .gitignore re-includes a folder an outer one excludes', async () => {
    await writeTree(root, {
      '.gitignore': 'foo/\n/c/bar/\n', 'foo/y.txt': '', 'a/.gitignore': '!foo/\n', 'a/foo/x.txt': '', 'a/b/foo/z.txt': '',
      'c/.gitignore': '!bar/\n', 'c/bar/w.txt': '',
    });
    assert.deepEqual((await walk()).files, ['a/b/foo/z.txt', 'a/foo/x.txt', 'c/bar/w.txt']);
  });

  it('reads .ignore, which overrides .gitignore in the same folder, and .git/info/exclude', async () => {
    await writeTree(root, {
      '.git/info/exclude': 'secret.txt\n', '.gitignore': '*.log\n', '.ignore': '!keep.log\ntmp/\n',
      'a.log': '', 'keep.log': '', 'secret.txt': '', 'tmp/x': '', 'sub/secret.txt': '', 'target/debug/app': '',
    });
    assert.deepEqual((await walk()).files, ['keep.log', 'target/debug/app'], 'target is grep’s to skip, not the walker’s');
  });

  it('applies the global excludes file that ~/.gitconfig names, with ~ expanded', async () => {
    await writeTree(base, { 'home/.gitconfig': '[core]\n\texcludesFile = ~/my-ignore\n', 'home/my-ignore': '*.bak\n' });
    await writeTree(root, { '.git/HEAD': '', 'a.bak': '', 'a.txt': '', 'sub/b.bak': '' });
    assert.deepEqual((await walk()).files, ['a.txt']);
  });

  it('walks a subfolder with its ancestors’ rules and reports root-relative paths', async () => {
    await writeTree(root, { '.gitignore': '*.gen\n/src/skip/\n', 'src/.gitignore': 'local/\n', 'src/a.ts': '', 'src/a.gen': '', 'src/skip/x': '', 'src/local/y': '', 'src/ok/z.ts': '' });
    const result = await walk(path.join(root, 'src'));
    assert.deepEqual(result.files, ['src/a.ts', 'src/ok/z.ts']);
    assert.deepEqual(result.dirs, ['src/ok']);
    assert.equal(result.facts.entries_scanned, 4, 'src itself, a.ts, ok and ok/z.ts');
  });

  it('walks an ignored folder it is asked for: the folder itself is not judged, its entries are', async () => {
    await writeTree(root, { '.gitignore': 'node_modules/\n*.map\n', 'node_modules/pkg/index.js': '', 'node_modules/pkg/index.js.map': '', 'node_modules/pkg/node_modules/dep/x.js': '' });
    assert.deepEqual((await walk(path.join(root, 'node_modules'))).files, ['node_modules/pkg/index.js']);
  });

  it('walks a folder outside the root as its own base, with absolute paths', async () => {
    const outside = path.join(base, 'outside');
    await writeTree(outside, { '.gitignore': 'x.txt\n', 'x.txt': '', 'y/z.txt': '' });
    const result = await walk(outside);
    assert.deepEqual(result.files, [path.join(outside, 'y', 'z.txt')]);
    assert.deepEqual(result.dirs, [path.join(outside, 'y')]);
    assert.equal(result.base, '');
  });

  it('inside a larger repository, uses its .gitignore files above the root and its info/exclude', async () => {
    const repo = path.join(base, 'repo');
    await writeTree(repo, { '.git/info/exclude': 'ws/excluded.txt\n', '.gitignore': '*.tmp\n/ws/anchored.txt\n', 'ws/a.tmp': '', 'ws/anchored.txt': '', 'ws/excluded.txt': '', 'ws/ok.txt': '' });
    root = path.join(repo, 'ws');
    assert.deepEqual((await walk()).files, ['ok.txt']);
  });

  it('finds the AGENTS.md files of the ancestors up to the root, the folder and below, never in ignored folders', async () => {
    await writeTree(base, { 'AGENTS.md': 'above the root' });
    await writeTree(root, {
      '.gitignore': 'ignored/\n', 'AGENTS.md': '', 'a/AGENTS.md': '', 'a/b/AGENTS.md': '', 'a/b/c/AGENTS.md': '', 'a/b/c/d/AGENTS.md': '',
      'ignored/AGENTS.md': '', '.hidden/AGENTS.md': '', 'other/AGENTS.md': '',
    });
    const result = await walk(path.join(root, 'a', 'b'));
    assert.deepEqual(result.agents, ['AGENTS.md', 'a/AGENTS.md', 'a/b/AGENTS.md', 'a/b/c/AGENTS.md', 'a/b/c/d/AGENTS.md'].map((p) => path.join(root, p)));
    assert.deepEqual((await walk()).agents.map((p) => path.relative(root, p)), ['AGENTS.md', 'a/AGENTS.md', 'a/b/AGENTS.md', 'a/b/c/AGENTS.md', 'a/b/c/d/AGENTS.md', 'other/AGENTS.md']);
  });

  it('counts a rule file it cannot read as a walk error and goes on without it, as git does', async () => {
    await writeTree(root, { '.gitignore': '*.log\n', 'a.log': '', 'b.txt': '' });
    const old = new Date(Date.now() - 60_000);
    await fsp.utimes(root, old, old);
    assert.deepEqual((await walk()).files, ['b.txt']);
    // The cached listing still says .gitignore is a file; reading it now fails (a symlink loop).
    await fsp.rm(path.join(root, '.gitignore'));
    await fsp.symlink('.gitignore', path.join(root, '.gitignore'));
    await fsp.utimes(root, old, old);
    const result = await walk();
    assert.deepEqual(result.files, ['a.log', 'b.txt']);
    assert.equal(result.facts.walk_errors, 1);
    assert.equal(result.facts.scan_complete, false);
  });

  describe('tracked files (the git index): an ignore rule never hides them', () => {
    const run = (args: string[], cwd = root): string => git(cwd, args, environment);

    before(function () {
      if (!gitAvailable()) this.skip();
    });
    beforeEach(() => {
      run(['init', '-q']);
    });

    it('the repro: `git add tracked/committed && echo tracked > .gitignore` lists the file, as git does; nothing untracked beside it', async () => {
      await writeTree(root, { 'tracked/committed': 'x', 'tracked/untracked': 'y', 'tracked/sub/also-untracked': '' });
      run(['add', 'tracked/committed']);
      await writeTree(root, { '.gitignore': 'tracked\n' });
      const result = await walk();
      assert.deepEqual(result.files, ['tracked/committed']);
      assert.deepEqual(result.files, gitFiles(root, environment));
      assert.deepEqual(result.dirs, ['tracked']);
      assert.deepEqual(result.warnings, []);
      assert.equal(cache.has(path.join(root, 'tracked', 'sub')), false, 'a folder without tracked files below an ignored one is never read');
      assert.deepEqual((await walk(root, { gitIndex: false })).files, [], 'without the index: the rules alone');
    });

    it('enters an ignored folder only for its tracked files; folders without any stay unread, nested rules do not matter there', async () => {
      await writeTree(root, {
        '.gitignore': 'vendor/\n*.lock\ndist\n', 'vendor/lib/a.js': '', 'vendor/lib/b.js': '', 'vendor/lib/deep/c.js': '', 'vendor/other/x.js': '',
        'vendor/lib/.gitignore': '*.js\n!b.js\n', 'yarn.lock': '', 'sub/Cargo.lock': '', 'sub/keep.ts': '', 'dist/bundle.js': '', 'dist/map.js': '', 'node/x': '',
      });
      run(['add', '-f', 'vendor/lib/a.js', 'vendor/lib/deep/c.js', 'yarn.lock', 'dist/bundle.js']);
      const result = await walk();
      assert.deepEqual(result.files, ['dist/bundle.js', 'node/x', 'sub/keep.ts', 'vendor/lib/a.js', 'vendor/lib/deep/c.js', 'yarn.lock']);
      assert.deepEqual(result.files, gitFiles(root, environment));
      assert.deepEqual(result.dirs, ['dist', 'node', 'sub', 'vendor', 'vendor/lib', 'vendor/lib/deep']);
      assert.equal(cache.has(path.join(root, 'vendor', 'other')), false);
      assert.equal(result.facts.entries_scanned, 13, 'the walked folder, 6 files and 6 folders');
    });

    it('leaves out tracked hidden paths and tracked files that are gone from the disk, and walks a subfolder of the repository', async () => {
      await writeTree(root, { '.gitignore': 'gen/\n', '.github/ci.yml': '', 'pkg/gen/.hidden.ts': '', 'pkg/gen/out.ts': '', 'pkg/gen/gone.ts': '', 'pkg/src/a.ts': '' });
      run(['add', '-f', '.github/ci.yml', 'pkg/gen/.hidden.ts', 'pkg/gen/out.ts', 'pkg/gen/gone.ts']);
      await fsp.rm(path.join(root, 'pkg', 'gen', 'gone.ts'));
      assert.deepEqual((await walk()).files, ['pkg/gen/out.ts', 'pkg/src/a.ts']);
      assert.deepEqual((await walk(path.join(root, 'pkg', 'gen'))).files, ['pkg/gen/out.ts'], 'walking the ignored folder itself');
      const inner = path.join(root, 'pkg');
      const result = await walkWorkspace({ root: inner, dir: inner, environment }, new ListingCache());
      assert.deepEqual(result.files, ['gen/out.ts', 'src/a.ts'], 'a workspace below the repository’s top: index paths are taken relative to it');
    });

    it('finds an AGENTS.md below an ignored folder only when it is tracked', async () => {
      await writeTree(root, { '.gitignore': 'a/\nb/\n', 'a/AGENTS.md': '', 'a/x.ts': '', 'b/AGENTS.md': '', 'b/y.ts': '' });
      run(['add', '-f', 'a/AGENTS.md', 'b/y.ts']);
      const result = await walk();
      assert.deepEqual(result.files, ['a/AGENTS.md', 'b/y.ts']);
      assert.deepEqual(result.agents, [path.join(root, 'a', 'AGENTS.md')]);
    });

    it('sees a file added to the index since the last walk (the parsed index is cached until the file changes)', async () => {
      await writeTree(root, { '.gitignore': '*.gen\n', 'a.gen': '', 'b.gen': '' });
      run(['add', '-f', 'a.gen']);
      assert.deepEqual((await walk()).files, ['a.gen']);
      run(['add', '-f', 'b.gen']);
      assert.deepEqual((await walk()).files, ['a.gen', 'b.gen']);
      run(['rm', '-q', '--cached', 'a.gen']);
      assert.deepEqual((await walk()).files, ['b.gen']);
    });

    for (const [kind, setup, says] of [
      ['a split index', [['update-index', '--split-index']], /split index .*`git update-index --no-split-index`/],
      ['a sparse index', [['sparse-checkout', 'init', '--cone', '--sparse-index'], ['sparse-checkout', 'set', 'tracked']], /sparse index.*`git sparse-checkout init --no-sparse-index`/],
    ] as const) {
      it(`falls back to the rules alone on ${kind}, and says so in the result's warnings`, async () => {
        await writeTree(root, { 'tracked/committed': '', 'tracked/more/x': '', 'other/y': '' });
        run(['add', '-A']);
        run(['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init']);
        for (const args of setup) run([...args]);
        await writeTree(root, { '.gitignore': 'committed\n' });
        const result = await walk();
        assert.deepEqual(result.files.filter((f) => f.startsWith('tracked/')), ['tracked/more/x'], 'the tracked, ignored file is missing');
        assert.equal(result.warnings.length, 1);
        assert.match(result.warnings[0] as string, says);
        assert.match(result.warnings[0] as string, /tracked files that an ignore rule matches are not listed/);
        assert.equal(result.facts.scan_complete, true, 'the walk itself is whole');
      });
    }
  });

  describe('limits', () => {
    beforeEach(() => writeTree(root, { 'a/1': '', 'a/2': '', 'b/1': '', 'b/2': '', 'c.txt': '' }));

    it('stops at maxEntries (the walked folder counts), with a prefix of the full list, the same every time', async () => {
      const result = await walk(root, { maxEntries: 5 });
      // root, a, a/1, a/2, b — then b/1 does not fit; b/1, b/2 and c.txt were listed but not visited.
      assert.deepEqual(result.files, ['a/1', 'a/2']);
      assert.deepEqual(result.dirs, ['a', 'b']);
      assert.deepEqual(result.facts, { scan_complete: false, entries_scanned: 5, entry_limit_reached: true, timed_out: false, walk_errors: 0, walk_entries_omitted: 3 });
      assert.deepEqual(await walk(root, { maxEntries: 5 }), result);
    });

    it('a scan that fills the limit exactly is complete', async () => {
      const result = await walk(root, { maxEntries: 8 });
      assert.equal(result.facts.scan_complete, true);
      assert.equal(result.facts.entries_scanned, 8);
      assert.equal(result.files.length, 5);
    });

    it('reports timed_out when the deadline passes', async () => {
      const result = await walk(root, { timeoutMs: 0 });
      assert.deepEqual(result.facts, { scan_complete: false, entries_scanned: 1, entry_limit_reached: false, timed_out: true, walk_errors: 0, walk_entries_omitted: 3 });
      assert.deepEqual(result.files, []);
    });

    it('rejects when the signal is aborted, before or during the walk', async () => {
      await assert.rejects(walk(root, { signal: AbortSignal.abort() }), { name: 'AbortError' });
      // Abort while the walk is under way (it reads P4IGNORE while preparing).
      const controller = new AbortController();
      const env = new Proxy({ ...environment.env }, { get: (target, key) => (key === 'P4IGNORE' && controller.abort(), Reflect.get(target, key)) });
      await assert.rejects(walk(root, { signal: controller.signal, environment: { ...environment, env } }), { name: 'AbortError' });
    });

    it('hands the event loop back while it walks a large tree, and sees an abort then', async function () {
      this.timeout(20_000);
      await Promise.all(Array.from({ length: 3000 }, async (_, d) => {
        await fsp.mkdir(path.join(root, 'many', `d${d}`), { recursive: true });
        await fsp.writeFile(path.join(root, 'many', `d${d}`, 'f.txt'), '');
      }));
      let turns = 0;
      const timer = setInterval(() => turns++, 0);
      try {
        await walk();
      } finally {
        clearInterval(timer);
      }
      assert.ok(turns > 0, 'timers ran during the walk');
      const controller = new AbortController();
      const pending = walkWorkspace({ root, dir: root, environment, signal: controller.signal }, new ListingCache());
      setImmediate(() => controller.abort());
      await assert.rejects(pending, { name: 'AbortError' });
    });

    it('counts a folder that vanished since it was listed as a walk error and goes on', async () => {
      const old = new Date(Date.now() - 60_000);
      for (const dir of ['a', 'b', '.']) await fsp.utimes(path.join(root, dir), old, old);
      await walk();
      await fsp.rm(path.join(root, 'a'), { recursive: true });
      await fsp.rm(path.join(root, 'b'), { recursive: true });
      await fsp.writeFile(path.join(root, 'b'), 'b is a file now');
      await fsp.utimes(root, old, old); // the root's cached listing still says a/ and b/ are folders
      const result = await walk();
      assert.deepEqual(result.files, ['c.txt']);
      assert.deepEqual(result.dirs, ['a', 'b']);
      assert.equal(result.facts.walk_errors, 2);
      assert.equal(result.facts.scan_complete, false);
    });
  });
});
