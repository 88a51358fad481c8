import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { discoverSkills } from '../../../../../src/core/agent/context/skills';
import { Settings } from '../../../../../src/core/settings';
import { createDefaultRegistry } from '../../../../../src/core/tools';
import { dispatchTool } from '../../../../../src/core/tools/dispatch';
import type { ToolResult } from '../../../../../src/core/tools/result';
import { ToolRuntime } from '../../../../../src/core/tools/runtime';
import { contentTag } from '../../../../../src/core/tools/textDoc';
import { tempDir, writeTree, type TreeNode } from '../../../helpers/tree';
import { numberedLines } from '../../../helpers/workspace';

const MiB = 1024 * 1024;
const SKILL_MD = '---\nname: pdf\ndescription: Work with PDF files.\n---\n# PDF\nSee references/forms.md.\n';

/** A workspace with the skill `pdf` in .magi/skills/pdf, plus `extra` files, and a runtime whose skills are discovered. */
async function setup(base: string, extra: Record<string, TreeNode> = {}): Promise<{ root: string; read: (...paths: string[]) => Promise<ToolResult>; runtime: ToolRuntime }> {
  const root = path.join(base, 'ws');
  await writeTree(root, { '.magi/skills/pdf/SKILL.md': SKILL_MD, '.magi/skills/pdf/references/forms.md': numberedLines(10), ...extra });
  const skills = await discoverSkills({ root, home: path.join(base, 'home') });
  const runtime = await ToolRuntime.create({ root, settings: new Settings({}), skills });
  const registry = createDefaultRegistry();
  return { root, runtime, read: async (...paths) => (await dispatchTool(registry, runtime, 'read', { paths })).result };
}

describe('read skill://', () => {
  let base: string;
  beforeEach(async () => {
    base = await tempDir('magi-skill-read-');
  });
  afterEach(() => fsp.rm(base, { recursive: true, force: true }));

  it('reads SKILL.md as a numbered section with a tag, and records no snapshot', async () => {
    const { read, runtime, root } = await setup(base);
    const result = await read('skill://pdf');
    assert.equal(result.status, 'success');
    assert.equal(result.content, `[skill://pdf#${contentTag(SKILL_MD)}]\n1:---\n2:name: pdf\n3:description: Work with PDF files.\n4:---\n5:# PDF\n6:See references/forms.md.`);
    assert.equal(runtime.snapshots.newest(path.join(root, '.magi/skills/pdf/SKILL.md')), undefined);
  });

  it('reads a nested reference with selectors, :raw included', async () => {
    const { read } = await setup(base);
    const ranged = await read('skill://pdf/references/forms.md:3-4');
    assert.equal(ranged.content, `[skill://pdf/references/forms.md#${contentTag(numberedLines(10))}]\n3:line 3\n4:line 4`);
    const raw = await read('skill://pdf/references/forms.md:raw:9+');
    assert.equal(raw.content, 'line 9\nline 10');
  });

  it('refuses an unknown name and lists the known ones', async () => {
    const { read } = await setup(base, { '.agents/skills/docx/SKILL.md': '---\nname: docx\ndescription: Word files.\n---\n' });
    const result = await read('skill://nope');
    assert.equal(result.status, 'error');
    assert.equal(result.content, 'read: unknown skill "nope"; known skills: docx, pdf.');
  });

  const refusals: [string, RegExp][] = [
    ['skill://pdf/../pdf/SKILL.md', /contains a \.\. segment/],
    ['skill://pdf//etc/passwd', /the reference is an absolute path/],
    ['skill://pdf/references//forms.md', /empty or "\." segment/],
    ['skill://pdf/', /empty or "\." segment/],
    ['skill://pdf/./SKILL.md', /empty or "\." segment/],
    ['skill://pdf/references\\forms.md', /backslash/],
    ['skill://pdf/C:/x.md', /absolute path/],
    ['skill://pdf/references', /is a directory; name a file inside it/],
    ['skill://pdf/missing.md', /does not exist; read skill:\/\/pdf to see which files/],
  ];
  for (const [target, why] of refusals) {
    it(`refuses ${target}`, async () => {
      const { read } = await setup(base);
      const result = await read(target);
      assert.equal(result.status, 'error');
      assert.match(result.content, why);
    });
  }

  it('refuses a symlinked file, even one pointing inside the skill', async () => {
    const { read } = await setup(base, { '.magi/skills/pdf/alias.md': { symlink: 'references/forms.md' } });
    const result = await read('skill://pdf/alias.md');
    assert.equal(result.status, 'error');
    assert.match(result.content, /alias\.md is a symbolic link/);
  });

  it('refuses a symlinked folder anywhere in the chain', async () => {
    const { read } = await setup(base, {
      'outside/secret.md': 'secret\n',
      '.magi/skills/pdf/linked': { symlink: '../../../outside' },
      '.magi/skills/pdf/inner': { symlink: 'references' },
    });
    for (const target of ['skill://pdf/linked/secret.md', 'skill://pdf/inner/forms.md']) {
      const result = await read(target);
      assert.equal(result.status, 'error', target);
      assert.match(result.content, /is a symbolic link; skill references are never read through symlinks/);
      assert.doesNotMatch(result.content, /secret\n/);
    }
  });

  it('refuses to read through a skill folder swapped for a symlink after discovery', async () => {
    const { read, root } = await setup(base, { 'outside/SKILL.md': 'not the skill\n' });
    const dir = path.join(root, '.magi/skills/pdf');
    await fsp.rm(dir, { recursive: true });
    await fsp.symlink(path.join(root, 'outside'), dir);
    const result = await read('skill://pdf');
    assert.equal(result.status, 'error');
    assert.match(result.content, /no longer a real folder/);
  });

  it('confines a symlinked skill folder to its canonical location', async () => {
    const { read } = await setup(base, {
      'shared/docx/SKILL.md': '---\nname: docx\ndescription: Word files.\n---\nbody\n',
      'shared/secret.md': 'secret\n',
      '.magi/skills/docx': { symlink: '../../shared/docx' },
    });
    assert.equal((await read('skill://docx:raw')).content, '---\nname: docx\ndescription: Word files.\n---\nbody');
    assert.match((await read('skill://docx/../secret.md')).content, /\.\. segment/);
  });

  it('refuses non-UTF-8 and binary references', async () => {
    const { read } = await setup(base, {
      '.magi/skills/pdf/latin1.md': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]),
      '.magi/skills/pdf/bin.dat': Buffer.from([1, 0, 2]),
    });
    assert.match((await read('skill://pdf/latin1.md')).content, /^skill:\/\/pdf\/latin1\.md is not valid UTF-8/);
    assert.match((await read('skill://pdf/bin.dat')).content, /looks like a binary file/);
  });

  it('reads a reference of exactly 1 MiB and refuses one byte more', async () => {
    const { read } = await setup(base, {
      '.magi/skills/pdf/max.md': 'a'.repeat(MiB),
      '.magi/skills/pdf/over.md': 'a'.repeat(MiB + 1),
    });
    assert.equal((await read('skill://pdf/max.md:raw')).status, 'success');
    const over = await read('skill://pdf/over.md');
    assert.equal(over.status, 'error');
    assert.match(over.content, /is 1048577 bytes, over the 1 MiB read cap/);
  });

  it('keeps other sections when a skill target fails', async () => {
    const { read } = await setup(base);
    const result = await read('skill://pdf:5-5', 'skill://nope');
    assert.equal(result.status, 'success');
    assert.match(result.content, /^--- FILE: skill:\/\/pdf:5-5 ---\n\[skill:\/\/pdf#[0-9A-F]{6}\]\n5:# PDF\n--- FILE: skill:\/\/nope ---\nERROR: read: unknown skill "nope"/);
  });

  it('says skills are unavailable when the runtime has none, and keeps the URL and scheme errors', async () => {
    const root = path.join(base, 'plain');
    await fsp.mkdir(root);
    const runtime = await ToolRuntime.create({ root });
    const registry = createDefaultRegistry();
    const read = async (p: string): Promise<string> => (await dispatchTool(registry, runtime, 'read', { paths: [p] })).result.content;
    assert.match(await read('skill://pdf'), /skills are not available in this session/);
    assert.match(await read('https://example.com/x'), /is a URL, not a file; use web with \{"operation": "open"/);
    assert.match(await read('session://abc'), /uses an unsupported scheme/);
  });
});
