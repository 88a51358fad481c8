import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { MAX_SYSTEM_PROMPT_BYTES, discoverIdentities } from '../../../../../src/core/agent/context/identities';
import { tempDir, writeTree } from '../../../helpers/tree';

const agent = (name: string, extra = '', body = `You review ${name}.`): string => `---\nname: ${name}\ndescription: Reviews ${name}.\n${extra}---\n${body}\n`;

describe('discoverIdentities', () => {
  let base: string;
  let root: string;
  let home: string;
  beforeEach(async () => {
    base = await tempDir('magi-agents-');
    root = path.join(base, 'ws');
    home = path.join(base, 'home');
    await fsp.mkdir(root);
  });
  afterEach(() => fsp.rm(base, { recursive: true, force: true }));

  it('reads workspace and user agents: body as system prompt, tools as canonical names', async () => {
    await writeTree(root, {
      '.magi/agents/reviewer.md': agent('reviewer', 'tools: [read, ffgrep, grep, fffind]\n'),
      '.magi/agents/notes.txt': 'ignored',
    });
    await writeTree(home, { '.magi/agents/helper.md': agent('helper') });
    const catalog = await discoverIdentities({ root, home });
    assert.deepEqual(catalog.problems, []);
    assert.deepEqual(catalog.identities, [
      { name: 'helper', description: 'Reviews helper.', systemPrompt: 'You review helper.', tools: null, file: path.join(home, '.magi/agents/helper.md'), source: 'user' },
      { name: 'reviewer', description: 'Reviews reviewer.', systemPrompt: 'You review reviewer.', tools: ['read', 'grep', 'find'], file: path.join(root, '.magi/agents/reviewer.md'), source: 'workspace' },
    ]);
    assert.equal(catalog.get('reviewer')?.source, 'workspace');
  });

  it('lets the workspace win on a name clash', async () => {
    await writeTree(root, { '.magi/agents/a.md': agent('dup', '', 'Workspace.') });
    await writeTree(home, { '.magi/agents/b.md': agent('dup', '', 'User.') });
    const catalog = await discoverIdentities({ root, home });
    assert.equal(catalog.get('dup')?.systemPrompt, 'Workspace.');
    assert.match(catalog.problems[0] ?? '', /b\.md: agent "dup" is already defined by .*a\.md \(workspace\), which wins\. Skipped\.$/);
  });

  it('skips unknown tools, empty or oversized bodies and symlinks, with a reason', async () => {
    await writeTree(root, {
      '.magi/agents/a.md': agent('a', 'tools: read, teleport\n'),
      '.magi/agents/b.md': agent('b', '', '  \n'),
      '.magi/agents/c.md': agent('c', '', 'x'.repeat(MAX_SYSTEM_PROMPT_BYTES + 1)),
      '.magi/agents/d.md': { symlink: 'e.md' },
      '.magi/agents/e.md': agent('e', '', 'x'.repeat(MAX_SYSTEM_PROMPT_BYTES)),
    });
    const catalog = await discoverIdentities({ root, home });
    assert.deepEqual(catalog.identities.map((i) => i.name), ['e']);
    const dir = path.join(root, '.magi/agents') + '/';
    assert.deepEqual(catalog.problems.map((p) => p.replace(dir, '')), [
      'a.md: frontmatter field "tools": unknown tool "teleport". Skipped.',
      "b.md: the body after the frontmatter is empty; it is the agent's system prompt. Skipped.",
      `c.md: the system prompt is ${MAX_SYSTEM_PROMPT_BYTES + 1} bytes, over the ${MAX_SYSTEM_PROMPT_BYTES}-byte limit. Skipped.`,
      'd.md: is a symbolic link; definitions are only read from regular files. Skipped.',
    ]);
  });
});
