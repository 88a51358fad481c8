import { AgentSession } from '../core/agent/agentSession';
import { AgentConfigError } from '../core/agent/config';
import { ReminderConfigError } from '../core/agent/reminders';
import { SessionError } from '../core/agent/session';
import { createHttpProvider } from '../core/agent/providers';
import { PUBLIC_BASE_URLS } from '../core/agent/providers/publicApis';
import { ProviderError, type HttpProviderConfig } from '../core/agent/provider';
import { createDefaultRegistry } from '../core/tools';
import { UsageError, type CommonOptions } from './args';
import { environmentCredentials } from './credentials';
import { createTextPrinter } from '../core/activityText';
import { loadSettings } from './settingsFile';

const PROVIDERS = {
  openai: { baseUrl: PUBLIC_BASE_URLS.openai, keyVariable: 'OPENAI_API_KEY' },
  anthropic: { baseUrl: PUBLIC_BASE_URLS.anthropic, keyVariable: 'ANTHROPIC_API_KEY' },
} as const;

type ProviderKind = keyof typeof PROVIDERS;

/** Exit codes of `magi run`: 0 completed, 1 failed or stopped at the turn limit, 130 interrupted. */
const EXIT = { completed: 0, failed: 1, turn_limit: 1, cancelled: 130 } as const;

/** Provider, model, base URL and key from the flags and the environment; a gap is a usage error. */
export function providerConfig(options: CommonOptions, env: NodeJS.ProcessEnv): HttpProviderConfig {
  const kind = options.provider ?? env.MAGI_PROVIDER ?? 'openai';
  if (!(kind in PROVIDERS)) throw new UsageError(`--provider must be openai or anthropic, not ${kind}`);
  const known = PROVIDERS[kind as ProviderKind];
  const model = options.model ?? env.MAGI_MODEL;
  if (!model) throw new UsageError('run: no model; pass --model NAME or set MAGI_MODEL');
  const baseUrl = options.baseUrl ?? env.MAGI_BASE_URL ?? known.baseUrl;
  const apiKey = env.MAGI_API_KEY || env[known.keyVariable] || undefined;
  // Local OpenAI-compatible servers (Ollama, LM Studio, vLLM) need no key; the public APIs do.
  if (!apiKey && baseUrl === known.baseUrl) throw new UsageError(`run: no API key; set MAGI_API_KEY or ${known.keyVariable}`);
  return { kind: kind as ProviderKind, baseUrl, model, ...(apiKey ? { apiKey } : {}) };
}

/** `magi run "TASK"`: runs the agent to the end, never prompting; returns the exit code. */
export async function runTask(positionals: string[], options: CommonOptions, signal: AbortSignal): Promise<number> {
  const task = positionals.join(' ').trim();
  if (task === '') throw new UsageError('run: missing TASK; pass it in quotes: magi run "fix the failing test"');
  const settings = await loadSettings(options.settingsFile);
  let provider;
  try {
    provider = createHttpProvider(providerConfig(options, process.env));
  } catch (err) {
    if (err instanceof ProviderError) throw new UsageError(`run: ${err.message}`);
    throw err;
  }
  let session: AgentSession;
  try {
    session = await AgentSession.open({
      root: options.cwd,
      settings,
      provider,
      registry: createDefaultRegistry(),
      ...(options.session !== undefined ? { sessionFile: options.session } : {}),
      secretEnvNames: ['MAGI_API_KEY'],
      credentials: environmentCredentials(process.env),
    });
  } catch (err) {
    if (err instanceof AgentConfigError || err instanceof ReminderConfigError || err instanceof SessionError) throw new UsageError(`run: ${err.message}`);
    throw err;
  }
  const out = (text: string): void => void process.stdout.write(text);
  session.onActivity(options.json ? (event) => out(JSON.stringify(event) + '\n') : createTextPrinter(out));
  for (const problem of session.problems) process.stderr.write(`magi: ${problem}\n`);
  try {
    const result = await session.run(task, signal);
    if (!options.json && result.error !== undefined) process.stderr.write(`magi: ${result.outcome}: ${result.error}\n`);
    if (!options.json && session.sessionFile) process.stderr.write(`magi: session ${session.sessionFile}\n`);
    return EXIT[result.outcome];
  } catch (err) {
    // The session file could not be appended to (disk full, removed): the run stopped there.
    if (!(err instanceof SessionError)) throw err;
    process.stderr.write(`magi: stopped: ${err.message}\n`);
    return EXIT.failed;
  } finally {
    await session.close();
    await provider.close?.();
  }
}
