import assert from 'node:assert/strict';
import { existsSync, promises as fsp } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { ListingCache } from '../../../../src/core/workspace/listingCache';
import type { WalkEnvironment } from '../../../../src/core/workspace/types';
import { walkWorkspace } from '../../../../src/core/workspace/walker';
import { git, gitAvailable, gitFiles, isolatedEnvironment, tempDir, writeTree, type TreeNode } from '../../helpers/tree';

/** The walker's files for `root`, which must equal git's list (hidden paths aside) in byte order. */
async function walkerFiles(root: string, environment: WalkEnvironment): Promise<string[]> {
  const result = await walkWorkspace({ root, dir: root, environment, maxEntries: Number.MAX_SAFE_INTEGER }, new ListingCache());
  assert.equal(result.facts.scan_complete, true);
  return result.files;
}

const names = ['a', 'b', 'c.txt', 'd.log', 'e f', 'x.tmp'];
const segment = fc.constantFrom(...names);
const pattern = fc.oneof(
  fc.constantFrom('*.log', '*.txt', 'b', 'b/', '/a', 'a/b', '**/c.txt', 'e*', '!*.txt', '!b/', '!a', 'x.*', '/b/', 'a/**', '!d.log', '*', '!c.txt', '[ab]', '?/'),
  fc.constantFrom('a/*.txt', '/a/b/', '*/b', 'b/c.txt', '!a/b', '!/a/b/c.txt', 'a/**/d.log', '/e f/a', 'b/a/', '!*/c.txt'),
  segment,
  segment.map((s) => '!' + s),
);
const ignoreFile = fc.array(pattern, { maxLength: 4 }).map((lines) => lines.join('\n') + '\n');
/** Up to 12 file paths of up to 3 segments, and up to 3 `.gitignore` files placed in folders that may exist. */
const randomFiles = fc.uniqueArray(fc.array(segment, { minLength: 1, maxLength: 3 }).map((parts) => parts.join('/')), { minLength: 1, maxLength: 12 });
const randomTree = fc.record({
  files: randomFiles,
  ignores: fc.array(fc.tuple(fc.array(segment, { maxLength: 2 }).map((parts) => parts.join('/')), ignoreFile), { maxLength: 3 }),
});

/** Writes the `.gitignore` files whose folder exists. */
async function writeIgnores(dir: string, ignores: readonly (readonly [string, string])[]): Promise<void> {
  for (const [folder, text] of ignores) {
    const at = path.join(dir, folder);
    if (!(await fsp.stat(at).then((s) => s.isDirectory(), () => false))) continue;
    await fsp.writeFile(path.join(at, '.gitignore'), text);
  }
}

/** A fresh repository at `dir` with the files (a path that is a file in one entry and a folder in another: the first wins) and rules; returns the files made. */
async function materialize(dir: string, environment: WalkEnvironment, files: readonly string[], ignores: readonly (readonly [string, string])[]): Promise<string[]> {
  await fsp.mkdir(dir);
  git(dir, ['init', '-q'], environment);
  const made: string[] = [];
  for (const file of files) {
    const abs = path.join(dir, file);
    try {
      await fsp.mkdir(path.dirname(abs), { recursive: true });
      await fsp.writeFile(abs, '', { flag: 'wx' });
      made.push(file);
    } catch (err) {
      if (!['EEXIST', 'ENOTDIR', 'EISDIR'].includes((err as NodeJS.ErrnoException).code ?? '')) throw err;
    }
  }
  // A file written first may have become a folder's name later: keep the ones that are files.
  const kept: string[] = [];
  for (const file of made) if (await fsp.lstat(path.join(dir, file)).then((s) => s.isFile(), () => false)) kept.push(file);
  await writeIgnores(dir, ignores);
  return kept;
}

describe('workspace walker against git ls-files --cached --others --exclude-standard', function () {
  this.timeout(120_000);
  let base: string;
  let root: string;
  let environment: WalkEnvironment;

  before(function () {
    if (!gitAvailable()) this.skip();
  });
  beforeEach(async () => {
    base = await tempDir('magi-git-');
    root = path.join(base, 'repo');
    await fsp.mkdir(path.join(base, 'home'));
    environment = isolatedEnvironment(path.join(base, 'home'));
    await fsp.mkdir(root);
    git(root, ['init', '-q'], environment);
  });
  afterEach(() => fsp.rm(base, { recursive: true, force: true }));

  const same = async (): Promise<string[]> => {
    const expected = gitFiles(root, environment);
    assert.deepEqual(await walkerFiles(root, environment), expected);
    return expected;
  };

  it('this repository (node_modules and dist ignored)', async function () {
    const repo = path.resolve(__dirname, '..', '..', '..', '..');
    if (!existsSync(path.join(repo, '.git'))) this.skip();
    // Other work may add files while this runs: compare twice before calling it a difference.
    for (let attempt = 0; ; attempt++) {
      const expected = gitFiles(repo, environment);
      const actual = await walkerFiles(repo, environment);
      if (attempt === 1 || JSON.stringify(actual) === JSON.stringify(expected)) {
        assert.deepEqual(actual, expected);
        assert.ok(expected.includes('src/core/workspace/walker.ts'));
        assert.ok(!expected.some((p) => p.startsWith('node_modules/')));
        return;
      }
    }
  });

  it('nested ignores, negations, anchored and directory-only patterns, info/exclude, unicode, spaces, symlinks', async () => {
    await writeTree(root, {
      '.gitignore': [
        '# comment', '*.log', '!important.log', '/anchored.txt', 'build/', 'dist', 'docs/**/*.tmp', 'with\\ space.txt',
        'trailing-space.txt   ', '\\#hash.txt', 'ignored-dir/', '!ignored-dir/keep.txt', 'link-dir/', '[abc].bracket', 'q?.txt', '/reinclude2/build/',
      ].join('\n') + '\n',
      '.git/info/exclude': 'excluded-by-info.txt\n',
      'a.log': '', 'important.log': '', 'anchored.txt': '', 'sub/anchored.txt': '', 'build/x.js': '', 'sub/build/y.js': '',
      'build.txt': '', 'dist': 'a file named dist', 'sub/dist/z.js': '', 'docs/a/b/c.tmp': '', 'docs/c.tmp': '', 'docs/keep.md': '',
      'with space.txt': '', 'with space2.txt': '', 'trailing-space.txt': '', '#hash.txt': '', 'ignored-dir/keep.txt': '', 'ignored-dir/other.txt': '',
      'a.bracket': '', 'd.bracket': '', 'q1.txt': '', 'q12.txt': '', 'excluded-by-info.txt': '',
      'unicode/日本語.txt': '', 'unicode/émoji-😀.txt': '', 'unicode/Ａ.txt': '',
      'target/debug/app': '', 'real-dir/file.txt': '', 'link-dir': { symlink: 'real-dir' }, 'link-file': { symlink: 'real-dir/file.txt' },
      'dangling': { symlink: 'does-not-exist' },
      'nested/.gitignore': '!*.log\n/only-here.txt\n*.gen\n', 'nested/x.log': '', 'nested/only-here.txt': '', 'nested/deep/only-here.txt': '',
      'nested/deep/.gitignore': '!keep.gen\n', 'nested/deep/keep.gen': '', 'nested/deep/drop.gen': '', 'nested/drop.gen': '',
      'reinclude/.gitignore': '!build/\n', 'reinclude/build/kept.js': '', 'reinclude2/.gitignore': '!build/\n', 'reinclude2/build/kept.js': '',
      '.hidden-dir/file.txt': '', '.hidden-file': '',
      'rules.txt': '*.c\n', 'symlinked-rules/.gitignore': { symlink: '../rules.txt' }, 'symlinked-rules/x.c': '',
    });
    const files = await same();
    for (const expected of ['important.log', 'reinclude/build/kept.js', 'reinclude2/build/kept.js', 'link-dir', 'link-file', 'dangling', 'unicode/émoji-😀.txt', 'nested/x.log', 'nested/deep/keep.gen', 'with space2.txt', 'target/debug/app', 'symlinked-rules/x.c']) {
      assert.ok(files.includes(expected), `${expected} is listed`);
    }
    for (const ignored of ['a.log', 'anchored.txt', 'build/x.js', 'ignored-dir/keep.txt', 'excluded-by-info.txt', 'nested/drop.gen', 'with space.txt', '#hash.txt']) {
      assert.ok(!files.includes(ignored), `${ignored} is ignored`);
    }
  });

  it('tracked files count as files, and the walker agrees on committed trees', async () => {
    await writeTree(root, { '.gitignore': 'out/\n', 'src/a.ts': '', 'src/b.ts': '', 'out/c.js': '' });
    git(root, ['add', '-A'], environment);
    git(root, ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'init'], environment);
    await writeTree(root, { 'src/new.ts': '' });
    await same();
  });

  for (const [label, setup] of [
    ['core.excludesFile in ~/.gitconfig', { 'home/.gitconfig': '[core]\n\texcludesfile = "~/global ignore"\n', 'home/global ignore': '*.bak\nscratch/\n' }],
    ['core.excludesFile in $XDG_CONFIG_HOME/git/config', { 'xdg/git/config': '[Core]\nExcludesFile = ' + '/ABS/home/xdg-ignore\n', 'home/xdg-ignore': '*.bak\nscratch/\n' }],
    ['the default $XDG_CONFIG_HOME/git/ignore', { 'xdg/git/ignore': '*.bak\nscratch/\n' }],
    ['the default ~/.config/git/ignore when XDG_CONFIG_HOME is unset', { 'home/.config/git/ignore': '*.bak\nscratch/\n' }],
  ] as const) {
    it(`the global excludes file: ${label}`, async () => {
      const tree: Record<string, TreeNode> = {};
      for (const [rel, text] of Object.entries(setup)) tree[rel] = text.replace('/ABS', base);
      await writeTree(base, tree);
      if (label.includes('XDG_CONFIG_HOME/git')) environment = isolatedEnvironment(environment.home, { XDG_CONFIG_HOME: path.join(base, 'xdg') });
      await writeTree(root, { 'a.bak': '', 'a.txt': '', 'sub/b.bak': '', 'scratch/c.txt': '', 'sub/.gitignore': '!b.bak\n' });
      assert.deepEqual(await same(), ['a.txt', 'sub/b.bak']);
    });
  }

  it('random trees and random patterns (property)', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(randomTree, async ({ files, ignores }) => {
        const dir = path.join(base, `p${run++}`);
        await materialize(dir, environment, files, ignores);
        assert.deepEqual(await walkerFiles(dir, environment), gitFiles(dir, environment));
      }),
      { numRuns: 60 },
    );
  });

  it('random trees where random files are tracked (`git add -f`) and random rules match them or their folders (property)', async () => {
    let run = 0;
    let hidden = 0;
    // Rule files with at least one line, most of them at the top, so that many runs hide a tracked file.
    const folder = fc.oneof({ weight: 3, arbitrary: fc.constant('') }, { weight: 2, arbitrary: fc.array(segment, { minLength: 1, maxLength: 2 }).map((parts) => parts.join('/')) });
    const rules = fc.array(fc.tuple(folder, fc.array(pattern, { minLength: 1, maxLength: 4 }).map((lines) => lines.join('\n') + '\n')), { minLength: 1, maxLength: 3 });
    const tracked = fc.record({
      tree: fc.record({ files: randomFiles, ignores: rules }),
      // Which of the files that exist get `git add -f`, and which of those are then deleted from the disk.
      add: fc.array(fc.integer({ min: 0, max: 3 }).map((n) => n > 0), { minLength: 12, maxLength: 12 }),
      remove: fc.array(fc.boolean(), { minLength: 12, maxLength: 12 }),
    });
    await fc.assert(
      fc.asyncProperty(tracked, async ({ tree, add, remove }) => {
        const dir = path.join(base, `t${run++}`);
        const existing = await materialize(dir, environment, tree.files, []);
        const added = existing.filter((_, i) => add[i]);
        if (added.length > 0) git(dir, ['add', '-f', '--', ...added], environment);
        // The rules come after the add, as in the repro: some match tracked files, some their folders.
        await writeIgnores(dir, tree.ignores);
        const gone = added.filter((_, i) => remove[i]);
        for (const file of gone) await fsp.rm(path.join(dir, file));
        // git ls-files --cached lists a tracked file that is gone from the disk; the walker lists what exists.
        const expected = gitFiles(dir, environment).filter((file) => !gone.includes(file));
        assert.deepEqual(await walkerFiles(dir, environment), expected);
        const rulesAlone = await walkWorkspace({ root: dir, dir, environment, gitIndex: false }, new ListingCache());
        if (rulesAlone.files.length < expected.length) hidden++;
      }),
      { numRuns: 150 },
    );
    // The property is about tracked files the rules would hide: make sure the runs had plenty of them.
    assert.ok(hidden >= 20, `only ${hidden} of 150 runs had a tracked file that an ignore rule matches`);
  });
});
