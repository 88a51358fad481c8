import type { AgentsFile } from './agentsFiles';
import type { AgentIdentity } from './identities';

/** Everything the system prompt is made of; the same inputs always give the same text. */
export interface SystemPromptInput {
  /** Name and description of each tool the agent may call, in registry order (ToolRegistry.list()), already narrowed to an identity's `tools` by the caller. */
  tools: readonly { name: string; description: string }[];
  /** From loadAgentsFiles: root first, then deeper. */
  agentsFiles: readonly AgentsFile[];
  skills: readonly { name: string; description: string }[];
  /** A subagent's identity; its system prompt comes first. */
  identity?: AgentIdentity;
  cwd: string;
  platform: string;
  /** Only its UTC day is shown, so the prompt stays the same all day (and cacheable). */
  date: Date;
  /** 0 for the session's own agent, 1 for a subagent it started, and so on. */
  depth: number;
  /** Further instructions from the host or the user's settings, shown after the rest. */
  extra?: string;
}

const BASE = `You are Magi, a careful coding agent working in the user's workspace. You act through the tools below; do what was asked, no more.

- Read before you edit: call read on a file before hash_edit, and anchor every edit with the tag and line numbers from the latest read (or hash_edit result) of that file. If an edit fails because the file changed, read it again and retry with the new anchors.
- Use the file tools (read, find, grep, list_files, hash_edit, write) for files; use bash for builds, tests and commands, not to read or edit files.
- Keep your output concise: say what you did and what you found, not how the tools work.
- Stop when the task is done, and say so. If you cannot finish, say what is left and why.`;

/** The system prompt: identity, base instructions, tools, project instructions, skills, extra, environment. */
export function buildSystemPrompt(input: SystemPromptInput): string {
  const sections: string[] = [];
  if (input.identity !== undefined) sections.push(input.identity.systemPrompt.trim());
  sections.push(BASE);
  if (input.depth > 0) {
    sections.push(`You are a subagent (depth ${input.depth}) working on a task delegated to you: finish it and report the result in your final message, which is all the delegating agent sees.`);
  }
  sections.push(['# Tools', ...input.tools.map((t) => `## ${t.name}\n${t.description.trim()}`)].join('\n\n'));
  if (input.agentsFiles.length > 0) sections.push(projectInstructions(input.agentsFiles));
  if (input.skills.length > 0) sections.push(skillsSection(input.skills));
  if (input.extra !== undefined && input.extra.trim() !== '') sections.push(`# Additional instructions\n\n${input.extra.trim()}`);
  sections.push(`# Environment\n\nWorking directory: ${input.cwd}\nPlatform: ${input.platform}\nDate: ${input.date.toISOString().slice(0, 10)}`);
  return sections.join('\n\n') + '\n';
}

function projectInstructions(files: readonly AgentsFile[]): string {
  const parts = [
    '# Project instructions',
    "These AGENTS.md files come from the workspace. A file applies to its own folder and everything below it; where two disagree, the deeper one wins for its subtree.",
  ];
  for (const file of files) {
    const body = file.error !== undefined ? `(not loaded: ${file.error})` : file.text.trim();
    parts.push(`## ${file.path}\n\n${body}`);
  }
  return parts.join('\n\n');
}

function skillsSection(skills: readonly { name: string; description: string }[]): string {
  const lines = skills.map((s) => `- ${s.name}: ${s.description.replace(/\s+/g, ' ').trim()}`);
  return [
    '# Skills',
    'Skills are instructions for particular tasks. When one fits the task, read it first with read {"paths": ["skill://<name>"]}; files it refers to are read as skill://<name>/<relative-path>.',
    lines.join('\n'),
  ].join('\n\n');
}
