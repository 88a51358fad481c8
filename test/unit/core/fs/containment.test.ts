import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { canonicalize, recheckBeforeWrite, resolveToolPath } from '../../../../src/core/fs/containment';
import { NodeFilePort, type WriteOptions } from '../../../../src/core/fs/filePort';
import { Settings } from '../../../../src/core/settings';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import { dispatchTool } from '../../../../src/core/tools/dispatch';
import { ToolRuntime } from '../../../../src/core/tools/runtime';
import { writeTool } from '../../../../src/core/tools/write';

describe('containment', () => {
  let base: string;
  let root: string;
  const scope = () => ({ root, settings: new Settings() });
  beforeEach(async () => {
    base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-contain-')));
    root = path.join(base, 'root');
    await fsp.mkdir(path.join(root, 'sub'), { recursive: true });
    await fsp.mkdir(path.join(base, 'outside'));
  });
  afterEach(() => fsp.rm(base, { recursive: true, force: true }));

  it('gives root-relative slash paths inside the root and absolute ones outside', async () => {
    const inside = await resolveToolPath(scope(), 'read', './sub/../sub/a.txt', 'read');
    assert.equal(inside.display, 'sub/a.txt');
    assert.equal(inside.insideRoot, true);
    const outside = await resolveToolPath(scope(), 'read', path.join(base, 'outside', 'b.txt'), 'read');
    assert.equal(outside.display, path.join(base, 'outside', 'b.txt'));
    assert.equal(outside.insideRoot, false);
  });

  it('resolves the root itself, as . or absolute, for reading a directory', async () => {
    for (const requested of ['.', './', root, 'sub/..']) {
      const resolved = await resolveToolPath(scope(), 'list_files', requested, 'directory');
      assert.deepEqual([resolved.display, resolved.canonical, resolved.insideRoot], ['.', root, true], requested);
    }
  });

  it('rejects blank paths and NUL bytes', async () => {
    await assert.rejects(resolveToolPath(scope(), 'read', '   ', 'read'), /must not be empty or blank/);
    await assert.rejects(resolveToolPath(scope(), 'read', 'a\0b', 'read'), /NUL/);
  });

  it('rejects relative escapes by .. even when the target exists', async () => {
    await assert.rejects(resolveToolPath(scope(), 'read', 'sub/../../outside', 'read'), /escapes the workspace root/);
  });

  it('rejects a relative path through a symlinked parent, for reads and writes', async () => {
    await fsp.symlink(path.join(base, 'outside'), path.join(root, 'esc'));
    await assert.rejects(resolveToolPath(scope(), 'read', 'esc/x', 'read'), /through a symlink/);
    await assert.rejects(resolveToolPath(scope(), 'write', 'esc/new/deeper.txt', 'write'), /through a symlink/);
  });

  it('rejects a relative final symlink that points outside the root for reads', async () => {
    await fsp.writeFile(path.join(base, 'outside', 's.txt'), 's');
    await fsp.symlink(path.join(base, 'outside', 's.txt'), path.join(root, 's.txt'));
    await assert.rejects(resolveToolPath(scope(), 'read', 's.txt', 'read'), /through a symlink/);
  });

  it('treats an absolute path through a symlink into the root as inside, keyed by its canonical path', async () => {
    await fsp.symlink(root, path.join(base, 'alias'));
    const resolved = await resolveToolPath({ root, settings: new Settings({ capabilities: { tools: { read: { absolute_paths: false } } } }) }, 'read', path.join(base, 'alias', 'sub', 'f'), 'read');
    assert.equal(resolved.insideRoot, true);
    assert.equal(resolved.display, 'sub/f');
    assert.equal(resolved.canonical, path.join(root, 'sub', 'f'));
  });

  it('names the per-tool setting, accepting the older key as an alias', async () => {
    const settings = new Settings({ 'tools.fffind.absolute_paths': false, tools: { read: { absolute_paths: false } } });
    await assert.rejects(resolveToolPath({ root, settings }, 'read', path.join(base, 'outside'), 'read'), /capabilities\.tools\.read\.absolute_paths is false/);
    await assert.rejects(resolveToolPath({ root, settings }, 'find', path.join(base, 'outside'), 'directory'), /capabilities\.tools\.find\.absolute_paths is false/);
    assert.equal((await resolveToolPath({ root, settings }, 'write', path.join(base, 'outside', 'x'), 'write')).insideRoot, false);
  });

  it('canonicalizes missing tails onto the real deepest ancestor', async () => {
    await fsp.symlink(path.join(root, 'sub'), path.join(root, 'alias'));
    assert.equal(await canonicalize(path.join(root, 'alias', 'x', 'y')), path.join(root, 'sub', 'x', 'y'));
  });

  it('recheckBeforeWrite notices a parent swapped for a symlink after validation', async () => {
    const resolved = await resolveToolPath(scope(), 'write', 'sub/f.txt', 'write');
    await recheckBeforeWrite('write', resolved);
    await fsp.rm(path.join(root, 'sub'), { recursive: true });
    await fsp.symlink(path.join(base, 'outside'), path.join(root, 'sub'));
    await assert.rejects(recheckBeforeWrite('write', resolved), /changed \(a symlink was swapped in\)/);
  });

  it('a write whose parent is swapped between validation and commit writes nothing', async () => {
    /** A real Node port, racing a swap of the parent folder in just before the write starts. */
    class RacingPort extends NodeFilePort {
      override async writeFile(abs: string, data: Uint8Array, options: WriteOptions): Promise<void> {
        await fsp.rename(path.join(root, 'sub'), path.join(root, 'sub-old'));
        await fsp.symlink(path.join(base, 'outside'), path.join(root, 'sub'));
        return super.writeFile(abs, data, options);
      }
    }
    const runtime = await ToolRuntime.create({ root, files: new RacingPort() });
    const { result } = await dispatchTool(new ToolRegistry([writeTool]), runtime, 'write', { path: 'sub/f.txt', content: 'x' });
    assert.equal(result.status, 'error');
    assert.match(result.content, /changed \(a symlink was swapped in\)/);
    assert.deepEqual(await fsp.readdir(path.join(base, 'outside')), []);
  });
});
