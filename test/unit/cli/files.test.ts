import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { runMagi, type MagiRun } from '../helpers/cli';
import { git, gitAvailable, gitFiles, isolatedEnvironment, tempDir, writeTree } from '../helpers/tree';

/** The walker reads the user's git and Perforce files: give the child a home of its own. */
function magi(args: string[], home: string): Promise<MagiRun> {
  return runMagi(args, { env: { PATH: process.env.PATH, HOME: home } });
}

describe('magi files', function () {
  this.timeout(30000);
  let base: string;
  let root: string;
  let home: string;
  beforeEach(async () => {
    base = await tempDir('magi-files-');
    root = path.join(base, 'ws');
    home = path.join(base, 'home');
    await fsp.mkdir(home);
    await writeTree(root, {
      '.gitignore': 'build/\n*.log\n', 'src/a.ts': '', 'src/b c.ts': '', 'build/out.js': '', 'x.log': '', 'README.md': '',
      '.hidden': '', 'docs/ü.md': '', 'sub/.gitignore': '!keep.log\n', 'sub/keep.log': '',
    });
  });
  afterEach(() => fsp.rm(base, { recursive: true, force: true }));

  it('prints the walker’s files, one root-relative path a line in byte order, as git lists them', async () => {
    const { code, stdout, stderr } = await magi(['files', '--cwd', root], home);
    assert.equal(code, 0, stderr);
    assert.equal(stdout, 'README.md\ndocs/ü.md\nsrc/a.ts\nsrc/b c.ts\nsub/keep.log\n');
    assert.equal(stderr, '');
    if (gitAvailable()) {
      const environment = isolatedEnvironment(home);
      git(root, ['init', '-q'], environment);
      assert.deepEqual(stdout.trimEnd().split('\n'), gitFiles(root, environment));
    }
  });

  it('says on stderr when the scan stopped at --max-entries, and still prints what it saw', async () => {
    const { code, stdout, stderr } = await magi(['files', `--cwd=${root}`, '--max-entries', '3'], home);
    assert.equal(code, 0);
    // root, README.md, docs — then docs/ü.md does not fit; it, src and sub were listed, not visited.
    assert.equal(stdout, 'README.md\n');
    assert.match(stderr, /^magi files: incomplete scan after 3 entries: the entry limit was reached \(3 entries seen but not visited; raise --max-entries\)\n$/);
  });

  it('lists a tracked file an ignore rule matches, as git does (issue 16: `git add tracked/committed && echo tracked > .gitignore`), and says on stderr when the index cannot be used', async function () {
    if (!gitAvailable()) this.skip();
    const environment = isolatedEnvironment(home);
    await writeTree(root, { 'tracked/committed': 'x', 'tracked/untracked': 'y' });
    git(root, ['init', '-q'], environment);
    git(root, ['add', 'tracked/committed'], environment);
    await fsp.appendFile(path.join(root, '.gitignore'), 'tracked\n');
    const listed = await magi(['files', '--cwd', root], home);
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(listed.stdout, 'README.md\ndocs/ü.md\nsrc/a.ts\nsrc/b c.ts\nsub/keep.log\ntracked/committed\n');
    assert.deepEqual(listed.stdout.trimEnd().split('\n'), gitFiles(root, environment));
    assert.equal(listed.stderr, '');
    git(root, ['update-index', '--split-index'], environment);
    const split = await magi(['files', '--cwd', root], home);
    assert.equal(split.code, 0);
    assert.ok(!split.stdout.includes('tracked/committed'));
    assert.match(split.stderr, /^magi files: git index .*index: it is a split index .*`git update-index --no-split-index`.*not listed\.\n$/);
  });

  it('rejects stray arguments and bad options with the usage', async () => {
    for (const args of [['files', 'extra'], ['files', '--max-entries', '0'], ['files', '--max-entries', 'x'], ['files', '--json'], ['files', '--cwd', path.join(base, 'none')]]) {
      const { code, stderr } = await magi(args, home);
      assert.equal(code, 2, args.join(' '));
      assert.match(stderr, /^magi: .*\n\nUsage:[\s\S]*magi files \[--cwd DIR\] \[--max-entries N\]/);
    }
  });
});
