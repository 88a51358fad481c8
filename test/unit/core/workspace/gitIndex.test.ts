import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fsp, readFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { findRepo } from '../../../../src/core/workspace/gitConfig';
import { GitIndex, GitIndexError, MAX_INDEX_BYTES, parseGitIndex, readIndex } from '../../../../src/core/workspace/gitIndex';
import { ListingCache } from '../../../../src/core/workspace/listingCache';
import type { WalkEnvironment } from '../../../../src/core/workspace/types';
import { git, gitAvailable, isolatedEnvironment, tempDir, writeTree } from '../../helpers/tree';

const COMMIT = ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm'];

/** Parses, and fails the test with anything but a GitIndexError. */
function parseOrRefuse(bytes: Buffer, hashBytes = 20): GitIndex | GitIndexError {
  try {
    return parseGitIndex(bytes, hashBytes);
  } catch (err) {
    if (err instanceof GitIndexError) return err;
    throw err;
  }
}

describe('git index reader', function () {
  this.timeout(60_000);
  let base: string;
  let repo: string;
  let environment: WalkEnvironment;
  const run = (args: string[], cwd = repo): string => git(cwd, args, environment);
  /** What git says is in the index: each path once, in git's order. */
  const gitIndexPaths = (cwd = repo): string[] => [...new Set(run(['ls-files', '-z', '--cached'], cwd).split('\0').filter((p) => p !== ''))];
  const indexBytes = (cwd = repo): Buffer => readFileSync(path.join(cwd, '.git', 'index'));
  const parsed = (cwd = repo, hashBytes = 20): GitIndex => parseGitIndex(indexBytes(cwd), hashBytes);
  const refusal = (bytes: Buffer, hashBytes = 20): GitIndexError => {
    const outcome = parseOrRefuse(bytes, hashBytes);
    assert.ok(outcome instanceof GitIndexError, 'refused');
    return outcome;
  };

  before(function () {
    if (!gitAvailable()) this.skip();
  });
  beforeEach(async () => {
    base = await tempDir('magi-index-');
    repo = path.join(base, 'repo');
    await fsp.mkdir(path.join(base, 'home'));
    environment = isolatedEnvironment(path.join(base, 'home'));
    await fsp.mkdir(repo);
    run(['init', '-q']);
  });
  afterEach(() => fsp.rm(base, { recursive: true, force: true }));

  /** Files with unicode, spaces, symlinks and nesting; committed so the index also carries a TREE extension. */
  async function sampleTree(): Promise<void> {
    await writeTree(repo, {
      'a.txt': 'a', 'b/c.txt': 'c', 'b/d/e.txt': 'e', 'b.txt': 'b', 'b-c.txt': '', 'Z.txt': '', 'with space.txt': '',
      'unicode/日本語.txt': '', 'unicode/émoji-😀.txt': '', 'unicode/\uff21.txt': '', 'link': { symlink: 'a.txt' },
    });
    run(['add', '-A']);
    run([...COMMIT, 'init']);
  }

  it('reads a version 2 index (git’s default) with its TREE extension: the same paths as git ls-files', async () => {
    await sampleTree();
    const index = parsed();
    assert.equal(index.version, 2);
    assert.deepEqual(index.paths(), gitIndexPaths());
    assert.ok(index.has('unicode/émoji-😀.txt') && index.has('link') && index.has('b/d/e.txt'));
    assert.ok(!index.has('b') && !index.has('b/d') && !index.has('a.tx') && !index.has('a.txt/'));
    assert.ok(index.hasUnder('b') && index.hasUnder('b/d') && index.hasUnder('unicode'));
    assert.ok(!index.hasUnder('a.txt') && !index.hasUnder('b/d/e.txt') && !index.hasUnder('c') && !index.hasUnder('unicod'));
  });

  it('reads version 3 with intent-to-add and skip-worktree entries (extended flags)', async () => {
    await sampleTree();
    await writeTree(repo, { 'new/intent.txt': 'not yet added' });
    run(['add', '-N', 'new/intent.txt']);
    run(['update-index', '--skip-worktree', 'b/c.txt']);
    run(['update-index', '--index-version', '3']);
    const bytes = indexBytes();
    assert.equal(bytes.readUInt32BE(4), 3);
    const index = parseGitIndex(bytes, 20);
    assert.deepEqual(index.paths(), gitIndexPaths());
    assert.ok(index.has('new/intent.txt') && index.has('b/c.txt'));
  });

  it('reads version 4 (prefix-compressed paths)', async () => {
    await sampleTree();
    await writeTree(repo, { 'b/d/e2.txt': '', 'b/d/f/g.txt': '', 'zz/y/x/w.txt': '' });
    run(['add', '-A']);
    run(['update-index', '--index-version', '4']);
    const index = parsed();
    assert.equal(index.version, 4);
    assert.deepEqual(index.paths(), gitIndexPaths());
    assert.ok(index.has('b/d/f/g.txt') && index.hasUnder('zz/y'));
  });

  for (const version of ['2', '4']) {
    it(`reads paths of 4,095 bytes and more (the 12-bit length saturated), version ${version}`, async () => {
      const empty = run(['hash-object', '-w', '/dev/null']).trim();
      const long = (c: string, tail: number) => Array.from({ length: 20 }, () => c.repeat(200)).join('/') + '/' + 'f'.repeat(tail);
      const paths = [long('d', 74), long('e', 75), long('g', 95), 'short.txt'];
      assert.deepEqual(paths.slice(0, 3).map((p) => Buffer.byteLength(p)), [4094, 4095, 4115]);
      // update-index --cacheinfo adds an entry without a file: the path need not fit the filesystem.
      for (const p of paths) run(['update-index', '--add', '--cacheinfo', `100644,${empty},${p}`]);
      run(['update-index', '--index-version', version]);
      const index = parsed();
      assert.deepEqual(index.paths(), gitIndexPaths());
      assert.deepEqual(index.paths().map((p) => Buffer.byteLength(p)).sort(), [4094, 4095, 4115, 9].sort());
      assert.ok(index.has(paths[2] as string) && index.hasUnder(path.posix.dirname(paths[1] as string)));
    });
  }

  it('version 4: paths sharing a long prefix rebuild to many times the file’s size', async () => {
    const empty = run(['hash-object', '-w', '/dev/null']).trim();
    const prefix = Array.from({ length: 15 }, (_, i) => `folder${i}-${'x'.repeat(240)}`).join('/');
    const lines = Array.from({ length: 200 }, (_, i) => `100644 ${empty}\t${prefix}/file${String(i).padStart(3, '0')}.txt`);
    // update-index --index-info takes the entries on stdin (no files: the paths need not fit the filesystem).
    execFileSync('git', ['update-index', '--index-info'], { cwd: repo, input: lines.join('\n') + '\n', env: { PATH: process.env.PATH, HOME: environment.home, GIT_CONFIG_NOSYSTEM: '1' } });
    run(['update-index', '--index-version', '4']);
    const bytes = indexBytes();
    const index = parseGitIndex(bytes, 20);
    assert.ok(200 * (prefix.length + 12) > 20 * bytes.length, `the paths (${200 * (prefix.length + 12)} bytes) dwarf the file (${bytes.length})`);
    assert.deepEqual(index.paths(), gitIndexPaths());
    assert.ok(index.has(`${prefix}/file199.txt`) && index.hasUnder(prefix));
  });

  it('reads the optional extensions git writes on request (EOIE, IEOT, UNTR) and skips them', async () => {
    await sampleTree();
    run(['-c', 'core.untrackedCache=true', 'status', '--porcelain']);
    run(['-c', 'index.recordEndOfIndexEntries=true', '-c', 'index.recordOffsetTable=true', '-c', 'index.threads=2', 'update-index', '--untracked-cache', '--force-write-index']);
    const bytes = indexBytes();
    for (const signature of ['TREE', 'UNTR', 'EOIE']) assert.ok(bytes.includes(signature), `${signature} is there`);
    assert.deepEqual(parseGitIndex(bytes, 20).paths(), gitIndexPaths());
  });

  it('lists a path in conflict once, though it has an entry per stage', async () => {
    await writeTree(repo, { 'f.txt': 'base\n', 'other.txt': '' });
    run(['add', '-A']);
    run([...COMMIT, 'base']);
    run(['checkout', '-qb', 'side']);
    // Contents of different lengths: a change in the same timestamp tick as the checkout still shows.
    await writeTree(repo, { 'f.txt': 'side change\n' });
    run([...COMMIT, 'side', '-a']);
    run(['checkout', '-q', '-']);
    await writeTree(repo, { 'f.txt': 'main\n' });
    run([...COMMIT, 'main', '-a']);
    assert.throws(() => run(['-c', 'user.name=t', '-c', 'user.email=t@t', 'merge', '-q', 'side']), 'the merge stops on the conflict');
    const stages = run(['ls-files', '-s', 'f.txt']).trim().split('\n');
    assert.equal(stages.length, 3, 'stages 1, 2 and 3');
    const index = parsed();
    assert.equal(index.entries, 4);
    assert.deepEqual(index.paths(), ['f.txt', 'other.txt']);
    assert.ok(index.has('f.txt'));
  });

  it('reads a SHA-256 repository’s index (32-byte object names), the size readIndex takes from extensions.objectFormat', async function () {
    const sha = path.join(base, 'sha256');
    await fsp.mkdir(sha);
    try {
      run(['init', '-q', '--object-format=sha256'], sha);
    } catch {
      this.skip(); // a git without SHA-256 support
    }
    await writeTree(sha, { 'a.txt': 'a', 'dir/b.txt': 'b', 'dir/ü.txt': '' });
    run(['add', '-A'], sha);
    run([...COMMIT, 'init'], sha);
    assert.deepEqual(parsed(sha, 32).paths(), gitIndexPaths(sha));
    parseOrRefuse(indexBytes(sha), 20); // read with the wrong name size it may be refused, but never crashes
    const { index, warning } = readIndex(findRepo(sha, new ListingCache()) as NonNullable<ReturnType<typeof findRepo>>, new ListingCache());
    assert.equal(warning, undefined);
    assert.deepEqual(index?.paths(), ['a.txt', 'dir/b.txt', 'dir/ü.txt']);
  });

  it('refuses a split index, naming the command that undoes it', async () => {
    await sampleTree();
    run(['update-index', '--split-index']);
    const error = refusal(indexBytes());
    assert.equal(error.code, 'split_index');
    assert.match(error.message, /split index .*`git update-index --no-split-index`/);
  });

  it('refuses a sparse index, naming the command that expands it; a sparse checkout without one is read', async () => {
    await writeTree(repo, { 'dir/a.txt': '', 'out/deep/b.txt': '', 'top.txt': '' });
    run(['add', '-A']);
    run([...COMMIT, 'init']);
    run(['sparse-checkout', 'init', '--cone']);
    run(['sparse-checkout', 'set', 'dir']);
    assert.deepEqual(parsed().paths(), ['dir/a.txt', 'out/deep/b.txt', 'top.txt'], 'skip-worktree entries are still tracked');
    run(['sparse-checkout', 'init', '--cone', '--sparse-index']);
    run(['sparse-checkout', 'set', 'dir']);
    assert.ok(run(['ls-files', '--sparse']).includes('out/\n'), 'git made a directory entry');
    const error = refusal(indexBytes());
    assert.equal(error.code, 'sparse_index');
    assert.match(error.message, /sparse index.*`git sparse-checkout init --no-sparse-index`/);
  });

  describe('damaged and hostile indexes', () => {
    let good: Buffer;
    beforeEach(async () => {
      await sampleTree();
      good = indexBytes();
    });

    it('refuses a wrong signature, an unknown version and a count that cannot fit, without allocating for it', () => {
      const copy = (edit: (b: Buffer) => void): Buffer => {
        const b = Buffer.from(good);
        edit(b);
        return b;
      };
      assert.equal(refusal(copy((b) => b.write('DIRX', 0, 'latin1'))).code, 'not_an_index');
      assert.equal(refusal(Buffer.from('DIR')).code, 'not_an_index');
      assert.equal(refusal(Buffer.alloc(0)).code, 'not_an_index');
      for (const version of [1, 5, 0xffffffff]) {
        const error = refusal(copy((b) => b.writeUInt32BE(version, 4)));
        assert.equal(error.code, 'unsupported_version');
        assert.match(error.message, new RegExp(`version ${version}; Magi reads versions 2 to 4`));
      }
      assert.equal(refusal(copy((b) => b.writeUInt32BE(0xffffffff, 8))).code, 'corrupt');
      assert.match(refusal(copy((b) => b.writeUInt32BE(good.readUInt32BE(8) + 1, 8))).message, /not a valid git index \(.*\); `git status` says whether git can read it/);
    });

    it('refuses an index that uses an extension git requires readers to know, and skips an unknown optional one', () => {
      const withExtension = (signature: string): Buffer => {
        const body = good.subarray(0, good.length - 20);
        const extension = Buffer.alloc(8 + 5);
        extension.write(signature, 0, 'latin1');
        extension.writeUInt32BE(5, 4);
        return Buffer.concat([body, extension, good.subarray(good.length - 20)]);
      };
      const error = refusal(withExtension('abcd'));
      assert.equal(error.code, 'unknown_extension');
      assert.match(error.message, /"abcd"/);
      assert.deepEqual(parseGitIndex(withExtension('ZZZZ'), 20).paths(), gitIndexPaths());
    });

    it('version 4: refuses entries out of order and a path that drops more than the previous path has; version 2 is trusted in order, as git does', async () => {
      // The first path, Z.txt, becomes z.txt: now after a.txt, which follows it.
      const disorder = (bytes: Buffer): Buffer => {
        const b = Buffer.from(bytes);
        b[b.indexOf('Z.txt\0')] = 0x7a;
        return b;
      };
      const v2 = parseOrRefuse(disorder(good));
      assert.ok(v2 instanceof GitIndex, 'read without an order check');
      // Lookups on it answer (some wrongly) and return.
      for (const p of ['z.txt', 'a.txt', 'b', 'unicode/日本語.txt', 'zz']) assert.equal(typeof (v2.has(p) && v2.hasUnder(p)), 'boolean');
      assert.equal(v2.paths().length, gitIndexPaths().length);
      run(['update-index', '--index-version', '4']);
      const v4 = indexBytes();
      assert.match(refusal(disorder(v4)).message, /entries out of order/);
      // The second entry's varint follows its fixed 62 bytes: make it drop 100 bytes of Z.txt's 5.
      const secondEntry = v4.indexOf('Z.txt\0') + 6;
      const damaged = Buffer.from(v4);
      damaged[secondEntry + 62] = 100;
      assert.match(refusal(damaged).message, /drops more of the previous path than it has/);
    });

    it('never crashes on any truncation of a real index (v2 and v4), and never invents a path', async () => {
      for (const version of ['2', '4']) {
        run(['update-index', '--index-version', version]);
        const bytes = indexBytes();
        const all = new Set(parseGitIndex(bytes, 20).paths());
        let refused = 0;
        for (let length = 0; length < bytes.length; length++) {
          const outcome = parseOrRefuse(bytes.subarray(0, length));
          if (outcome instanceof GitIndexError) refused++;
          else for (const p of outcome.paths()) assert.ok(all.has(p), `${p} was in the index`);
        }
        // Without a checksum check a cut that lands exactly between extensions can still parse; nothing else does.
        assert.ok(refused >= bytes.length - 2, `${refused} of ${bytes.length} truncations refused`);
      }
    });

    it('never crashes or hangs on garbage: random bytes after a valid header, and random bytes flipped in a real index (property)', () => {
      const header = (version: number, count: number) => {
        const b = Buffer.alloc(12);
        b.write('DIRC', 0, 'latin1');
        b.writeUInt32BE(version, 4);
        b.writeUInt32BE(count, 8);
        return b;
      };
      fc.assert(
        fc.property(fc.integer({ min: 2, max: 4 }), fc.nat({ max: 64 }), fc.uint8Array({ maxLength: 4096 }), fc.constantFrom(20, 32), (version, count, body, hashBytes) => {
          parseOrRefuse(Buffer.concat([header(version, count), Buffer.from(body)]), hashBytes);
        }),
        { numRuns: 2000 },
      );
      fc.assert(
        fc.property(fc.array(fc.tuple(fc.nat({ max: good.length - 1 }), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 8 }), (flips) => {
          const b = Buffer.from(good);
          for (const [at, value] of flips) b[at] = value;
          parseOrRefuse(b);
        }),
        { numRuns: 2000 },
      );
    });
  });

  describe('readIndex (the walk’s view of a repository’s index)', () => {
    const repoOf = (dir = repo) => findRepo(dir, new ListingCache()) as NonNullable<ReturnType<typeof findRepo>>;

    it('no index yet is no problem: no paths and no warning', () => {
      assert.deepEqual(readIndex(repoOf(), new ListingCache()), { index: undefined, warning: undefined });
    });

    it('keeps the parsed index while the file is unchanged, and the same index when a rewrite keeps the paths', async () => {
      await sampleTree();
      const cache = new ListingCache({ racyMs: 0 });
      const first = readIndex(repoOf(), cache).index;
      assert.ok(first);
      assert.equal(readIndex(repoOf(), cache).index, first);
      run(['update-index', '--force-write-index', '--refresh']);
      assert.equal(readIndex(repoOf(), cache).index, first, 'same paths, same index (and id)');
      await writeTree(repo, { 'new.txt': '' });
      run(['add', 'new.txt']);
      const next = readIndex(repoOf(), cache).index;
      assert.notEqual(next, first);
      assert.ok(next?.has('new.txt'));
    });

    it('a linked worktree reads its own index, not the main one', async () => {
      await sampleTree();
      const linked = path.join(base, 'linked');
      run(['worktree', 'add', '-q', linked]);
      await writeTree(linked, { 'only-in-linked.txt': '' });
      run(['add', 'only-in-linked.txt'], linked);
      assert.ok(readIndex(repoOf(linked), new ListingCache()).index?.has('only-in-linked.txt'));
      assert.ok(!readIndex(repoOf(), new ListingCache()).index?.has('only-in-linked.txt'));
    });

    it('turns every refusal into one warning that names the file and what is lost', async () => {
      await sampleTree();
      run(['update-index', '--split-index']);
      const { index, warning } = readIndex(repoOf(), new ListingCache());
      assert.equal(index, undefined);
      assert.equal(warning, `git index ${path.join(repo, '.git', 'index')}: it is a split index (its entries live in a sharedindex file), which Magi does not read; \`git update-index --no-split-index\` turns it back into one file. The walk uses the ignore rules alone: tracked files that an ignore rule matches are not listed.`);
    });

    it('refuses an index over 64 MiB without reading it, an unreadable one, and an unknown object format', async () => {
      const file = path.join(repo, '.git', 'index');
      await fsp.writeFile(file, '');
      await fsp.truncate(file, MAX_INDEX_BYTES + 1); // sparse: nothing is written, and nothing should be read
      assert.match(readIndex(repoOf(), new ListingCache()).warning ?? '', /larger than 64 MiB/);
      await fsp.rm(file);
      await fsp.symlink('index', file); // a symlink loop: stat fails with ELOOP
      assert.match(readIndex(repoOf(), new ListingCache()).warning ?? '', /: it cannot be read \(ELOOP\)\. The walk uses the ignore rules alone/);
      await fsp.rm(file);
      await writeTree(repo, { 'a.txt': '' });
      run(['add', 'a.txt']);
      await fsp.appendFile(path.join(repo, '.git', 'config'), '[extensions]\n\tobjectFormat = md5\n');
      assert.match(readIndex(repoOf(), new ListingCache()).warning ?? '', /extensions\.objectFormat is neither sha1 nor sha256/);
    });
  });
});
