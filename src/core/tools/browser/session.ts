import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { abortable, within } from '../../waits';
import { ToolError } from '../errors';
import { targetKey, type BrowserTarget } from './args';

/** A browser left unused this long is closed (the next call starts a fresh one). */
export const IDLE_CLOSE_MS = 15 * 60_000;
/** Launching or connecting may take this long before the call fails. */
const START_TIMEOUT_MS = 30_000;
/** How long closing the page may take before the whole browser is dropped instead. */
const CLOSE_TIMEOUT_MS = 5_000;
const VIEWPORT = { width: 1280, height: 800 };
/** Notices (dialogs, new tabs, page and console errors) kept between two calls; a noisy page cannot flood the output. */
const MAX_NOTICES = 10;

interface Running {
  key: string;
  browser: Browser;
  context: BrowserContext;
  /** Whether Magi started this browser (and so closes it) or connected to someone's. */
  owned: boolean;
  page: Page | undefined;
}

/** What `page()` found or made. */
export interface PageLease {
  page: Page;
  /** Set when an earlier browser of another mode was closed to start this one. */
  replaced?: string;
  /** Whether `open` created the page in this call. */
  created: boolean;
}

/** Whether a close ended in time; one that fails finds its page or browser already gone, which is what closing wanted. */
function closedInTime(closing: Promise<void>): Promise<boolean> {
  return within(closing.then(() => true, () => true), CLOSE_TIMEOUT_MS, false);
}

function headedNeedsDisplay(env: NodeJS.ProcessEnv): void {
  if (process.platform !== 'linux' || env.DISPLAY || env.WAYLAND_DISPLAY) return;
  throw new ToolError('browser: mode "headed" needs a display, and neither DISPLAY nor WAYLAND_DISPLAY is set here (a remote or headless machine). Use mode "headless", or "connect" to a browser you started yourself.');
}

/**
 * The browser of one runtime and the runtimes derived from it: at most one browser (started by
 * Magi in headless/headed mode, or connected over CDP) with one page, `main`. Calls run one at a
 * time in arrival order. Closing `main` never closes a browser Magi connected to.
 */
export class BrowserSession {
  private queue: Promise<void> = Promise.resolve();
  private running: Running | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  private screenshotDir: string | undefined;
  private screenshotCount = 0;
  private readonly notices: string[] = [];
  private droppedNotices = 0;
  private detach: () => void = () => undefined;
  /** Disposed, or the signal given to closeOnAbort aborted: no browser may run any more. */
  private ended = false;

  constructor(private readonly idleCloseMs = IDLE_CLOSE_MS) {}

  /**
   * Runs `work` after every earlier call of the session, whether they succeeded or not, with a
   * signal that aborts on `signal` or after `timeoutMs`. On abort page `main` is closed at once
   * (which ends whatever Playwright was waiting for) and the caller's promise rejects with the
   * abort reason; the next call still waits until `work` has let go of the page.
   */
  run<T>(signal: AbortSignal, timeoutMs: number, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
    const settled = this.queue.then(async () => {
      const deadline = AbortSignal.timeout(timeoutMs);
      const callSignal = AbortSignal.any([signal, deadline]);
      if (callSignal.aborted) throw callSignal.reason;
      const onAbort = (): void => void this.closePage();
      callSignal.addEventListener('abort', onAbort, { once: true });
      try {
        return await work(callSignal);
      } catch (err) {
        if (deadline.aborted && !signal.aborted) throw new ToolError(`browser: the call did not finish within ${timeoutMs / 1000} s, so page main was closed; open the page again (open <url>).`, 'timeout');
        throw err;
      } finally {
        callSignal.removeEventListener('abort', onAbort);
        if (callSignal.aborted) await this.closePage();
        this.restartIdleTimer();
      }
    });
    this.queue = settled.then(
      () => undefined,
      () => undefined,
    );
    return abortable(settled, signal);
  }

  /** Whether page `main` is open now. */
  get pageOpen(): boolean {
    return this.running?.page !== undefined && !this.running.page.isClosed() && this.running.browser.isConnected();
  }

  /**
   * Page `main` of a browser matching `target`. With `create`, starts the browser (resolving the
   * executable only then) and opens the page as needed; without it a missing page is a ToolError.
   */
  async page(target: BrowserTarget, create: boolean, executable: () => string): Promise<PageLease> {
    const key = targetKey(target);
    let replaced: string | undefined;
    if (this.running && (this.running.key !== key || !this.running.browser.isConnected())) {
      if (this.running.browser.isConnected()) replaced = this.running.key;
      await this.close();
    }
    const current = this.running?.page;
    if (current && !current.isClosed()) return { page: current, replaced, created: false };
    if (!create) throw new ToolError(`browser: page main is not open${replaced ? ` (the ${replaced} browser was closed to switch to ${key})` : ''}; start with open <url>.`);
    if (this.ended) throw new ToolError('browser: this session has ended (its owner stopped or was interrupted); nothing is started any more.', 'cancelled');
    let running = this.running;
    if (running === undefined) {
      running = await this.start(target, key, executable);
      // A launch cannot be cancelled: when the session ended meanwhile (the CLI's SIGTERM, the
      // runtime disposed), its close() found nothing to close, so this browser is closed here, or
      // it would run on and keep the process alive.
      if (this.ended) {
        await this.release(running);
        throw new ToolError('browser: this session ended while the browser was starting, so it was closed again.', 'cancelled');
      }
      this.running = running;
    }
    const page = await running.context.newPage();
    page.setDefaultTimeout(START_TIMEOUT_MS);
    this.watch(page);
    running.page = page;
    return { page, replaced, created: true };
  }

  /**
   * What happened on page `main` besides the command's own effect since the last call, and forgets
   * it: dialogs it dismissed, tabs it opened, its uncaught and console errors (and how many more
   * there were than MAX_NOTICES).
   */
  takeNotices(): string[] {
    const taken = this.notices.splice(0);
    if (this.droppedNotices > 0) taken.push(`(${this.droppedNotices} more notices not shown)`);
    this.droppedNotices = 0;
    return taken;
  }

  private forgetNotices(): void {
    this.notices.length = 0;
    this.droppedNotices = 0;
  }

  /**
   * Dialogs are dismissed (a modal alert would block every later command) and new tabs are left
   * where they are, page main staying put; both are reported with the next result, bounded, as are
   * the page's uncaught errors and console errors (what a person debugging the app looks at first).
   */
  private watch(page: Page): void {
    const notice = (text: string): void => {
      if (this.notices.length < MAX_NOTICES) this.notices.push(text.length > 300 ? `${text.slice(0, 300)}…` : text);
      else this.droppedNotices++;
    };
    page.on('pageerror', (error) => notice(`Page error: ${firstLine(error)}`));
    page.on('console', (message) => {
      const { url, lineNumber } = message.location();
      // Every page without a favicon logs its 404; that says nothing about the app.
      if (message.type() !== 'error' || /\/favicon\.ico(?:[?#]|$)/.test(url)) return;
      notice(`Console error: ${message.text()}${url ? ` (${url}:${lineNumber + 1})` : ''}`);
    });
    page.on('dialog', (dialog) => {
      notice(`Dialog (${dialog.type()}) ${JSON.stringify(dialog.message())} was dismissed.`);
      dialog.dismiss().catch((err: unknown) => notice(`Dismissing the ${dialog.type()} dialog failed: ${firstLine(err)}`));
    });
    page.on('popup', (popup) => notice(`The page opened a new tab at ${popup.url()}; page main stays on this page (open that URL to go there).`));
  }

  private async start(target: BrowserTarget, key: string, executable: () => string): Promise<Running> {
    const { chromium } = await import('playwright-core');
    if (target.mode === 'connect') {
      let browser: Browser;
      try {
        browser = await chromium.connectOverCDP(target.connectUrl, { timeout: START_TIMEOUT_MS });
      } catch (err) {
        throw new ToolError(`browser: could not connect to ${target.connectUrl}: ${firstLine(err)}. Start Chrome with --remote-debugging-port=9222 (and a separate --user-data-dir), or give its DevTools URL as connectUrl.`);
      }
      const context = browser.contexts()[0] ?? (await browser.newContext());
      return { key, browser, context, owned: false, page: undefined };
    }
    if (target.mode === 'headed') headedNeedsDisplay(process.env);
    const executablePath = executable();
    let browser: Browser;
    try {
      browser = await chromium.launch({ executablePath, headless: target.mode === 'headless', timeout: START_TIMEOUT_MS, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false });
    } catch (err) {
      throw new ToolError(`browser: ${executablePath} did not start: ${firstLine(err)}. Check that it is a Chromium-based browser that runs here, or set capabilities.tools.browser.executable_path to one that does.`);
    }
    let context: BrowserContext;
    try {
      context = await browser.newContext({ ignoreHTTPSErrors: target.ignoreHttpsErrors, viewport: VIEWPORT });
    } catch (err) {
      // Not yet the session's browser, so nothing else would ever close it.
      await closedInTime(browser.close());
      throw err;
    }
    return { key, browser, context, owned: true, page: undefined };
  }

  /**
   * Closes page `main` (the `close` command, a cancelled call, a call past its deadline). When the
   * page does not close in time (a hung renderer) the browser Magi started is closed instead, or
   * the connection to someone's browser dropped. Resolves to whether a page was open.
   */
  async closePage(): Promise<boolean> {
    const running = this.running;
    const page = running?.page;
    if (!running || !page) return false;
    running.page = undefined;
    this.forgetNotices();
    if (page.isClosed()) return false;
    if (!(await closedInTime(page.close()))) await this.close();
    return true;
  }

  /** Closes the browser Magi started (or disconnects from a connected one) and its page. */
  async close(): Promise<void> {
    const running = this.running;
    this.running = undefined;
    this.forgetNotices();
    clearTimeout(this.idleTimer);
    if (running) await this.release(running);
  }

  private async release(running: Running): Promise<void> {
    if (!running.owned && running.page && !running.page.isClosed()) await closedInTime(running.page.close());
    await closedInTime(running.browser.close());
  }

  /**
   * Ends the session when `signal` aborts (the CLI interrupted, the extension stopping), until
   * `dispose`: the browser is closed, and so is one still starting, once it has started.
   */
  closeOnAbort(signal: AbortSignal): void {
    const onAbort = (): void => {
      this.ended = true;
      void this.close();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    this.detach = () => signal.removeEventListener('abort', onAbort);
  }

  /** Closes the browser for good, and one still starting once it has started: the owner of the runtime is done with it. */
  async dispose(): Promise<void> {
    this.ended = true;
    this.detach();
    await this.close();
  }

  /** A new file name in this session's own temp folder (made on first use). */
  async screenshotPath(): Promise<string> {
    this.screenshotDir ??= await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-browser-'));
    this.screenshotCount++;
    return path.join(this.screenshotDir, `screenshot-${this.screenshotCount}.png`);
  }

  /** Idleness counts from the end of the last call, and only while a browser runs. */
  private restartIdleTimer(): void {
    clearTimeout(this.idleTimer);
    if (!this.running) return;
    this.idleTimer = setTimeout(() => void this.run(new AbortController().signal, START_TIMEOUT_MS, () => this.close()), this.idleCloseMs);
    this.idleTimer.unref();
  }
}

/** The first line of a Playwright error (the rest is its call log). */
export function firstLine(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return (message.split('\n')[0] ?? message).replace(/^\w+\.\w+: /, '').replace(/^Error: /, '').trim();
}
