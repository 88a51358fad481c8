import * as readline from 'node:readline';
import { dispatchTool, type DispatchOutcome } from '../core/tools/dispatch';
import { createDefaultRegistry } from '../core/tools';
import { formatVisible } from '../core/tools/result';
import { ToolRuntime } from '../core/tools/runtime';
import { UsageError, type CommonOptions } from './args';
import { environmentCredentials } from './credentials';
import { loadSettings } from './settingsFile';

/** The one-line JSON shape of a result, shared by `tool --json` and `tools`. */
export function resultJson(outcome: DispatchOutcome): string {
  const { result } = outcome;
  return JSON.stringify({ tool: outcome.tool, status: result.status, content: result.content, ...(result.providerContent !== undefined ? { providerContent: result.providerContent } : {}), metadata: result.metadata, ...(result.display ? { display: result.display } : {}) });
}

async function createRuntime(options: CommonOptions, signal: AbortSignal): Promise<ToolRuntime> {
  const settings = await loadSettings(options.settingsFile);
  try {
    return await ToolRuntime.create({ root: options.cwd, settings, signal, credentials: environmentCredentials(process.env) });
  } catch (err) {
    throw new UsageError(`--cwd ${options.cwd} is not a usable directory: ${(err as Error).message}`);
  }
}

function writeLine(text: string): Promise<void> {
  return new Promise((resolve, reject) => process.stdout.write(text + '\n', (err) => (err ? reject(err) : resolve())));
}

/** `magi tool NAME 'JSON-ARGS'`. */
export async function runOneTool(positionals: string[], options: CommonOptions, signal: AbortSignal): Promise<void> {
  const [name, json, ...extra] = positionals;
  if (name === undefined) throw new UsageError('tool: missing tool name');
  if (extra.length) throw new UsageError(`tool: unexpected arguments: ${extra.join(' ')}`);
  let args: unknown = {};
  if (json !== undefined) {
    try {
      args = JSON.parse(json);
    } catch (err) {
      throw new UsageError(`tool: JSON-ARGS is not valid JSON: ${(err as Error).message}`);
    }
  }
  const runtime = await createRuntime(options, signal);
  try {
    const outcome = await dispatchTool(createDefaultRegistry(), runtime, name, args, { signal });
    await writeLine(options.json ? resultJson(outcome) : formatVisible(outcome.result));
  } finally {
    await runtime.dispose();
  }
}

/** Parses one JSONL request; a bad line becomes an error result, not a crash. */
function parseRequest(line: string, lineNumber: number): { tool: string; args: unknown } | string {
  let value: unknown;
  try {
    value = JSON.parse(line);
  } catch (err) {
    return `line ${lineNumber}: not valid JSON (${(err as Error).message}); send {"tool": NAME, "args": {...}}`;
  }
  if (typeof value !== 'object' || value === null || typeof (value as { tool?: unknown }).tool !== 'string') {
    return `line ${lineNumber}: expected {"tool": NAME, "args": {...}}`;
  }
  const unknownKeys = Object.keys(value).filter((k) => k !== 'tool' && k !== 'args');
  if (unknownKeys.length) return `line ${lineNumber}: unknown field ${unknownKeys.join(', ')}; send {"tool": NAME, "args": {...}}`;
  return { tool: (value as { tool: string }).tool, args: (value as { args?: unknown }).args ?? {} };
}

/** `magi tools`: one runtime and session for every line of stdin, each result flushed as it ends. */
export async function runToolStream(positionals: string[], options: CommonOptions, signal: AbortSignal): Promise<void> {
  if (positionals.length) throw new UsageError(`tools: unexpected arguments: ${positionals.join(' ')}`);
  const runtime = await createRuntime(options, signal);
  const registry = createDefaultRegistry();
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  // Ctrl-C or SIGTERM while waiting for the next line ends the stream, as it ends a running call.
  const stop = (): void => lines.close();
  signal.addEventListener('abort', stop, { once: true });
  let lineNumber = 0;
  try {
    for await (const line of lines) {
      lineNumber++;
      if (line.trim() === '') continue;
      const request = parseRequest(line, lineNumber);
      if (typeof request === 'string') {
        await writeLine(JSON.stringify({ tool: null, status: 'error', content: request, metadata: {} }));
        continue;
      }
      await writeLine(resultJson(await dispatchTool(registry, runtime, request.tool, request.args, { signal })));
      if (signal.aborted) break;
    }
  } finally {
    signal.removeEventListener('abort', stop);
    await runtime.dispose();
  }
}
