import type { Locator, Page } from 'playwright-core';
import { abortable, delay } from '../../waits';
import { ToolError } from '../errors';
import type { BrowserCommand, ScrollDirection } from './grammar';
import { firstLine } from './session';
import { formatSnapshot } from './snapshot';

/** What one command needs besides the page. */
export interface ActionContext {
  signal: AbortSignal;
  /** Playwright's own bound for an action (an element that never becomes clickable): a clean error, the page kept. */
  actionTimeoutMs: number;
  screenshotPath(): Promise<string>;
}

export interface ActionOutcome {
  text: string;
  facts?: Record<string, string | number | boolean>;
}

function notOnPage(ref: string): ToolError {
  return new ToolError(`browser: @${ref} is not on the page; refs come from the latest snapshot of this page and end when it navigates. Take a new snapshot (snapshot -i) and use its refs.`);
}

/**
 * Playwright's refusal of a ref from an earlier document: after a navigation the main frame's
 * refs take a new `f<n>` prefix, and one naming a frame that no longer exists is "Invalid frame".
 */
function isStaleFrameRef(err: unknown): boolean {
  return err instanceof Error && /Invalid frame in aria-ref selector/.test(err.message);
}

/** A locator for a snapshot ref, which must be on the page now. */
async function target(page: Page, ref: string, ctx: ActionContext): Promise<Locator> {
  const locator = page.locator(`aria-ref=${ref}`);
  if ((await abortable(locator.count(), ctx.signal)) === 0) throw notOnPage(ref);
  return locator;
}

async function where(page: Page, ctx: ActionContext): Promise<string> {
  const title = await abortable(page.title(), ctx.signal);
  return `Page: ${title === '' ? '(untitled)' : title} — ${page.url()}`;
}

/**
 * Refuses a value that is neither an option's value nor its label, naming the choices: Playwright
 * would wait for such an option until the action timeout.
 */
async function mustOffer(select: Locator, ref: string, value: string, ctx: ActionContext): Promise<void> {
  const choices = await abortable(select.evaluate((element) => {
    const list = (element as unknown as { options?: ArrayLike<{ value: string; label: string }> }).options;
    return list === undefined ? null : Array.from(list, (option) => ({ value: option.value, label: option.label }));
  }), ctx.signal);
  if (choices === null) throw new ToolError(`browser: @${ref} is not a <select>; select works on drop-down lists. Use click or fill for other controls.`);
  if (choices.some((choice) => choice.value === value || choice.label === value)) return;
  const shown = choices.slice(0, 20).map((choice) => (choice.label === choice.value ? JSON.stringify(choice.value) : `${JSON.stringify(choice.value)} (${choice.label})`));
  throw new ToolError(`browser: @${ref} has no option ${JSON.stringify(value)}; its options (value or label): ${shown.join(', ')}${choices.length > 20 ? `, … ${choices.length - 20} more` : ''}.`);
}

const SCROLL: Record<ScrollDirection, [number, number]> = { up: [0, -1], down: [0, 1], left: [-1, 0], right: [1, 0] };

/**
 * Runs one parsed command on page `main`. Values reach the page as Playwright arguments (locators,
 * fill values, key names), never as generated script text. Playwright failures that the model can
 * act on (an element that never became actionable, an unknown key, a failed navigation) become
 * ToolErrors; an abort rejects with the signal's reason.
 */
export async function runAction(page: Page, command: Exclude<BrowserCommand, { verb: 'close' }>, ctx: ActionContext): Promise<ActionOutcome> {
  const options = { timeout: ctx.actionTimeoutMs, signal: ctx.signal };
  try {
    switch (command.verb) {
      case 'open': {
        const response = await page.goto(command.url, { ...options, waitUntil: 'load' }).catch(async (err: unknown) => {
          // Chromium commits its error page just after a failed navigation; let it load, so that
          // it does not interrupt the next open.
          if (err instanceof Error && /net::ERR_/.test(err.message)) await abortable(page.waitForURL(/^chrome-error:/, { timeout: 2_000 }).catch(() => undefined), ctx.signal);
          throw err;
        });
        const status = response?.status();
        return { text: `${await where(page, ctx)}${status === undefined ? '' : `\nHTTP status: ${status}`}\nNext: snapshot -i for the refs of its controls.`, facts: status === undefined ? {} : { http_status: status } };
      }
      case 'snapshot': {
        const aria = await page.ariaSnapshot({ ...options, mode: 'ai' });
        const body = formatSnapshot(aria, command.interactive);
        return { text: `${await where(page, ctx)}\n${body === '' ? '(no interactive elements)' : body}` };
      }
      case 'click':
        await (await target(page, command.ref, ctx)).click(options);
        return { text: `Clicked @${command.ref}.\n${await where(page, ctx)}` };
      case 'fill':
        await (await target(page, command.ref, ctx)).fill(command.text, options);
        return { text: `Filled @${command.ref} with ${command.text.length} characters.` };
      case 'type':
        await (await target(page, command.ref, ctx)).pressSequentially(command.text, options);
        return { text: `Typed ${command.text.length} characters into @${command.ref}.` };
      case 'select': {
        const select = await target(page, command.ref, ctx);
        await mustOffer(select, command.ref, command.value, ctx);
        const chosen = await select.selectOption(command.value, options);
        return { text: `Selected ${chosen.map((value) => JSON.stringify(value)).join(', ')} in @${command.ref}.` };
      }
      case 'press': {
        // Through the focused element when there is one, so that a key that submits a form or
        // follows a link waits for that navigation to start, as click does; the keyboard otherwise.
        const focused = page.locator('*:focus');
        if ((await abortable(focused.count(), ctx.signal)) === 1) await focused.press(command.key, options);
        else await abortable(page.keyboard.press(command.key), ctx.signal);
        return { text: `Pressed ${command.key}.\n${await where(page, ctx)}` };
      }
      case 'scroll': {
        const [dx, dy] = SCROLL[command.direction];
        await abortable(page.mouse.wheel(dx * command.pixels, dy * command.pixels), ctx.signal);
        // The wheel returns before the page has scrolled: report the position once it has moved
        // and held for a few frames, or after about a second without movement (already at an edge).
        // (No named helpers inside: the function is sent as source text, without bundler helpers.)
        const [x, y] = await abortable(page.evaluate(async () => {
          const view = globalThis as unknown as { scrollX: number; scrollY: number; requestAnimationFrame(callback: () => void): number };
          const start = [view.scrollX, view.scrollY];
          let last = start;
          let still = 0;
          for (let frame = 0; frame < 60; frame++) {
            await new Promise<void>((resolve) => view.requestAnimationFrame(() => resolve()));
            const now = [view.scrollX, view.scrollY];
            still = now[0] === last[0] && now[1] === last[1] ? still + 1 : 0;
            last = now;
            if (still >= 3 && (now[0] !== start[0] || now[1] !== start[1])) break;
          }
          return last;
        }), ctx.signal);
        return { text: `Scrolled ${command.direction} ${command.pixels} px; the page is now at x=${Math.round(x ?? 0)}, y=${Math.round(y ?? 0)}.` };
      }
      case 'get':
        if (command.what === 'title') return { text: await abortable(page.title(), ctx.signal) };
        if (command.what === 'url') return { text: page.url() };
        return { text: await ('ref' in command && command.ref !== undefined ? await target(page, command.ref, ctx) : page.locator('body')).innerText(options) };
      case 'wait':
        if ('ms' in command) {
          await delay(command.ms, ctx.signal);
          return { text: `Waited ${command.ms} ms.` };
        }
        // A ref resolves only to an element of the latest snapshot that is still attached, so one
        // that is not there now never will be: say so instead of waiting out the timeout.
        await (await target(page, command.ref, ctx)).waitFor({ ...options, state: 'visible' });
        return { text: `@${command.ref} is visible.` };
      case 'screenshot': {
        const file = await ctx.screenshotPath();
        await page.screenshot({ ...options, path: file, fullPage: command.full });
        return { text: `Screenshot saved: ${file}`, facts: { screenshot: file } };
      }
    }
  } catch (err) {
    if (ctx.signal.aborted || err instanceof ToolError) throw err;
    if ('ref' in command && command.ref !== undefined && isStaleFrameRef(err)) throw notOnPage(command.ref);
    if (err instanceof Error && err.name === 'TimeoutError') {
      throw new ToolError(`browser: ${command.verb} timed out after ${ctx.actionTimeoutMs} ms (${firstLine(err)}); the element may be hidden, disabled or covered. Take a snapshot to see the page as it is now.`, 'timeout');
    }
    throw new ToolError(`browser: ${command.verb} failed: ${firstLine(err)}`);
  }
}
