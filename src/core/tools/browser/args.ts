import { z } from 'zod';
import { ToolError } from '../errors';
import { GRAMMAR, parseCommand, type BrowserCommand } from './grammar';

export const MAX_COMMAND_CHARS = 16_384;
/** Where `connect` looks when no connectUrl is given: Chrome started with --remote-debugging-port=9222. */
export const DEFAULT_CONNECT_URL = 'http://127.0.0.1:9222';

const nullable = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

export const browserInput = z.strictObject({
  command: z.string().describe(`One command: ${GRAMMAR}`),
  mode: nullable(z.enum(['headless', 'headed', 'connect'])).describe('headless (default) or headed: a browser Magi starts; connect: an already running Chrome over CDP'),
  connectUrl: nullable(z.string()).describe(`connect mode only: the browser's DevTools endpoint (default ${DEFAULT_CONNECT_URL})`),
  ignoreHttpsErrors: nullable(z.boolean()).describe('headless/headed only: accept invalid certificates (local dev servers)'),
});
export type BrowserInput = z.output<typeof browserInput>;

/** Which browser a call wants; calls with a different one restart the session's browser. */
export type BrowserTarget =
  | { mode: 'headless' | 'headed'; ignoreHttpsErrors: boolean }
  | { mode: 'connect'; connectUrl: string };

export interface BrowserArgs {
  command: BrowserCommand;
  target: BrowserTarget;
}

function connectUrlOf(raw: string | null | undefined): string {
  const text = raw ?? DEFAULT_CONNECT_URL;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ToolError(`browser: connectUrl ${JSON.stringify(text)} is not a URL; give the DevTools endpoint, e.g. ${DEFAULT_CONNECT_URL} (Chrome started with --remote-debugging-port=9222).`);
  }
  if (!['http:', 'https:', 'ws:', 'wss:'].includes(url.protocol)) throw new ToolError(`browser: connectUrl must be http(s):// or ws(s)://, not ${url.protocol}`);
  if (url.username !== '' || url.password !== '') throw new ToolError('browser: connectUrl must not carry a user name or password.');
  return url.href;
}

/** Validates the fields together and parses the command; nothing starts before this passes. */
export function validateBrowserArgs(input: BrowserInput): BrowserArgs {
  if (input.command.length > MAX_COMMAND_CHARS) throw new ToolError(`browser: the command is longer than ${MAX_COMMAND_CHARS} characters.`);
  const mode = input.mode ?? 'headless';
  const given = (value: unknown): boolean => value !== undefined && value !== null;
  if (mode === 'connect' && given(input.ignoreHttpsErrors)) {
    throw new ToolError('browser: ignoreHttpsErrors applies only to the browsers Magi starts (mode headless or headed); in connect mode the running browser\'s own settings apply. Omit it or set it to null.');
  }
  if (mode !== 'connect' && given(input.connectUrl)) {
    throw new ToolError(`browser: connectUrl is only for mode "connect"; omit it or set it to null, or use {"mode": "connect", "connectUrl": ${JSON.stringify(input.connectUrl)}}.`);
  }
  const command = parseCommand(input.command);
  const target: BrowserTarget = mode === 'connect' ? { mode, connectUrl: connectUrlOf(input.connectUrl) } : { mode, ignoreHttpsErrors: input.ignoreHttpsErrors ?? false };
  return { command, target };
}

/** A short stable name for a target, to tell whether a call wants the running browser. */
export function targetKey(target: BrowserTarget): string {
  return target.mode === 'connect' ? `connect ${target.connectUrl}` : `${target.mode}${target.ignoreHttpsErrors ? ' (ignoring HTTPS errors)' : ''}`;
}
