import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { ListingCache } from '../../../../src/core/workspace/listingCache';
import { parseP4Settings, perforceRules } from '../../../../src/core/workspace/perforce';
import type { WalkEnvironment } from '../../../../src/core/workspace/types';
import { walkWorkspace } from '../../../../src/core/workspace/walker';
import { isolatedEnvironment, tempDir, writeTree } from '../../helpers/tree';

describe('Perforce rules', () => {
  let dir: string;
  let home: string;
  let root: string;
  beforeEach(async () => {
    dir = await tempDir('magi-p4-');
    home = path.join(dir, 'home');
    root = path.join(dir, 'ws');
    await fsp.mkdir(home);
    await fsp.mkdir(root);
  });
  afterEach(() => fsp.rm(dir, { recursive: true, force: true }));

  const rules = (env: Record<string, string> = {}, platform: NodeJS.Platform = 'linux') =>
    perforceRules({ ...isolatedEnvironment(home, env), platform }, root, new ListingCache({ racyMs: 0 }));
  const files = async (environment: WalkEnvironment = isolatedEnvironment(home)) =>
    (await walkWorkspace({ root, dir: root, environment }, new ListingCache())).files;

  it('parses NAME=value lines, skipping comments and blanks', () => {
    assert.deepEqual([...parseP4Settings('# c\nP4IGNORE = a;b \n\nP4CLIENT=ws\r\nbad line\n=x\n')], [['P4IGNORE', 'a;b'], ['P4CLIENT', 'ws']]);
  });

  it('defaults to .p4ignore then p4ignore.txt in every folder, and always leaves out .p4root', async () => {
    assert.deepEqual(await rules(), { names: ['.p4ignore', 'p4ignore.txt'], files: [], excluded: ['.p4root'] });
    await writeTree(root, {
      'p4ignore.txt': '*.obj\n!keep.obj\n', 'sub/.p4ignore': 'keep.obj\nlocal/\n', 'a.obj': '', 'keep.obj': '',
      'sub/keep.obj': '', 'sub/local/x': '', 'sub/b.txt': '', '.p4root': '',
    });
    assert.deepEqual(await files(), ['keep.obj', 'p4ignore.txt', 'sub/b.txt']);
  });

  it('takes P4IGNORE from the environment: relative names per folder, paths as whole-workspace files', async () => {
    await writeTree(dir, { 'rules/global.txt': 'generated/\n' });
    await writeTree(root, { '.myignore': '*.o\n', 'p4ignore.txt': '*.txt\n', 'a.o': '', 'b.txt': '', 'c.c': '', 'x/generated/y.c': '', 'x/z.c': '', 'rel/more.txt': 'c.c\n' });
    const env = { P4IGNORE: `.myignore; ${path.join(dir, 'rules', 'global.txt')};rel/more.txt` };
    assert.deepEqual(await rules(env), { names: ['.myignore'], files: [path.join(dir, 'rules', 'global.txt'), path.join(root, 'rel', 'more.txt')], excluded: ['.p4root'] });
    assert.deepEqual(await files(isolatedEnvironment(home, env)), ['b.txt', 'p4ignore.txt', 'rel/more.txt', 'x/z.c']);
  });

  it('prefers the P4CONFIG file, then P4ENVIRO (default ~/.p4enviro), then the environment', async () => {
    assert.deepEqual((await rules({ P4IGNORE: 'from-env' })).names, ['from-env']);
    await writeTree(home, { '.p4enviro': 'P4IGNORE=from-enviro\n' });
    assert.deepEqual((await rules({ P4IGNORE: 'from-env' })).names, ['from-enviro']);
    await writeTree(dir, { 'elsewhere.env': 'P4IGNORE=from-explicit-enviro\nP4CONFIG=p4config.txt\n' });
    const explicit = { P4IGNORE: 'from-env', P4ENVIRO: path.join(dir, 'elsewhere.env') };
    assert.deepEqual(await rules(explicit), { names: ['from-explicit-enviro'], files: [], excluded: ['.p4root', '.p4config', 'p4config.txt'] });
    await writeTree(dir, { 'p4config.txt': 'P4IGNORE=from-config\n' }); // found by searching upwards from the root
    assert.deepEqual((await rules(explicit)).names, ['from-config']);
  });

  it('reads no P4ENVIRO file on macOS or Windows unless P4ENVIRO names one', async () => {
    await writeTree(home, { '.p4enviro': 'P4IGNORE=from-enviro\n' });
    assert.deepEqual((await rules({}, 'darwin')).names, ['.p4ignore', 'p4ignore.txt']);
    assert.deepEqual((await rules({}, 'win32')).names, ['.p4ignore', 'p4ignore.txt']);
    assert.deepEqual((await rules({ P4ENVIRO: path.join(home, '.p4enviro') }, 'darwin')).names, ['from-enviro']);
  });

  it('leaves out the P4CONFIG file and .p4config when configuration discovery is active', async () => {
    await writeTree(root, { 'p4config.txt': 'P4CLIENT=ws\n', 'sub/p4config.txt': '', 'a.c': '' });
    assert.deepEqual(await files(isolatedEnvironment(home, { P4CONFIG: 'p4config.txt' })), ['a.c']);
    assert.deepEqual(await files(), ['a.c', 'p4config.txt', 'sub/p4config.txt']);
  });

  it('reads at most 64 KiB of a P4ENVIRO file', async () => {
    await writeTree(home, { '.p4enviro': '# pad\n'.repeat(64 * 1024 / 6 + 1) + 'P4IGNORE=too-late\n' });
    assert.deepEqual((await rules()).names, ['.p4ignore', 'p4ignore.txt']);
  });
});
