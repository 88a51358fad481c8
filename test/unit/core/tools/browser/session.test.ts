import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { getEventListeners } from 'node:events';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BrowserSession } from '../../../../../src/core/tools/browser/session';
import { CHROMIUM, chromiumChildren, chromiumGone, closedPort, harness, refOf, startSite, type Harness, type Site } from './pages';

const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

describe('browser session: bounds, cancellation, modes and lifetime (Debian Chromium)', function () {
  this.timeout(60_000);
  let site: Site;

  before(async () => {
    site = await startSite();
  });
  after(async () => {
    await site.close();
    assert.deepEqual(await chromiumGone(), [], 'no Chromium child of this process remains');
  });

  describe('timeouts', () => {
    let h: Harness;
    before(async () => {
      h = await harness({ actionTimeoutMs: 1_000, callTimeoutMs: 30_000 });
    });
    after(() => h.dispose());

    it('an action that cannot happen times out with a clean error and the page stays usable', async () => {
      assert.equal((await h.run(`open ${site.url('/disabled')}`)).status, 'success');
      const snapshot = (await h.run('snapshot -i')).content;
      const result = await h.run(`click ${refOf(snapshot, 'button "Never enabled"')}`);
      assert.equal(result.status, 'error');
      assert.equal(result.metadata.error, 'timeout');
      assert.match(result.content, /^browser: click timed out after 1000 ms \(.*\); the element may be hidden, disabled or covered\. Take a snapshot/);
      assert.equal(h.runtime.browser.pageOpen, true);
      assert.match((await h.run(`click ${refOf(snapshot, 'button "Enabled"')}`)).content, /^Clicked @/);
      assert.match((await h.run('get text')).content, /Pressed/);
    });

    it('a call past its bound fails, closes page main, and the next open works', async () => {
      const bounded = await harness({ callTimeoutMs: 2_000 });
      try {
        // The launch counts against the 2 s too: on a loaded machine the first opens may not make it.
        for (let attempt = 0; attempt < 3 && (await bounded.run(`open ${site.url('/form')}`)).status !== 'success'; attempt++);
        const busy = await bounded.run(`open ${site.url('/busy')}`);
        assert.equal(busy.status, 'success', busy.content);
        await bounded.run('wait 1000'); // the page's script now loops forever
        const started = Date.now();
        const result = await bounded.run('snapshot');
        assert.equal(result.status, 'error');
        assert.equal(result.metadata.error, 'timeout');
        assert.match(result.content, /^browser: the call did not finish within 2 s, so page main was closed; open the page again \(open <url>\)\.$/);
        assert.ok(Date.now() - started < 15_000, `took ${Date.now() - started} ms`);
        assert.equal(bounded.runtime.browser.pageOpen, false);
        assert.match((await bounded.run('get url')).content, /page main is not open; start with open <url>/);
        const again = await bounded.run(`open ${site.url('/form')}`);
        assert.equal(again.status, 'success', again.content);
        assert.equal((await bounded.run('get title')).content, 'Sign up');
      } finally {
        await bounded.dispose();
      }
    });
  });

  describe('cancellation and order', () => {
    let h: Harness;
    before(async () => {
      h = await harness();
    });
    after(() => h.dispose());

    it('cancelling a running wait ends it promptly, closes page main and keeps the browser', async () => {
      assert.equal((await h.run(`open ${site.url('/form')}`)).status, 'success');
      const browsers = chromiumChildren();
      assert.equal(browsers.length, 1);
      const controller = new AbortController();
      const started = Date.now();
      setTimeout(() => controller.abort(), 200);
      const result = await h.run('wait 20000', {}, controller.signal);
      assert.equal(result.status, 'error');
      assert.equal(result.metadata.cancelled, true);
      assert.match(result.content, /^browser: cancelled\.$/);
      assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
      assert.match((await h.run('get url')).content, /page main is not open; start with open <url>/);
      assert.equal((await h.run(`open ${site.url('/refs')}`)).status, 'success');
      assert.deepEqual(chromiumChildren(), browsers, 'the same browser process serves the next open');
    });

    it('cancelling a click that waits for an element ends it promptly', async () => {
      assert.equal((await h.run(`open ${site.url('/disabled')}`)).status, 'success');
      const disabled = refOf((await h.run('snapshot -i')).content, 'button "Never enabled"');
      const controller = new AbortController();
      const started = Date.now();
      setTimeout(() => controller.abort(), 200);
      const result = await h.run(`click ${disabled}`, {}, controller.signal);
      assert.equal(result.metadata.cancelled, true);
      assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
      assert.equal(h.runtime.browser.pageOpen, false);
    });

    it('a call cancelled while queued ends at once and never runs; the running one is untouched', async () => {
      assert.equal((await h.run(`open ${site.url('/form')}`)).status, 'success');
      const order: string[] = [];
      const first = h.run('wait 1500').then((result) => {
        order.push('first');
        return result;
      });
      const controller = new AbortController();
      const queued = h.run('click @e1', {}, controller.signal).then((result) => {
        order.push('queued');
        return result;
      });
      await delay(100);
      controller.abort();
      const cancelled = await queued;
      assert.equal(cancelled.metadata.cancelled, true);
      assert.deepEqual(order, ['queued'], 'the queued call ended before the running one');
      assert.equal((await first).status, 'success');
      assert.equal(h.runtime.browser.pageOpen, true, 'the queued cancellation did not close the page');
      assert.equal((await h.run('get title')).content, 'Sign up');
    });

    it('calls dispatched together run in arrival order', async () => {
      assert.equal((await h.run(`open ${site.url('/form')}`)).status, 'success');
      const done: string[] = [];
      await Promise.all(['wait 300', 'get title', 'wait 100', 'get url'].map((command) => h.run(command).then(() => done.push(command))));
      assert.deepEqual(done, ['wait 300', 'get title', 'wait 100', 'get url']);
    });
  });

  describe('modes', () => {
    it('headed without DISPLAY or WAYLAND_DISPLAY is refused before any launch', async () => {
      const saved = { DISPLAY: process.env.DISPLAY, WAYLAND_DISPLAY: process.env.WAYLAND_DISPLAY };
      delete process.env.DISPLAY;
      delete process.env.WAYLAND_DISPLAY;
      const h = await harness();
      try {
        const result = await h.run(`open ${site.url('/form')}`, { mode: 'headed' });
        assert.equal(result.status, 'error');
        assert.match(result.content, /mode "headed" needs a display, and neither DISPLAY nor WAYLAND_DISPLAY is set here.*Use mode "headless"/);
        assert.deepEqual(chromiumChildren(), []);
      } finally {
        for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
        await h.dispose();
      }
    });

    describe('connect', () => {
      let external: ChildProcess;
      let profile: string;
      let endpoint: string;

      before(async () => {
        profile = await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-browser-profile-'));
        external = spawn(CHROMIUM, ['--headless', '--no-sandbox', '--remote-debugging-port=0', `--user-data-dir=${profile}`, 'about:blank'], { stdio: ['ignore', 'ignore', 'pipe'] });
        endpoint = await new Promise<string>((resolve, reject) => {
          let text = '';
          const timer = setTimeout(() => reject(new Error(`no DevTools line from Chromium:\n${text}`)), 20_000);
          external.stderr?.on('data', (chunk: Buffer) => {
            text += chunk.toString();
            const match = /DevTools listening on ws:\/\/127\.0\.0\.1:(\d+)\//.exec(text);
            if (match) {
              clearTimeout(timer);
              resolve(`http://127.0.0.1:${match[1]}`);
            }
          });
          external.on('exit', (code) => reject(new Error(`Chromium exited (${code}):\n${text}`)));
        });
      });
      after(async () => {
        if (external.exitCode === null) {
          const exited = new Promise((resolve) => external.once('exit', resolve));
          external.kill('SIGTERM');
          await exited;
        }
        // Chromium's helper processes may still write to the profile for a moment after the main one exits.
        await fsp.rm(profile, { recursive: true, force: true, maxRetries: 20, retryDelay: 100 });
      });

      it('drives a page of a browser someone else started; close leaves that browser running', async () => {
        const h = await harness();
        try {
          const connect = { mode: 'connect', connectUrl: endpoint };
          const opened = await h.run(`open ${site.url('/form')}`, connect);
          assert.equal(opened.status, 'success', opened.content);
          assert.equal(opened.metadata.mode, 'connect');
          const name = refOf((await h.run('snapshot -i', connect)).content, 'textbox "Full name"');
          assert.equal((await h.run(`fill ${name} Grace`, connect)).status, 'success');
          assert.match((await h.run('press Enter', connect)).content, /echo\?name=Grace/);
          assert.equal((await h.run('close', connect)).content, 'Closed page main.');
          const version = await fetch(`${endpoint}/json/version`);
          assert.equal(version.status, 200, 'the external browser still answers');
          assert.match(((await version.json()) as { Browser: string }).Browser, /Chrom/);
          assert.equal((await h.run(`open ${site.url('/refs')}`, connect)).status, 'success');
        } finally {
          await h.dispose();
        }
        assert.equal(external.exitCode, null, 'disposing the runtime only disconnected');
        assert.equal((await fetch(`${endpoint}/json/version`)).status, 200);
      });

      it('an unreachable connectUrl is a clear error', async () => {
        const h = await harness();
        try {
          const port = await closedPort();
          const result = await h.run(`open ${site.url('/form')}`, { mode: 'connect', connectUrl: `http://127.0.0.1:${port}` });
          assert.equal(result.status, 'error');
          assert.match(result.content, new RegExp(`^browser: could not connect to http://127\\.0\\.0\\.1:${port}/: .*--remote-debugging-port=9222`, 's'));
        } finally {
          await h.dispose();
        }
      });
    });
  });

  describe('lifetime', () => {
    it('runtime.dispose() closes the browser it started', async () => {
      const h = await harness();
      assert.equal((await h.run(`open ${site.url('/form')}`)).status, 'success');
      assert.equal(chromiumChildren().length, 1);
      await h.dispose();
      assert.deepEqual(await chromiumGone(), []);
      assert.equal(h.runtime.browser.pageOpen, false);
    });

    it("aborting the runtime's signal closes its browser", async () => {
      const session = new AbortController();
      const h = await harness({}, session.signal);
      try {
        assert.equal((await h.run(`open ${site.url('/form')}`)).status, 'success');
        assert.equal(chromiumChildren().length, 1);
        session.abort();
        assert.deepEqual(await chromiumGone(), []);
        const after = await h.run('get url');
        assert.equal(after.metadata.cancelled, true);
      } finally {
        await h.dispose();
      }
    });

    it('a session disposed while its browser starts closes that browser once it has started (issue 16)', async () => {
      const session = new BrowserSession();
      const target = { mode: 'headless', ignoreHttpsErrors: false } as const;
      const opening = session.run(new AbortController().signal, 30_000, () => session.page(target, true, () => CHROMIUM));
      // The launch is under way (it takes about a second); dispose finds no browser to close yet.
      await delay(100);
      await session.dispose();
      await assert.rejects(opening, /^ToolError: browser: this session ended while the browser was starting, so it was closed again\.$/);
      assert.deepEqual(await chromiumGone(), []);
      assert.equal(session.pageOpen, false);
      await assert.rejects(session.run(new AbortController().signal, 30_000, () => session.page(target, true, () => CHROMIUM)), /this session has ended/);
      assert.deepEqual(chromiumChildren(), [], 'an ended session starts nothing');
    });

    it('a browser left idle is closed; the next open starts a fresh one', async () => {
      const session = new BrowserSession(500);
      const target = { mode: 'headless', ignoreHttpsErrors: false } as const;
      const open = (): Promise<unknown> => session.run(new AbortController().signal, 30_000, () => session.page(target, true, () => CHROMIUM));
      try {
        await open();
        assert.equal(session.pageOpen, true);
        assert.deepEqual(await chromiumGone(), [], 'closed after half a second of idleness');
        assert.equal(session.pageOpen, false);
        await open();
        assert.equal(session.pageOpen, true);
      } finally {
        await session.dispose();
      }
    });

    it('a disposed runtime stops listening to the long-lived signal it was given', async () => {
      const lifetime = new AbortController();
      const h = await harness({}, lifetime.signal);
      assert.equal(getEventListeners(lifetime.signal, 'abort').length, 1);
      await h.dispose();
      assert.equal(getEventListeners(lifetime.signal, 'abort').length, 0, 'runtimes dropped on a settings change do not pile up on the extension\'s signal');
    });
  });
});
