import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { ListingCache } from '../../../../src/core/workspace/listingCache';
import { shallowListing } from '../../../../src/core/workspace/shallow';
import type { WalkEnvironment } from '../../../../src/core/workspace/types';
import { git, gitAvailable, isolatedEnvironment, tempDir, writeTree } from '../../helpers/tree';

describe('shallow listing (list_files)', () => {
  let base: string;
  let root: string;
  let environment: WalkEnvironment;

  before(function () {
    if (!gitAvailable()) this.skip();
  });
  beforeEach(async () => {
    base = await tempDir();
    root = path.join(base, 'ws');
    await fsp.mkdir(path.join(base, 'home'));
    environment = isolatedEnvironment(path.join(base, 'home'));
    await writeTree(root, { '.gitignore': '*.lock\nvendor/\n', 'yarn.lock': '', 'Cargo.lock': '', 'vendor/kept.js': '', 'src/a.ts': '' });
    git(root, ['init', '-q'], environment);
    git(root, ['add', '-f', 'yarn.lock', 'vendor/kept.js'], environment);
  });
  afterEach(() => fsp.rm(base, { recursive: true, force: true }));

  it('does not mark a tracked file ignored, as git does not; an ignored folder keeps its mark though it holds tracked files', () => {
    const ignored = shallowListing(root, root, new ListingCache(), environment).filter((e) => e.ignored).map((e) => e.name);
    assert.deepEqual(ignored, ['Cargo.lock', 'vendor']);
  });
});
