import { defineTool, type ToolContext, type ToolDefinition } from '../definition';
import { OutputBudget } from '../read/budget';
import { success, type ToolResult } from '../result';
import { runAction } from './actions';
import { browserInput, validateBrowserArgs, type BrowserArgs } from './args';
import { defaultCandidates, EXECUTABLE_SETTING, findExecutable } from './executable';
import { GRAMMAR, MAX_WAIT_MS } from './grammar';
import type { BrowserSession } from './session';

/** Provider-visible output, UTF-8 bytes. */
export const BROWSER_OUTPUT_CAP = 64 * 1024;
/** Every call ends within this, page closed if it has to be. */
export const CALL_TIMEOUT_MS = 60_000;
/** Playwright's own bound on one action, inside the call's: its timeout is a clean error and the page stays. */
export const ACTION_TIMEOUT_MS = 55_000;

/** Knobs for tests only: shorter bounds and where to look for a browser. No setting reaches these. */
export interface BrowserToolOptions {
  callTimeoutMs?: number;
  actionTimeoutMs?: number;
  candidates?: readonly string[];
}

const DESCRIPTION = `Drive a real Chromium page ("main") for web apps and local dev servers: open a URL, read the page as an accessibility snapshot with refs, act on elements by ref, take screenshots.
Commands (one per call): ${GRAMMAR}.
Refs (@e12 or e12) come from snapshot output and stay valid for the same element until the page navigates; \`snapshot -i\` lists only controls. fill/type/select take the rest of the command as the text (or one JSON string for spaces at the ends or newlines). wait takes a ref (until visible) or milliseconds (at most ${MAX_WAIT_MS}).
mode: headless (default) or headed starts a local Chromium/Chrome; connect attaches over CDP to a browser already running (connectUrl, default http://127.0.0.1:9222). ignoreHttpsErrors only for headless/headed. Screenshots are saved to a temp file and the path returned. Each call ends within ${CALL_TIMEOUT_MS / 1000} s; output is capped at ${BROWSER_OUTPUT_CAP / 1024} KiB.`;

function budgeted(text: string): { text: string; truncated: boolean } {
  const budget = new OutputBudget(BROWSER_OUTPUT_CAP);
  for (const line of text.split('\n')) if (!budget.add(line)) break;
  if (budget.truncated) budget.note(`[truncated: output reached the ${BROWSER_OUTPUT_CAP / 1024} KiB cap; use snapshot -i or get text @ref for less]`);
  return { text: budget.text(), truncated: budget.truncated };
}

async function call(args: BrowserArgs, ctx: ToolContext, session: BrowserSession, signal: AbortSignal, options: BrowserToolOptions): Promise<ToolResult> {
  const { command, target } = args;
  const base = { command: command.verb, mode: target.mode };
  if (command.verb === 'close') {
    const closed = await session.closePage();
    return success(closed ? 'Closed page main.' : 'Page main was not open.', { ...base, closed, truncated: false });
  }
  const executable = (): string => findExecutable(ctx.runtime.settings.get(EXECUTABLE_SETTING), options.candidates ?? defaultCandidates());
  const lease = await session.page(target, command.verb === 'open', executable);
  const outcome = await runAction(lease.page, command, {
    signal,
    actionTimeoutMs: options.actionTimeoutMs ?? ACTION_TIMEOUT_MS,
    screenshotPath: () => session.screenshotPath(),
  });
  const replaced = lease.replaced === undefined ? '' : `(The ${lease.replaced} browser was closed to start this one.)\n`;
  // A `get` answers with the bare value; notices wait for the next other command.
  const notices = command.verb === 'get' ? [] : session.takeNotices();
  const { text, truncated } = budgeted(`${replaced}${notices.map((notice) => `${notice}\n`).join('')}${outcome.text}`);
  return success(text, { ...base, ...outcome.facts, truncated });
}

/** The `browser` tool; `options` exist for tests. */
export function createBrowserTool(options: BrowserToolOptions = {}): ToolDefinition<typeof browserInput> {
  return defineTool({
    name: 'browser',
    aliases: [],
    description: DESCRIPTION,
    // Calls act on one shared page, so a turn's calls must keep their order.
    mutates: true,
    input: browserInput,
    async execute(input, ctx) {
      const args = validateBrowserArgs(input);
      const session = ctx.runtime.browser;
      return session.run(ctx.signal, options.callTimeoutMs ?? CALL_TIMEOUT_MS, (signal) => call(args, ctx, session, signal, options));
    },
  });
}

export const browserTool = createBrowserTool();
