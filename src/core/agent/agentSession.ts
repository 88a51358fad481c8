import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { ActivityListener } from '../activity';
import type { FilePort } from '../fs/filePort';
import type { Settings } from '../settings';
import type { CommandApproval } from '../tools/approval';
import type { CredentialSource } from '../tools/credentials';
import type { LanguageServices } from '../tools/language/port';
import type { EditReview } from '../tools/review';
import type { ToolRegistry } from '../tools/registry';
import { ToolRuntime } from '../tools/runtime';
import type { WalkEnvironment } from '../workspace/types';
import { ActivityStream } from './activityStream';
import { agentLimits, type AgentLimits } from './config';
import { loadAgentsFiles, type AgentsFile } from './context/agentsFiles';
import { discoverIdentities, type AgentIdentity, type IdentityCatalog } from './context/identities';
import { buildSystemPrompt } from './context/prompt';
import { discoverSkills, type SkillCatalog } from './context/skills';
import { runAgent, type AgentRunResult } from './loop';
import type { ChatMessage } from './messages';
import type { ReminderPolicy } from './ports';
import type { ModelProvider } from './provider';
import { reminderPolicy } from './reminderPolicy';
import { SessionFile, defaultSessionPath, newSessionId, transcriptFromSession } from './session';
import { createSubagentRunner, type SubagentEnvironment } from './subagents';

export interface AgentSessionOptions {
  root: string;
  settings: Settings;
  provider: ModelProvider;
  registry: ToolRegistry;
  /**
   * The session file: resumed when it exists, created otherwise. Undefined means a new file under
   * `<root>/.magi/sessions/`; null keeps no file (the conversation lives only in memory).
   */
  sessionFile?: string | null;
  files?: FilePort;
  walkEnvironment?: WalkEnvironment;
  secretEnvNames?: readonly string[];
  /** The host's ports (VS Code): language services, edit review, command approval, Restricted Mode. */
  languages?: LanguageServices;
  review?: EditReview;
  approval?: CommandApproval;
  restricted?: string;
  /** API keys for tools that call a service (`view_image`'s vision model). */
  credentials?: CredentialSource;
  /** Clock for the prompt's date; tests fix it. */
  now?: () => Date;
}

/** Thrown when a run is started while another of the same session is still going. */
export class SessionBusyError extends Error {
  override readonly name = 'SessionBusyError';
}

/**
 * One conversation with the agent, as the CLI and the host hold it: its settings checked, its
 * skills and subagent identities found, its session file open (resumed or new), and a run per task.
 * Each run has its own ActivityStream; `onActivity` listeners see every run's events.
 */
export class AgentSession {
  private readonly listeners = new Set<ActivityListener>();
  private running = false;

  private constructor(
    private readonly options: AgentSessionOptions,
    private readonly limits: AgentLimits,
    private readonly reminders: ReminderPolicy | undefined,
    /** The runtime with the session's skills; each run's agents derive theirs from it. */
    private readonly runtime: ToolRuntime,
    private readonly skills: SkillCatalog,
    private readonly identities: IdentityCatalog,
    private readonly file: SessionFile | undefined,
    private history: ChatMessage[],
  ) {}

  /** Validates the settings (every agent limit and reminder rule) before anything is created. */
  static async open(options: AgentSessionOptions): Promise<AgentSession> {
    const limits = agentLimits(options.settings);
    const reminders = reminderPolicy(options.settings);
    const base = await ToolRuntime.create({
      root: options.root,
      settings: options.settings,
      ...(options.files ? { files: options.files } : {}),
      ...(options.walkEnvironment ? { walkEnvironment: options.walkEnvironment } : {}),
      ...(options.secretEnvNames ? { secretEnvNames: options.secretEnvNames } : {}),
      ...(options.languages ? { languages: options.languages } : {}),
      ...(options.review ? { review: options.review } : {}),
      ...(options.approval ? { approval: options.approval } : {}),
      ...(options.restricted !== undefined ? { restricted: options.restricted } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
    });
    const discover = { root: base.root, home: base.walkEnvironment.home };
    const [skills, identities] = await Promise.all([discoverSkills(discover), discoverIdentities({ ...discover, tools: options.registry })]);
    const { file, history } = await openSessionFile(options, base.root);
    return new AgentSession(options, limits, reminders, base.derive({ skills }), skills, identities, file, history);
  }

  /** Where the session is written, or null when it keeps none. */
  get sessionFile(): string | null {
    return this.file?.path ?? null;
  }

  /** Why skills or identities were skipped (bad frontmatter, duplicate names …), for the person. */
  get problems(): string[] {
    return [...this.skills.problems, ...this.identities.problems];
  }

  /** The conversation so far (what the next run sends before its task). */
  get messages(): readonly ChatMessage[] {
    return this.history;
  }

  onActivity(listener: ActivityListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Runs one task to its end; the outcome says how it ended (never throws for the model's or a tool's sake). */
  async run(task: string, signal: AbortSignal): Promise<AgentRunResult> {
    if (this.running) throw new SessionBusyError('a task is already running in this session; cancel it or wait for it to end');
    this.running = true;
    try {
      const stream = new ActivityStream();
      for (const listener of this.listeners) stream.subscribe(listener);
      // Read once per run: the run's subagents get the same project instructions.
      const agentsFiles = await loadAgentsFiles(this.runtime, signal);
      const env = this.subagentEnvironment(stream, agentsFiles);
      const runtime = this.runtime.derive({ subagents: createSubagentRunner(env, 'main', 0) });
      const tools = this.toolsAt(0, undefined);
      const result = await runAgent({
        provider: this.options.provider,
        registry: this.options.registry,
        runtime,
        system: this.systemPrompt(undefined, 0, tools, agentsFiles),
        task,
        history: this.history,
        maxTurns: this.limits.maxTurns,
        maxOutputTokens: this.limits.maxOutputTokens,
        tools,
        ...(this.file ? { session: this.file, sessionFile: this.file.path } : { sessionFile: null }),
        ...(this.reminders ? { reminders: this.reminders } : {}),
        emit: stream.forAgent('main'),
        signal,
      });
      this.history = result.messages;
      return result;
    } finally {
      this.running = false;
    }
  }

  /** Closes the session file and what the session's tools hold open (the browser). */
  async close(): Promise<void> {
    await this.file?.close();
    await this.runtime.dispose();
  }

  /**
   * The tools an agent at `depth` is offered: those available in this runtime (no language tools
   * without an editor, no mutating ones in Restricted Mode), narrowed to the identity's list, and
   * without `subagents` at the maximum depth.
   */
  private toolsAt(depth: number, identity: AgentIdentity | undefined): string[] {
    const all = this.options.registry.list().filter((t) => t.unavailable?.(this.runtime) === undefined).map((t) => t.name);
    const allowed = identity?.tools ? all.filter((n) => identity.tools?.includes(n)) : all;
    return depth < this.limits.subagents.maxDepth ? allowed : allowed.filter((n) => n !== 'subagents');
  }

  private systemPrompt(identity: AgentIdentity | undefined, depth: number, tools: readonly string[], agentsFiles: readonly AgentsFile[]): string {
    const offered = new Set(tools);
    return buildSystemPrompt({
      tools: this.options.registry.list().filter((t) => offered.has(t.name)),
      agentsFiles,
      skills: this.skills.skills,
      ...(identity ? { identity } : {}),
      cwd: this.runtime.root,
      platform: process.platform,
      date: (this.options.now ?? (() => new Date()))(),
      depth,
    });
  }

  private subagentEnvironment(stream: ActivityStream, agentsFiles: readonly AgentsFile[]): SubagentEnvironment {
    const childSessions = this.file ? `${this.file.path.replace(/\.jsonl$/, '')}.subagents` : undefined;
    return {
      provider: this.options.provider,
      runtime: this.runtime,
      registry: this.options.registry,
      limits: this.limits.subagents,
      maxOutputTokens: this.limits.maxOutputTokens,
      identities: this.identities.identities,
      toolsAt: (depth, identity) => this.toolsAt(depth, identity),
      systemPrompt: (identity, depth, tools) => this.systemPrompt(identity, depth, tools, agentsFiles),
      stream,
      ...(this.reminders ? { reminders: this.reminders } : {}),
      ...(childSessions
        ? {
            openSession: async (agent: string) => {
              const file = path.join(childSessions, `${stream.runId.slice(0, 8)}-${agent.replaceAll('/', '-')}.jsonl`);
              return SessionFile.create(file, { id: newSessionId(), cwd: this.runtime.root, provider: this.options.provider.kind, model: this.options.provider.model });
            },
          }
        : {}),
    };
  }
}

async function openSessionFile(options: AgentSessionOptions, root: string): Promise<{ file: SessionFile | undefined; history: ChatMessage[] }> {
  if (options.sessionFile === null) return { file: undefined, history: [] };
  const file = options.sessionFile ?? defaultSessionPath(root, newSessionId());
  const exists = await fsp.stat(file).then(() => true, (err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return false;
    throw err;
  });
  if (exists) {
    const { session, loaded } = await SessionFile.open(file);
    return { file: session, history: transcriptFromSession(loaded.events) };
  }
  const id = path.basename(file).match(/-([A-Za-z0-9_-]{16})\.jsonl$/)?.[1] ?? newSessionId();
  return { file: await SessionFile.create(file, { id, cwd: root, provider: options.provider.kind, model: options.provider.model }), history: [] };
}
