/**
 * The agent end to end: a temp workspace, the scripted provider on 127.0.0.1, a real HTTP
 * provider over undici, and an AgentSession with its session file, collecting every activity event.
 */
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ActivityEvent } from '../../../src/core/activity';
import { AgentSession } from '../../../src/core/agent/agentSession';
import type { ProviderTiming } from '../../../src/core/agent/provider';
import { createHttpProvider } from '../../../src/core/agent/providers';
import { loadSession, type SessionEvent } from '../../../src/core/agent/session';
import { Settings, type SettingsTree } from '../../../src/core/settings';
import { createDefaultRegistry } from '../../../src/core/tools';
import type { CommandApproval } from '../../../src/core/tools/approval';
import { startScriptedProvider, type ScriptStep, type ScriptedProvider } from './scriptedProvider';

export interface AgentHarness {
  root: string;
  home: string;
  server: ScriptedProvider;
  session: AgentSession;
  sessionFile: string;
  events: ActivityEvent[];
  files(tree: Record<string, string>): Promise<void>;
  text(rel: string): Promise<string>;
  sessionEvents(): Promise<SessionEvent[]>;
  /** Opens another AgentSession over the same workspace and session file (a resume). */
  reopen(): Promise<AgentSession>;
  cleanup(): Promise<void>;
}

export interface HarnessOptions {
  kind?: 'openai' | 'anthropic';
  settings?: SettingsTree;
  files?: Record<string, string>;
  timing?: Partial<ProviderTiming>;
  /** The host's command approval port (VS Code asks the person). */
  approval?: CommandApproval;
  /** Restricted Mode's reason, as the host passes it for an untrusted workspace. */
  restricted?: string;
}

const FAST: Partial<ProviderTiming> = { maxRetries: 2, baseRetryDelayMs: 10, maxRetryDelayMs: 200, idleMs: 2_000, connectMs: 2_000, headersMs: 5_000 };

export async function agentHarness(steps: ScriptStep[], options: HarnessOptions = {}): Promise<AgentHarness> {
  const base = await fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-agent-')));
  const root = path.join(base, 'ws');
  const home = path.join(base, 'home');
  await fsp.mkdir(root);
  await fsp.mkdir(home);
  const files = async (tree: Record<string, string>): Promise<void> => {
    for (const [rel, content] of Object.entries(tree)) {
      await fsp.mkdir(path.dirname(path.join(root, rel)), { recursive: true });
      await fsp.writeFile(path.join(root, rel), content);
    }
  };
  await files(options.files ?? {});
  const server = await startScriptedProvider(steps);
  const kind = options.kind ?? 'openai';
  const provider = createHttpProvider({ kind, baseUrl: server.baseUrl, model: 'scripted-model', apiKey: 'sk-test-harness-key', timing: { ...FAST, ...options.timing } });
  const sessionFile = path.join(base, 'session.jsonl');
  const open = (): Promise<AgentSession> =>
    AgentSession.open({
      root,
      settings: new Settings(options.settings ?? {}),
      provider,
      registry: createDefaultRegistry(),
      sessionFile,
      walkEnvironment: { home, env: {}, platform: process.platform },
      now: () => new Date('2026-11-30T12:00:00Z'),
      ...(options.approval ? { approval: options.approval } : {}),
      ...(options.restricted !== undefined ? { restricted: options.restricted } : {}),
    });
  const session = await open();
  const events: ActivityEvent[] = [];
  session.onActivity((e) => events.push(e));
  const opened = [session];
  return {
    root,
    home,
    server,
    session,
    sessionFile,
    events,
    files,
    text: (rel) => fsp.readFile(path.join(root, rel), 'utf8'),
    sessionEvents: async () => (await loadSession(sessionFile)).events,
    reopen: async () => {
      const again = await open();
      opened.push(again);
      return again;
    },
    async cleanup() {
      for (const s of opened) await s.close();
      await provider.close?.();
      await server.close();
      await fsp.rm(base, { recursive: true, force: true });
    },
  };
}

/** The tool messages of a recorded Chat Completions request body. */
export function openAiToolMessages(body: unknown): { tool_call_id: string; content: string }[] {
  const messages = (body as { messages: { role: string; tool_call_id?: string; content?: unknown }[] }).messages;
  return messages.filter((m) => m.role === 'tool').map((m) => ({ tool_call_id: m.tool_call_id ?? '', content: String(m.content) }));
}
