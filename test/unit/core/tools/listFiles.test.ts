import assert from 'node:assert/strict';
import fs, { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { Settings, type SettingsTree } from '../../../../src/core/settings';
import { dispatchTool } from '../../../../src/core/tools/dispatch';
import { LIST_FILES_MAX_ENTRIES, listFilesTool } from '../../../../src/core/tools/listFiles';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import type { ToolResult } from '../../../../src/core/tools/result';
import { ToolRuntime } from '../../../../src/core/tools/runtime';
import { isolatedEnvironment, tempDir, writeTree } from '../../helpers/tree';

describe('list_files', () => {
  let base: string;
  let root: string;
  let runtime: ToolRuntime;
  const registry = new ToolRegistry([listFilesTool]);
  const run = async (args: unknown): Promise<ToolResult> => (await dispatchTool(registry, runtime, 'list_files', args)).result;
  const start = async (settings: SettingsTree = {}, env: Record<string, string> = {}) => {
    runtime = await ToolRuntime.create({ root, settings: new Settings(settings), walkEnvironment: isolatedEnvironment(path.join(base, 'home'), env) });
  };

  beforeEach(async () => {
    base = await tempDir('magi-ls-');
    root = path.join(base, 'ws');
    await fsp.mkdir(path.join(base, 'home'));
    await fsp.mkdir(root);
    await start();
  });
  afterEach(() => fsp.rm(base, { recursive: true, force: true }));

  it('lists the root’s direct children in byte order, marking hidden, ignored, symlinked and special entries', async () => {
    await writeTree(root, {
      '.git/HEAD': '', '.gitignore': 'dist/\n*.log\n.env\n', '.env': '', '.github/x.yml': '', 'dist/a.js': '', 'src/a.ts': '',
      'src/deep/b.ts': '', 'a.log': '', 'README.md': '', 'link': { symlink: 'src' }, 'pipe': { fifo: true }, 'src-x': '',
    });
    const result = await run({});
    assert.equal(result.status, 'success');
    assert.equal(result.content, [
      '.env  [hidden, ignored]', '.github/  [hidden]', '.gitignore  [hidden]', 'README.md', 'a.log  [ignored]',
      'dist/  [ignored]', 'link  [symlink]', 'pipe  [special]', 'src-x', 'src/',
    ].join('\n'));
    assert.deepEqual(result.metadata, { path: '.', entries: 10, truncated: false });
  });

  it('lists a subfolder by relative or absolute path, with the ancestors’ rules, and an empty one', async () => {
    await writeTree(root, { '.gitignore': '*.gen\n', 'src/.gitignore': 'tmp/\n', 'src/a.ts': '', 'src/b.gen': '', 'src/tmp/x': '', 'empty/': null });
    for (const p of ['src', './src/', path.join(root, 'src')]) {
      const result = await run({ path: p });
      assert.equal(result.content, '.gitignore  [hidden]\na.ts\nb.gen  [ignored]\ntmp/  [ignored]', p);
      assert.equal(result.metadata.path, 'src');
    }
    const empty = await run({ path: 'empty' });
    assert.equal(empty.content, '[empty directory]');
    assert.equal(empty.metadata.entries, 0);
  });

  it('marks Perforce’s exclusions as ignored', async () => {
    await start({}, { P4CONFIG: 'p4config.txt' });
    await writeTree(root, { '.p4root': '', 'p4config.txt': '', '.p4ignore': 'obj/\n', 'obj/': null, 'ok.c': '' });
    assert.equal((await run({})).content, '.p4ignore  [hidden]\n.p4root  [hidden, ignored]\nobj/  [ignored]\nok.c\np4config.txt  [ignored]');
  });

  it('caps the listing at 1,000 entries and says how many there are', async () => {
    await Promise.all(Array.from({ length: LIST_FILES_MAX_ENTRIES + 5 }, (_, i) => fsp.writeFile(path.join(root, `f${String(i).padStart(4, '0')}.txt`), '')));
    const result = await run({ path: '.' });
    const lines = result.content.split('\n');
    assert.equal(lines.length, LIST_FILES_MAX_ENTRIES + 1);
    assert.equal(lines[LIST_FILES_MAX_ENTRIES - 1], 'f0999.txt');
    assert.equal(lines[LIST_FILES_MAX_ENTRIES], '[showing the first 1000 of 1005 entries; list a subdirectory, or use find to look for a name]');
    assert.deepEqual(result.metadata, { path: '.', entries: 1005, truncated: true });
  });

  it('never opens a file it lists', async () => {
    await writeTree(root, { 'secret.txt': 'do not read', 'a.txt': '' });
    // The core imports these modules through shared module objects, so wrapping them here is seen there.
    const opened: string[] = [];
    const targets = [[fs, 'openSync'], [fs, 'readFileSync'], [fs, 'createReadStream'], [fsp, 'open'], [fsp, 'readFile']] as const;
    const originals = targets.map(([mod, key]) => (mod as unknown as Record<string, (...args: unknown[]) => unknown>)[key]);
    targets.forEach(([mod, key], i) => {
      (mod as unknown as Record<string, unknown>)[key] = (...args: unknown[]) => (opened.push(String(args[0])), (originals[i] as (...a: unknown[]) => unknown)(...args));
    });
    try {
      assert.equal((await run({})).content, 'a.txt\nsecret.txt');
    } finally {
      targets.forEach(([mod, key], i) => ((mod as unknown as Record<string, unknown>)[key] = originals[i]));
    }
    assert.deepEqual(opened.filter((p) => p.startsWith(root)), []);
  });

  it('refuses what is not an existing directory inside the rules', async () => {
    await writeTree(root, { 'file.txt': '' });
    await writeTree(base, { 'outside/x': '' });
    const cases: [unknown, RegExp][] = [
      [{ path: 'missing' }, /missing does not exist/],
      [{ path: 'file.txt' }, /file\.txt is a file, not a directory; use read/],
      [{ path: '../outside' }, /escapes the workspace root/],
      [{ path: '' }, /must not be empty/],
      [{ path: 'a', extra: 1 }, /unknown field `extra`/],
    ];
    for (const [args, message] of cases) {
      const result = await run(args);
      assert.equal(result.status, 'error', JSON.stringify(args));
      assert.match(result.content, message);
    }
    assert.equal((await run({ path: path.join(base, 'outside') })).content, 'x');
    await start({ capabilities: { tools: { list_files: { absolute_paths: false } } } });
    assert.match((await run({ path: path.join(base, 'outside') })).content, /capabilities\.tools\.list_files\.absolute_paths is false/);
  });

  it('is registered with a strict schema, no aliases, and does not mutate', () => {
    assert.equal(listFilesTool.mutates, false);
    assert.deepEqual(listFilesTool.aliases, []);
    const [spec] = registry.providerSpecs();
    assert.deepEqual(spec?.parameters.required, undefined);
    assert.equal((spec?.parameters as { additionalProperties?: boolean }).additionalProperties, false);
  });
});
