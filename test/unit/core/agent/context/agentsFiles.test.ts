import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { MAX_AGENTS_FILE_BYTES, loadAgentsFiles } from '../../../../../src/core/agent/context/agentsFiles';
import { Settings } from '../../../../../src/core/settings';
import { ToolRuntime } from '../../../../../src/core/tools/runtime';
import { isolatedEnvironment, tempDir, writeTree, type TreeNode } from '../../../helpers/tree';

describe('loadAgentsFiles', () => {
  let base: string;
  beforeEach(async () => {
    base = await tempDir('magi-agentsmd-');
  });
  afterEach(() => fsp.rm(base, { recursive: true, force: true }));

  async function load(tree: Record<string, TreeNode>) {
    const root = path.join(base, 'ws');
    await writeTree(root, tree);
    const runtime = await ToolRuntime.create({ root, settings: new Settings({}), walkEnvironment: isolatedEnvironment(path.join(base, 'home')) });
    return loadAgentsFiles(runtime);
  }

  it('returns root first, then deeper files, with root-relative paths; ignored folders are left out', async () => {
    const files = await load({
      'b/AGENTS.md': 'b rules\n',
      'a/deep/AGENTS.md': 'deep rules\n',
      'AGENTS.md': 'root rules\n',
      'a/AGENTS.md': 'a rules\n',
      '.gitignore': 'ignored/\n',
      'ignored/AGENTS.md': 'never\n',
    });
    assert.deepEqual(files, [
      { path: 'AGENTS.md', text: 'root rules\n', truncated: false },
      { path: 'a/AGENTS.md', text: 'a rules\n', truncated: false },
      { path: 'b/AGENTS.md', text: 'b rules\n', truncated: false },
      { path: 'a/deep/AGENTS.md', text: 'deep rules\n', truncated: false },
    ]);
  });

  it('cuts a file at 32 KiB on a character boundary, and all files at 64 KiB, with a visible marker', async () => {
    // 'é' is two bytes, so the 32 KiB cut would fall inside one: it must step back a byte.
    const big = 'a' + 'é'.repeat(20_000);
    const files = await load({ 'AGENTS.md': big, 'x/AGENTS.md': 'b'.repeat(40_000), 'y/AGENTS.md': 'c'.repeat(10), 'z/AGENTS.md': '' });
    const [root, x, y, z] = files;
    assert.equal(root?.truncated, true);
    assert.equal(root?.text, 'a' + 'é'.repeat((MAX_AGENTS_FILE_BYTES - 2) / 2) + `\n[… AGENTS.md truncated: it is ${Buffer.byteLength(big)} bytes and only its first 32 KiB are included]`);
    assert.equal(x?.truncated, true);
    assert.equal(x?.text, 'b'.repeat(32 * 1024) + '\n[… x/AGENTS.md truncated: it is 40000 bytes and only its first 32 KiB are included]');
    // 1 byte of the 64 KiB budget is left after a 32,767-byte and a 32,768-byte file.
    assert.equal(y?.text, 'c\n[… y/AGENTS.md truncated: it is 10 bytes and the 64 KiB budget for all AGENTS.md files ran out]');
    assert.deepEqual(z, { path: 'z/AGENTS.md', text: '', truncated: false });
  });

  it('keeps an unreadable file with its reason, and follows a symlink only inside the workspace', async () => {
    await writeTree(base, { 'outside.md': 'secret\n' });
    const files = await load({
      'AGENTS.md': Buffer.from([0x63, 0xe9, 0x0a]),
      'in/AGENTS.md': { symlink: '../CLAUDE.md' },
      'CLAUDE.md': 'claude rules\n',
      'out/AGENTS.md': { symlink: '../../outside.md' },
    });
    assert.deepEqual(files, [
      { path: 'AGENTS.md', text: '', truncated: false, error: 'AGENTS.md is not valid UTF-8; read only handles UTF-8 text (convert the file or inspect it with bash).' },
      { path: 'in/AGENTS.md', text: 'claude rules\n', truncated: false },
      { path: 'out/AGENTS.md', text: '', truncated: false, error: `is a symbolic link to ${path.join(base, 'outside.md')}, outside the workspace` },
    ]);
  });
});
