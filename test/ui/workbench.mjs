// Driving code-server's workbench with playwright-core: the command palette, the webviews' frames,
// the editor title actions, screenshots, and a poll with a message that says what never happened.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { sleep } from '../host/codeServer.mjs';

/** Polls `probe` until it returns something truthy; throws `Timed out after N s: <what>` otherwise. */
export async function until(what, probe, { timeoutMs = 20_000, everyMs = 100 } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs / 1000} s: ${what}`);
    await sleep(everyMs);
  }
}

/** A frame that went away (a webview reloading) while it was probed: the next poll looks again. */
function frameGone(err) {
  return /detached|navigat|Target (page, context or browser )?(has been )?closed|Execution context was destroyed/i.test(err.message);
}

/**
 * The frame (webviews are iframes nested two deep) holding a visible element matching `selector`.
 * Throws when none shows up in time.
 */
export async function frameWith(page, selector, what, timeoutMs = 30_000) {
  return until(`${what} (a frame with a visible ${selector})`, async () => {
    for (const frame of page.frames()) {
      try {
        if (await frame.locator(selector).first().isVisible()) return frame;
      } catch (err) {
        if (!frameGone(err)) throw err;
      }
    }
    return undefined;
  }, { timeoutMs, everyMs: 250 });
}

/**
 * Runs a command by its palette label (e.g. "Magi: Open Mission Control") through F1. The palette
 * lists only the commands registered when it opened, and an extension's arrive a few seconds after
 * the workbench shows: a palette without the command is closed and opened again, for up to `timeoutMs`.
 */
export async function runCommand(page, label, timeoutMs = 20_000) {
  const input = page.locator('.quick-input-widget input');
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: label }).first();
  await until(`the command palette offers "${label}"`, async () => {
    // Keys typed while a webview has focus stay in its iframe: give the focus back to the workbench first.
    await page.evaluate(() => globalThis.document.activeElement?.blur());
    await page.keyboard.press('F1');
    await input.waitFor({ state: 'visible' });
    await input.fill(`>${label}`);
    if (await row.waitFor({ state: 'visible', timeout: 2_000 }).then(() => true, () => false)) return true;
    await page.keyboard.press('Escape');
    return false;
  }, { timeoutMs, everyMs: 500 });
  await row.click();
}

/** Saves numbered full-page screenshots (the webviews' iframes included) into `dir`. */
export function screenshots(page, dir) {
  mkdirSync(dir, { recursive: true });
  let count = 0;
  const saved = [];
  return {
    saved,
    async take(name) {
      const file = join(dir, `${String(++count).padStart(2, '0')}-${name}.png`);
      await page.screenshot({ path: file });
      saved.push(file);
      return file;
    },
  };
}
