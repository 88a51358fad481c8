import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { MAX_SKILLS, discoverSkills } from '../../../../../src/core/agent/context/skills';
import { tempDir, writeTree } from '../../../helpers/tree';

const skill = (name: string, description = `Does ${name}.`): string => `---\nname: ${name}\ndescription: ${description}\n---\nBody of ${name}.\n`;

describe('discoverSkills', () => {
  let base: string;
  let root: string;
  let home: string;
  beforeEach(async () => {
    base = await tempDir('magi-skills-');
    root = path.join(base, 'ws');
    home = path.join(base, 'home');
    await fsp.mkdir(root);
  });
  afterEach(() => fsp.rm(base, { recursive: true, force: true }));

  it('finds skills in .magi/skills, .agents/skills and ~/.magi/skills, sorted by name, with canonical folders', async () => {
    await writeTree(root, { '.magi/skills/b/SKILL.md': skill('beta'), '.agents/skills/a/SKILL.md': skill('alpha') });
    await writeTree(home, { '.magi/skills/g/SKILL.md': skill('gamma'), '.magi/skills/notes/readme.md': 'not a skill' });
    const catalog = await discoverSkills({ root, home });
    assert.deepEqual(catalog.skills.map((s) => [s.name, s.description, s.source, s.dir]), [
      ['alpha', 'Does alpha.', 'workspace', path.join(root, '.agents/skills/a')],
      ['beta', 'Does beta.', 'workspace', path.join(root, '.magi/skills/b')],
      ['gamma', 'Does gamma.', 'user', path.join(home, '.magi/skills/g')],
    ]);
    assert.equal(catalog.get('gamma')?.file, path.join(home, '.magi/skills/g/SKILL.md'));
    assert.deepEqual(catalog.names(), ['alpha', 'beta', 'gamma']);
    assert.deepEqual(catalog.problems, []);
  });

  it('lets a workspace skill win over a user skill of the same name, and says so', async () => {
    await writeTree(root, { '.magi/skills/pdf/SKILL.md': skill('pdf', 'Workspace pdf.') });
    await writeTree(home, { '.magi/skills/pdf/SKILL.md': skill('pdf', 'User pdf.') });
    const catalog = await discoverSkills({ root, home });
    assert.equal(catalog.get('pdf')?.description, 'Workspace pdf.');
    assert.deepEqual(catalog.problems, [
      `${path.join(home, '.magi/skills/pdf/SKILL.md')}: skill "pdf" is already defined by ${path.join(root, '.magi/skills/pdf/SKILL.md')} (workspace), which wins. Skipped.`,
    ]);
  });

  it('skips invalid skills with a reason and never throws', async () => {
    await writeTree(root, {
      '.magi/skills/upper/SKILL.md': skill('Upper'),
      '.magi/skills/long/SKILL.md': skill('a'.repeat(65)),
      '.magi/skills/nodesc/SKILL.md': '---\nname: nodesc\n---\n',
      '.magi/skills/bigdesc/SKILL.md': skill('bigdesc', 'x'.repeat(1025)),
      '.magi/skills/nofront/SKILL.md': '# no frontmatter\n',
      '.magi/skills/latin1/SKILL.md': Buffer.from('---\nname: latin1\ndescription: caf\xe9\n---\n', 'latin1'),
      '.magi/skills/link/SKILL.md': { symlink: '../upper/SKILL.md' },
      '.magi/skills/ok/SKILL.md': skill('ok', 'x'.repeat(1024)),
    });
    const catalog = await discoverSkills({ root, home });
    assert.deepEqual(catalog.names(), ['ok']);
    const problems = catalog.problems.map((p) => p.replace(path.join(root, '.magi/skills') + '/', ''));
    assert.deepEqual(problems, [
      'bigdesc/SKILL.md: frontmatter field "description" is 1025 characters, over 1024. Skipped.',
      'latin1/SKILL.md is not valid UTF-8; read only handles UTF-8 text (convert the file or inspect it with bash). Skipped.',
      'link/SKILL.md: is a symbolic link; definitions are only read from regular files. Skipped.',
      `long/SKILL.md: frontmatter field "name": "${'a'.repeat(65)}" must be 1 to 64 lowercase letters, digits, '-' or '_'. Skipped.`,
      'nodesc/SKILL.md: frontmatter has no "description". Skipped.',
      'nofront/SKILL.md: frontmatter: the file must start with a `---` line opening the frontmatter block. Skipped.',
      `upper/SKILL.md: frontmatter field "name": "Upper" must be 1 to 64 lowercase letters, digits, '-' or '_'. Skipped.`,
    ]);
  });

  it('skips a SKILL.md over 1 MiB', async () => {
    await writeTree(root, { '.magi/skills/big/SKILL.md': skill('big') + 'x'.repeat(1024 * 1024) });
    const catalog = await discoverSkills({ root, home });
    assert.deepEqual(catalog.names(), []);
    assert.match(catalog.problems[0] ?? '', /big\/SKILL\.md: is \d+ bytes, over the 1048576-byte limit\. Skipped\.$/);
  });

  it(`keeps at most ${MAX_SKILLS} skills`, async () => {
    const tree: Record<string, string> = {};
    for (let i = 0; i < MAX_SKILLS + 2; i++) tree[`.magi/skills/s${String(i).padStart(3, '0')}/SKILL.md`] = skill(`s${String(i).padStart(3, '0')}`);
    await writeTree(root, tree);
    const catalog = await discoverSkills({ root, home });
    assert.equal(catalog.skills.length, MAX_SKILLS);
    assert.equal(catalog.names().at(-1), 's199');
    assert.deepEqual(catalog.problems, [`${path.join(root, '.magi/skills/s200/SKILL.md')}: more than ${MAX_SKILLS} skills were found; this one and any later ones are ignored.`]);
  });

  it('rejects when the signal aborts', async () => {
    await writeTree(root, { '.magi/skills/a/SKILL.md': skill('a') });
    await assert.rejects(discoverSkills({ root, home, signal: AbortSignal.abort() }), { name: 'AbortError' });
  });
});
