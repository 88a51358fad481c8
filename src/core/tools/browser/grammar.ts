import { ToolError } from '../errors';

/** The seed's command grammar, one command per call. */
export type BrowserCommand =
  | { verb: 'open'; url: string }
  | { verb: 'snapshot'; interactive: boolean }
  | { verb: 'click'; ref: string }
  | { verb: 'fill' | 'type'; ref: string; text: string }
  | { verb: 'select'; ref: string; value: string }
  | { verb: 'press'; key: string }
  | { verb: 'scroll'; direction: ScrollDirection; pixels: number }
  | { verb: 'get'; what: 'title' | 'url' }
  | { verb: 'get'; what: 'text'; ref?: string }
  | { verb: 'wait'; ref: string }
  | { verb: 'wait'; ms: number }
  | { verb: 'screenshot'; full: boolean }
  | { verb: 'close' };

export type ScrollDirection = 'up' | 'down' | 'left' | 'right';

export const GRAMMAR = 'open <url>, snapshot [-i], click <@ref>, fill <@ref> <text>, type <@ref> <text>, select <@ref> <value>, press <key>, scroll <up|down|left|right> [px], get title|url|text [@ref], wait <@ref|ms>, screenshot [--full], close';

export const DEFAULT_SCROLL_PIXELS = 500;
const MAX_SCROLL_PIXELS = 100_000;
/** Longest `wait <ms>`: it must end well inside the call's 60 s bound. */
export const MAX_WAIT_MS = 50_000;
export const MAX_URL_LENGTH = 8_192;

/** `@e12`, `e12`, and refs inside iframes (`f1e3`); returned without the `@`. */
const REF = /^@?((?:f\d+)?e\d+)$/;
/** Playwright key names and chords (`Enter`, `Control+A`, `Shift+ArrowDown`) or one character. */
const KEY = /^(?:[A-Za-z][A-Za-z0-9]*\+)*(?:[A-Za-z][A-Za-z0-9]*|[^\sA-Za-z])$/u;

function usage(problem: string): ToolError {
  return new ToolError(`browser: ${problem}. Commands: ${GRAMMAR}. Refs come from the latest snapshot (e.g. click @e12).`);
}

function ref(token: string | undefined, verb: string): string {
  const match = token === undefined ? null : REF.exec(token);
  if (!match?.[1]) throw usage(`${verb} needs a ref like @e12 from a snapshot${token === undefined ? '' : `, not ${JSON.stringify(token)}`}`);
  return match[1];
}

/**
 * A text argument: the rest of the command as written, or a JSON string literal when it starts
 * with a double quote (for leading/trailing spaces, newlines or an empty value).
 */
function textArgument(rest: string, verb: string): string {
  if (!rest.startsWith('"')) return rest;
  try {
    const value: unknown = JSON.parse(rest);
    if (typeof value === 'string') return value;
  } catch (err) {
    if (!(err instanceof SyntaxError)) throw err;
  }
  throw usage(`${verb}: a text starting with " must be one JSON string ("line one\\nline two"); write it without quotes for plain text`);
}

function integer(token: string, what: string, min: number, max: number): number {
  if (!/^\d+$/.test(token)) throw usage(`${what} must be a whole number, not ${JSON.stringify(token)}`);
  const value = Number(token);
  if (value < min || value > max) throw usage(`${what} must be from ${min} to ${max}, not ${value}`);
  return value;
}

function noMore(tokens: string[], verb: string): void {
  if (tokens.length > 0) throw usage(`${verb} takes nothing more here, got ${JSON.stringify(tokens.join(' '))}`);
}

/** Splits `verb arg rest…` keeping the rest verbatim (texts may hold any spacing). */
function head(command: string): { verb: string; tokens: string[]; restAfter(n: number): string } {
  const trimmed = command.trim();
  const tokens = trimmed.split(/\s+/).filter((t) => t !== '');
  return {
    verb: tokens[0] ?? '',
    tokens: tokens.slice(1),
    restAfter(n: number): string {
      let rest = trimmed;
      for (let i = 0; i <= n; i++) rest = rest.replace(/^\S+\s*/, '');
      return rest;
    },
  };
}

function openUrl(token: string | undefined): string {
  if (token === undefined) throw usage('open needs a URL (open https://example.com)');
  if (token.length > MAX_URL_LENGTH) throw usage(`the URL is longer than ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(token);
  } catch {
    throw usage(`open: ${JSON.stringify(token)} is not an absolute URL; write it with http:// or https://`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw usage(`open takes http:// or https:// URLs only, not ${url.protocol}`);
  return url.href;
}

/** Parses one command; every malformed command is a ToolError naming the grammar. */
export function parseCommand(command: string): BrowserCommand {
  const { verb, tokens, restAfter } = head(command);
  switch (verb) {
    case 'open':
      noMore(tokens.slice(1), 'open <url>');
      return { verb, url: openUrl(tokens[0]) };
    case 'snapshot':
      if (tokens.length === 1 && tokens[0] === '-i') return { verb, interactive: true };
      noMore(tokens, 'snapshot [-i]');
      return { verb, interactive: false };
    case 'click':
      noMore(tokens.slice(1), 'click <@ref>');
      return { verb, ref: ref(tokens[0], verb) };
    case 'fill':
    case 'type': {
      const target = ref(tokens[0], verb);
      if (tokens.length < 2) throw usage(`${verb} needs a text after the ref (${verb} @e5 hello)`);
      return { verb, ref: target, text: textArgument(restAfter(1), verb) };
    }
    case 'select': {
      const target = ref(tokens[0], verb);
      if (tokens.length < 2) throw usage('select needs an option value or label after the ref (select @e6 b)');
      return { verb, ref: target, value: textArgument(restAfter(1), verb) };
    }
    case 'press':
      if (tokens.length !== 1 || !KEY.test(tokens[0] ?? '')) throw usage('press takes one key name or chord (press Enter, press Control+A)');
      return { verb, key: tokens[0] as string };
    case 'scroll': {
      const direction = tokens[0];
      if (direction !== 'up' && direction !== 'down' && direction !== 'left' && direction !== 'right') throw usage('scroll needs a direction: up, down, left or right');
      noMore(tokens.slice(2), 'scroll <direction> [px]');
      return { verb, direction, pixels: tokens[1] === undefined ? DEFAULT_SCROLL_PIXELS : integer(tokens[1], 'scroll pixels', 1, MAX_SCROLL_PIXELS) };
    }
    case 'get': {
      const what = tokens[0];
      if (what === 'title' || what === 'url') {
        noMore(tokens.slice(1), `get ${what}`);
        return { verb, what };
      }
      if (what !== 'text') throw usage('get takes title, url or text [@ref]');
      noMore(tokens.slice(2), 'get text [@ref]');
      return tokens[1] === undefined ? { verb, what } : { verb, what, ref: ref(tokens[1], 'get text') };
    }
    case 'wait':
      noMore(tokens.slice(1), 'wait <@ref|ms>');
      if (tokens[0] !== undefined && /^\d+$/.test(tokens[0])) return { verb, ms: integer(tokens[0], 'wait milliseconds', 0, MAX_WAIT_MS) };
      return { verb, ref: ref(tokens[0], verb) };
    case 'screenshot':
      if (tokens.length === 1 && tokens[0] === '--full') return { verb, full: true };
      noMore(tokens, 'screenshot [--full]');
      return { verb, full: false };
    case 'close':
      noMore(tokens, 'close');
      return { verb };
    default:
      throw usage(verb === '' ? 'the command is empty' : `unknown command ${JSON.stringify(verb)}`);
  }
}
