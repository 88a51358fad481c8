import { execFileSync } from 'node:child_process';
import { promises as fsp, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Settings, type SettingsTree } from '../../../../../src/core/settings';
import { ToolRegistry } from '../../../../../src/core/tools/registry';
import { createBrowserTool, type BrowserToolOptions } from '../../../../../src/core/tools/browser';
import { dispatchTool } from '../../../../../src/core/tools/dispatch';
import type { ToolResult } from '../../../../../src/core/tools/result';
import { ToolRuntime } from '../../../../../src/core/tools/runtime';

/** Debian's Chromium, which every end-to-end test drives. */
export const CHROMIUM = '/usr/bin/chromium';

const html = (title: string, body: string): string => `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>`;

/** The test site, one page per route. */
const PAGES: Record<string, string> = {
  '/form': html('Sign up', `<h1>Sign up</h1>
<form action="/echo" method="get">
  <label for="name">Full name</label> <input id="name" name="name">
  <label for="color">Color</label> <select id="color" name="color"><option value="r">Red</option><option value="g">Green</option><option value="b">Blue</option></select>
  <button type="submit">Send</button>
</form>`),
  '/refs': html('Refs', `<div id="top"></div>
<button id="first" onclick="document.getElementById('out').textContent = 'first clicked'">First</button>
<button onclick="document.getElementById('top').insertAdjacentHTML('beforeend', '<button>Inserted one</button><a href=&quot;#x&quot;>Inserted link</a>')">Insert above</button>
<p id="out">nothing yet</p>`),
  '/keys': html('Keys', `<form action="/echo" method="get">
  <label for="q">Query</label> <input id="q" name="q">
</form>
<p id="count">keydowns: 0</p>
<script>let n = 0; document.getElementById('q').addEventListener('keydown', () => { n++; document.getElementById('count').textContent = 'keydowns: ' + n; });</script>`),
  '/tall': html('Tall', `<div style="height: 6000px; width: 4000px">top of a tall page</div>`),
  '/late': html('Late', `<button id="late">Ready now</button>
<button onclick="const b = document.getElementById('late'); b.style.display = 'none'; setTimeout(() => { b.style.display = 'inline-block'; }, 300)">Reload</button>`),
  '/disabled': html('Disabled', `<button disabled>Never enabled</button><button onclick="this.textContent = 'Pressed'">Enabled</button>`),
  '/busy': html('Busy', `<p>about to hang</p><script>addEventListener('load', () => setTimeout(() => { for (;;) {} }, 400));</script>`),
  '/popups': html('Popups', `<button onclick="alert('Saved!'); document.getElementById('after').textContent = 'after the alert'">Save</button>
<button onclick="document.getElementById('after').textContent = confirm('Delete it?') ? 'deleted' : 'kept'">Delete</button>
<a href="/form" target="_blank">Open the form in a new tab</a>
<p id="after">before</p>`),
  '/errors': html('Errors', `<button onclick="console.error('saving failed:', 503); missingFunction()">Save</button>
<button onclick="for (let i = 0; i < 25; i++) console.error('noise ' + i)">Noisy</button>
<button onclick="console.error('long ' + 'x'.repeat(1000))">Long</button>
<script>console.warn('only a warning')</script>`),
  '/huge': html('Huge', `<p>${'All work and no play makes a very long page. '.repeat(3000)}</p>`),
};

/** A port on 127.0.0.1 where nothing listens (Chromium refuses well-known ports like 9 itself). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** A node:http server on 127.0.0.1 serving PAGES, plus `/echo`, which shows the query it got. */
export interface Site {
  url(route: string): string;
  /** Requests seen per path. */
  hits: Map<string, number>;
  close(): Promise<void>;
}

export async function startSite(): Promise<Site> {
  const hits = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
    const page = url.pathname === '/echo'
      ? html('Echo', [...url.searchParams].map(([k, v]) => `<p>${k}=${v.replace(/[<&]/g, '')}</p>`).join(''))
      : PAGES[url.pathname];
    if (page === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('missing');
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (route) => `http://127.0.0.1:${port}${route}`,
    hits,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}

/** One runtime over a temp root with a registry holding only `browser` (test knobs applied). */
export interface Harness {
  runtime: ToolRuntime;
  /** Dispatches `browser` the way the agent does; `extra` adds mode/connectUrl/ignoreHttpsErrors. */
  run(command: string, extra?: Record<string, unknown>, signal?: AbortSignal): Promise<ToolResult>;
  /** Disposes the runtime (closing its browser) and removes the temp root. */
  dispose(): Promise<void>;
}

export async function harness(options: BrowserToolOptions = {}, runtimeSignal?: AbortSignal, settings: SettingsTree = {}): Promise<Harness> {
  const root = await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-browser-test-'));
  const runtime = await ToolRuntime.create({ root, settings: new Settings(settings), ...(runtimeSignal ? { signal: runtimeSignal } : {}) });
  const registry = new ToolRegistry([createBrowserTool({ candidates: [CHROMIUM], ...options })]);
  return {
    runtime,
    run: async (command, extra = {}, signal) => (await dispatchTool(registry, runtime, 'browser', { command, ...extra }, signal ? { signal } : {})).result,
    async dispose() {
      await runtime.dispose();
      await fsp.rm(root, { recursive: true, force: true });
    },
  };
}

/** Chromium processes that are children of this test process (Playwright's launches). */
export function chromiumChildren(): number[] {
  let out: string;
  try {
    out = execFileSync('pgrep', ['-P', String(process.pid)], { encoding: 'utf8' });
  } catch {
    return []; // pgrep exits 1 when there are none
  }
  return out.split('\n').filter((line) => line.trim() !== '').map(Number).filter((pid) => {
    try {
      return /chrom/i.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
    } catch {
      return false; // already gone
    }
  });
}

/** Waits (bounded) until no Chromium child remains, and returns those that still do. */
export async function chromiumGone(timeoutMs = 10_000): Promise<number[]> {
  const end = Date.now() + timeoutMs;
  let left = chromiumChildren();
  while (left.length > 0 && Date.now() < end) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = chromiumChildren();
  }
  return left;
}

/** The ref a snapshot line gives an element, e.g. refOf(text, 'button "Send"') → "@e7". */
export function refOf(snapshot: string, element: string): string {
  const line = snapshot.split('\n').find((l) => l.includes(element) && /@(?:f\d+)?e\d+/.test(l));
  const ref = line === undefined ? undefined : /@(?:f\d+)?e\d+/.exec(line)?.[0];
  if (ref === undefined) throw new Error(`no ref for ${element} in:\n${snapshot}`);
  return ref;
}
