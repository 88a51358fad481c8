import assert from 'node:assert/strict';
import { buildSystemPrompt, type SystemPromptInput } from '../../../../../src/core/agent/context/prompt';
import { createDefaultRegistry } from '../../../../../src/core/tools';

const input: SystemPromptInput = {
  tools: [
    { name: 'read', description: 'Read files.' },
    { name: 'bash', description: 'Run a command.\n' },
  ],
  agentsFiles: [
    { path: 'AGENTS.md', text: 'Use pnpm.\n', truncated: false },
    { path: 'pkg/AGENTS.md', text: '', truncated: false, error: 'is not valid UTF-8' },
  ],
  skills: [{ name: 'pdf', description: 'Work with\n  PDF files.' }],
  cwd: '/ws',
  platform: 'linux',
  date: new Date('2026-11-30T23:59:00Z'),
  depth: 0,
};

describe('buildSystemPrompt', () => {
  it('puts the sections in order with exactly these contents', () => {
    const prompt = buildSystemPrompt(input);
    const headings = prompt.split('\n').filter((l) => l.startsWith('#'));
    assert.deepEqual(headings, ['# Tools', '## read', '## bash', '# Project instructions', '## AGENTS.md', '## pkg/AGENTS.md', '# Skills', '# Environment']);
    assert.ok(prompt.startsWith('You are Magi, a careful coding agent'));
    const tail = prompt.slice(prompt.indexOf('# Tools'));
    assert.equal(tail, [
      '# Tools\n\n## read\nRead files.\n\n## bash\nRun a command.',
      '# Project instructions\n\nThese AGENTS.md files come from the workspace. A file applies to its own folder and everything below it; where two disagree, the deeper one wins for its subtree.',
      '## AGENTS.md\n\nUse pnpm.',
      '## pkg/AGENTS.md\n\n(not loaded: is not valid UTF-8)',
      '# Skills\n\nSkills are instructions for particular tasks. When one fits the task, read it first with read {"paths": ["skill://<name>"]}; files it refers to are read as skill://<name>/<relative-path>.',
      '- pdf: Work with PDF files.',
      '# Environment\n\nWorking directory: /ws\nPlatform: linux\nDate: 2026-11-30\n',
    ].join('\n\n'));
  });

  it('states the base rules: read before hash_edit, latest anchors, tools over bash, concise, stop when done', () => {
    const prompt = buildSystemPrompt(input);
    for (const rule of [/call read on a file before hash_edit/, /tag and line numbers from the latest read/, /use bash for builds, tests and commands, not to read or edit files/, /Keep your output concise/, /Stop when the task is done/]) {
      assert.match(prompt, rule);
    }
  });

  it('is deterministic and leaves out empty sections', () => {
    const bare = { ...input, agentsFiles: [], skills: [] };
    assert.equal(buildSystemPrompt(bare), buildSystemPrompt(bare));
    assert.doesNotMatch(buildSystemPrompt(bare), /# Project instructions|# Skills|# Additional instructions|subagent/);
  });

  it('starts with an identity, says when it is a subagent, and ends with extra instructions before the environment', () => {
    const prompt = buildSystemPrompt({
      ...input,
      depth: 1,
      extra: 'Answer in French.',
      identity: { name: 'reviewer', description: 'Reviews.', systemPrompt: 'You review code.\n', tools: ['read'], file: '/h/reviewer.md', source: 'user' },
    });
    assert.ok(prompt.startsWith('You review code.\n\nYou are Magi, a careful coding agent'));
    assert.match(prompt, /\n\nYou are a subagent \(depth 1\) working on a task delegated to you/);
    assert.match(prompt, /- pdf: Work with PDF files\.\n\n# Additional instructions\n\nAnswer in French\.\n\n# Environment\n/);
  });

  it('lists the registry tools in registry order', () => {
    const registry = createDefaultRegistry();
    const prompt = buildSystemPrompt({ ...input, tools: registry.list() });
    const names = prompt.split('\n').filter((l) => l.startsWith('## ') && !l.includes('AGENTS')).map((l) => l.slice(3));
    assert.deepEqual(names, registry.names());
  });
});
