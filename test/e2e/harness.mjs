// Serves the built webview bundles to headless Chromium under the host's CSP, with a fake host:
// Functions passed to page.evaluate run in the browser, where these globals exist.
/* global window, sessionStorage, requestAnimationFrame */
// acquireVsCodeApi records posted messages and keeps setState across reloads (sessionStorage),
// and the test pushes HostMessages with window.postMessage.
import { createServer } from 'node:http';
import { readFile } from 'node:fs/promises';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize } from 'node:path';
import { chromiumOptions, playwright } from '../host/codeServer.mjs';

const ROOT = normalize(join(import.meta.dirname, '../..'));
const TYPES = { '.js': 'text/javascript', '.css': 'text/css', '.ttf': 'font/ttf', '.html': 'text/html' };
const NONCE = 'e2eNonce0123456789';

/**
 * The page the host would build: CSP default-src 'none', nonce'd script, styles and font from the
 * bundle folder, and the toolkit's csp-nonce meta (webview/shared/toolkit.ts says why).
 */
function page(origin, name) {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${origin} 'nonce-${NONCE}'; font-src ${origin}; script-src 'nonce-${NONCE}';">
<meta property="csp-nonce" content="${NONCE}">
<link rel="stylesheet" href="/dist/webview/codicon.css"><link rel="stylesheet" href="/dist/webview/${name}.css">
<title>${name}</title></head><body><script nonce="${NONCE}" src="/dist/webview/${name}.js"></script></body></html>`;
}

/** Runs in the page before the bundle: the fake of VS Code's webview API. */
function fakeHost() {
  const KEY = 'fakeHost.state';
  const w = /** @type {any} */ (window);
  w.__posted = [];
  let acquired = false;
  w.acquireVsCodeApi = () => {
    if (acquired) throw new Error('acquireVsCodeApi may be called only once');
    acquired = true;
    return {
      postMessage: (m) => w.__posted.push(JSON.parse(JSON.stringify(m))),
      getState: () => {
        const s = sessionStorage.getItem(KEY);
        return s === null ? undefined : JSON.parse(s);
      },
      setState: (s) => sessionStorage.setItem(KEY, JSON.stringify(s)),
    };
  };
}

/** Serves the pages, and `/dist/webview/*` from `bundleDir` (the built bundles unless told otherwise). */
export async function startServer(bundleDir = join(ROOT, 'dist/webview')) {
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    const origin = `http://${req.headers.host}`;
    if (url.pathname === '/chat.html' || url.pathname === '/missionControl.html') {
      res.writeHead(200, { 'content-type': 'text/html' }).end(page(origin, url.pathname.slice(1, -5)));
      return;
    }
    if (!url.pathname.startsWith('/dist/webview/')) return void res.writeHead(404).end();
    const file = normalize(join(bundleDir, url.pathname.slice('/dist/webview/'.length)));
    if (!file.startsWith(bundleDir)) return void res.writeHead(404).end();
    try {
      res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(await readFile(file));
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}

export async function launch() {
  const { chromium } = playwright();
  return chromium.launch(chromiumOptions(mkdtempSync(join(tmpdir(), 'magi-e2e-'))));
}

/**
 * Opens a view in a fresh context; `errors` collects page errors, console errors and CSP violations.
 * @param {'chat' | 'missionControl'} view
 */
export async function openView(browser, origin, view, viewport = { width: 900, height: 700 }) {
  const context = await browser.newContext({ viewport });
  await context.addInitScript(fakeHost);
  const p = await context.newPage();
  const errors = [];
  p.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  p.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(`console.${m.type()}: ${m.text()}`);
  });
  await p.goto(`${origin}/${view}.html`);
  await p.waitForFunction(() => window.__posted.some((m) => m.type === 'ready'));
  return { page: p, context, errors };
}

/** Pushes host messages to the page (as VS Code's postMessage would). */
export async function send(p, ...messages) {
  await p.evaluate((ms) => {
    for (const m of ms) window.postMessage(m, '*');
  }, messages);
}

/** Waits until every pushed message has been handled and a frame has been drawn. */
export async function settle(p) {
  await p.evaluate(() => new Promise((resolve) => setTimeout(() => requestAnimationFrame(() => requestAnimationFrame(resolve)), 0)));
}

export const posted = (p) => p.evaluate(() => window.__posted);
export const persistedLastN = (p) => p.evaluate(() => JSON.parse(sessionStorage.getItem('fakeHost.state') ?? 'null')?.lastN ?? 0);

/** Waits until the view has persisted (setState) that it holds entries up to `n`. */
export async function waitPersisted(p, n) {
  await p.waitForFunction((last) => JSON.parse(sessionStorage.getItem('fakeHost.state') ?? 'null')?.lastN === last, n);
}

/**
 * Reloads the view, waits for its `ready`, answers with a replay of `entries` after `afterN` and
 * lets it draw; returns what the view posted while loading (its `ready`).
 */
export async function reloadAndReplay(p, afterN, entries) {
  await p.reload();
  await p.waitForFunction(() => window.__posted.some((m) => m.type === 'ready'));
  const onLoad = await posted(p);
  await send(p, { type: 'replay', afterN, entries });
  await settle(p);
  return onLoad;
}
