import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BROWSER_OUTPUT_CAP } from '../../../../../src/core/tools/browser';
import { createDefaultRegistry } from '../../../../../src/core/tools';
import { dispatchTool } from '../../../../../src/core/tools/dispatch';
import { chromiumChildren, chromiumGone, closedPort, harness, refOf, startSite, type Harness, type Site } from './pages';

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function assertPng(file: string): Promise<void> {
  const bytes = await fsp.readFile(file);
  assert.deepEqual(bytes.subarray(0, 8), PNG, `${file} is not a PNG`);
}

describe('browser tool end to end (Debian Chromium, pages on 127.0.0.1)', function () {
  this.timeout(60_000);
  let site: Site;
  let h: Harness;

  before(async () => {
    site = await startSite();
    h = await harness();
  });
  after(async () => {
    await h.dispose();
    await site.close();
    assert.deepEqual(await chromiumGone(), [], 'no Chromium child of this process remains');
  });

  const ok = async (command: string): Promise<string> => {
    const result = await h.run(command);
    assert.equal(result.status, 'success', `${command}: ${result.content}`);
    return result.content;
  };

  it('before any open, every page command says to open first', async () => {
    for (const command of ['snapshot -i', 'click @e1', 'get url', 'wait 10', 'screenshot', 'press Enter']) {
      const result = await h.run(command);
      assert.equal(result.status, 'error');
      assert.match(result.content, /page main is not open; start with open <url>/);
    }
    assert.equal((await h.run('close')).content, 'Page main was not open.');
    assert.deepEqual(chromiumChildren(), [], 'nothing launched for them');
  });

  it('fills, selects and submits a form; the next page shows the submitted values', async () => {
    const opened = await h.run(`open ${site.url('/form')}`);
    assert.equal(opened.status, 'success', opened.content);
    assert.match(opened.content, /^Page: Sign up — http:\/\/127\.0\.0\.1:\d+\/form\nHTTP status: 200\n/);
    assert.equal(opened.metadata.http_status, 200);
    assert.equal(opened.metadata.mode, 'headless');
    const snapshot = await ok('snapshot -i');
    assert.match(snapshot, /^Page: Sign up — /);
    const lines = snapshot.split('\n').slice(1);
    assert.ok(lines.every((line) => /^- (textbox|combobox|button) .*@e\d+/.test(line)), snapshot);
    const name = refOf(snapshot, 'textbox "Full name"');
    const color = refOf(snapshot, 'combobox "Color"');
    const send = refOf(snapshot, 'button "Send"');
    assert.equal(await ok(`fill ${name} Ada Lovelace`), `Filled ${name} with 12 characters.`);
    const missing = await h.run(`select ${color} Purple`);
    assert.equal(missing.status, 'error');
    assert.match(missing.content, /has no option "Purple"; its options \(value or label\): .*"b" \(Blue\)/, 'named at once, not after the action timeout');
    const notSelect = await h.run(`select ${name} Blue`);
    assert.match(notSelect.content, /is not a <select>/);
    assert.equal(await ok(`select ${color.slice(1)} Blue`), `Selected "b" in ${color}.`, 'by label, ref without @');
    assert.match(await ok(`click ${send}`), new RegExp(`^Clicked ${send}\\.\\nPage: Echo — http://127\\.0\\.0\\.1:\\d+/echo\\?name=Ada\\+Lovelace&color=b$`));
    assert.match(await ok('get url'), /\/echo\?name=Ada\+Lovelace&color=b$/);
    assert.equal(await ok('get title'), 'Echo');
    assert.match(await ok('get text'), /name=Ada Lovelace\s+color=b/);
  });

  it('refs stay the same for the same elements across snapshots, also after new elements appear above', async () => {
    await ok(`open ${site.url('/refs')}`);
    const first = await ok('snapshot');
    const firstButton = refOf(first, 'button "First"');
    const insert = refOf(first, 'button "Insert above"');
    const out = refOf(first, 'paragraph');
    await ok(`click ${insert}`);
    const second = await ok('snapshot');
    assert.match(second, /button "Inserted one" @(?:f\d+)?e\d+/);
    assert.match(second, /link "Inserted link" @(?:f\d+)?e\d+/);
    assert.ok(second.indexOf('Inserted one') < second.indexOf('button "First"'), 'the new elements are above');
    assert.equal(refOf(second, 'button "First"'), firstButton);
    assert.equal(refOf(second, 'button "Insert above"'), insert);
    assert.notEqual(refOf(second, 'button "Inserted one"'), firstButton);
    await ok(`click ${firstButton}`);
    assert.equal(await ok(`get text ${out}`), 'first clicked');
  });

  it('an unknown or stale ref is a clear error at once, not a timeout', async () => {
    await ok(`open ${site.url('/refs')}`);
    const started = Date.now();
    const unknown = await h.run('click @e999');
    assert.equal(unknown.status, 'error');
    assert.match(unknown.content, /@e999 is not on the page; refs come from the latest snapshot .* Take a new snapshot/);
    const neverThere = await h.run('wait @e999');
    assert.equal(neverThere.status, 'error');
    assert.match(neverThere.content, /@e999 is not on the page/);
    const snapshot = await ok('snapshot -i');
    const first = refOf(snapshot, 'button "First"');
    await ok(`open ${site.url('/form')}`);
    for (const command of [`get text ${first}`, `click ${first}`, `wait ${first}`, `fill ${first} x`]) {
      const stale = await h.run(command);
      assert.equal(stale.status, 'error');
      assert.match(stale.content, new RegExp(`${first} is not on the page`), command);
    }
    assert.ok(Date.now() - started < 20_000, 'far from the 55 s action bound');
  });

  it('type fires a key event per character; press Enter submits the form', async () => {
    await ok(`open ${site.url('/keys')}`);
    const query = refOf(await ok('snapshot -i'), 'textbox "Query"');
    assert.equal(await ok(`type ${query} "a b\\"c"`), `Typed 5 characters into ${query}.`);
    assert.match(await ok('get text'), /keydowns: 5/);
    assert.match(await ok('press Enter'), /^Pressed Enter\.\nPage: Echo — .*\/echo\?q=a\+b%22c$/);
    assert.match(await ok('get text'), /q=a b"c/);
  });

  it('press takes chords: Control+A then Backspace clears a field', async () => {
    await ok(`open ${site.url('/keys')}`);
    const query = refOf(await ok('snapshot -i'), 'textbox "Query"');
    await ok(`fill ${query} some text`);
    await ok('press Control+A');
    await ok('press Backspace');
    await ok('press Enter');
    assert.match(await ok('get url'), /\/echo\?q=$/);
    const bad = await h.run('press NoSuchKey');
    assert.equal(bad.status, 'error');
    assert.match(bad.content, /browser: press failed: .*NoSuchKey/);
  });

  it('scroll moves the page and reports where it is', async () => {
    await ok(`open ${site.url('/tall')}`);
    assert.equal(await ok('scroll down 700'), 'Scrolled down 700 px; the page is now at x=0, y=700.');
    assert.match(await ok('scroll down'), /y=1200\.$/);
    assert.match(await ok('scroll up 200'), /y=1000\.$/);
    assert.match(await ok('scroll right 300'), /x=300, y=1000\.$/);
  });

  it('wait ms, and wait @ref until an element becomes visible', async () => {
    assert.equal(await ok('wait 50'), 'Waited 50 ms.');
    await ok(`open ${site.url('/late')}`);
    // Reload hides the button at once and shows it again 300 ms later.
    const snapshot = await ok('snapshot -i');
    const ready = refOf(snapshot, 'button "Ready now"');
    await ok(`click ${refOf(snapshot, 'button "Reload"')}`);
    const waited = await h.run(`wait ${ready}`);
    assert.equal(waited.status, 'success', waited.content);
    assert.equal(waited.content, `${ready} is visible.`);
    await ok(`click ${ready}`);
  });

  it('screenshots are PNG files in a folder of this runtime under the temp dir', async () => {
    await ok(`open ${site.url('/tall')}`);
    const shot = await h.run('screenshot');
    const full = await h.run('screenshot --full');
    const files = [shot, full].map((result) => {
      assert.equal(result.status, 'success', result.content);
      const match = /^Screenshot saved: (\/.+\.png)$/.exec(result.content);
      assert.ok(match?.[1], result.content);
      assert.equal(result.metadata.screenshot, match[1]);
      return match[1];
    });
    const [a, b] = files as [string, string];
    assert.notEqual(a, b);
    assert.equal(path.dirname(a), path.dirname(b));
    assert.equal(path.dirname(path.dirname(a)), os.tmpdir());
    for (const file of files) await assertPng(file);
    assert.ok((await fsp.stat(b)).size > (await fsp.stat(a)).size, 'the full page is larger than the viewport');

    const other = await harness();
    try {
      await other.run(`open ${site.url('/form')}`);
      const third = await other.run('screenshot');
      const c = /^Screenshot saved: (.+)$/.exec(third.content)?.[1];
      assert.ok(c, third.content);
      assert.notEqual(path.dirname(c), path.dirname(a), 'another runtime, another folder');
      await assertPng(c);
      for (const folder of [path.dirname(a), path.dirname(c)]) await fsp.rm(folder, { recursive: true, force: true });
    } finally {
      await other.dispose();
    }
  });

  it('caps output at 64 KiB and says so', async () => {
    await ok(`open ${site.url('/huge')}`);
    const result = await h.run('get text');
    assert.equal(result.status, 'success');
    assert.equal(result.metadata.truncated, true);
    assert.ok(Buffer.byteLength(result.content) <= BROWSER_OUTPUT_CAP, `${Buffer.byteLength(result.content)} bytes`);
    assert.match(result.content, /\[truncated: output reached the 64 KiB cap/);
    assert.equal((await h.run('get title')).metadata.truncated, false);
  });

  it('calls run one at a time in arrival order', async () => {
    await ok(`open ${site.url('/form')}`);
    const order: string[] = [];
    const slow = h.run('wait 500').then((result) => order.push(`wait:${result.status}`));
    const fast = h.run('get url').then((result) => order.push(`url:${result.status}`));
    await Promise.all([slow, fast]);
    assert.deepEqual(order, ['wait:success', 'url:success']);
  });

  it('a derived runtime sees the same page main, through the default registry', async () => {
    await ok(`open ${site.url('/form')}`);
    const derived = h.runtime.derive({});
    assert.equal(derived.browser, h.runtime.browser);
    const result = (await dispatchTool(createDefaultRegistry(), derived, 'browser', { command: 'get title' })).result;
    assert.equal(result.status, 'success', result.content);
    assert.equal(result.content, 'Sign up');
  });

  it('switching to ignoreHttpsErrors restarts the browser and says so', async () => {
    await ok(`open ${site.url('/form')}`);
    const switched = await h.run(`open ${site.url('/refs')}`, { ignoreHttpsErrors: true });
    assert.equal(switched.status, 'success', switched.content);
    assert.match(switched.content, /^\(The headless browser was closed to start this one\.\)\nPage: Refs — /);
    const back = await h.run('get title', { ignoreHttpsErrors: null });
    assert.equal(back.status, 'error');
    assert.match(back.content, /page main is not open \(the headless \(ignoring HTTPS errors\) browser was closed to switch to headless\); start with open <url>/);
    assert.ok(chromiumChildren().length <= 1, 'at most one browser at a time');
  });

  it('close closes page main; the next command says to open first, and open works again', async () => {
    await ok(`open ${site.url('/form')}`);
    const closed = await h.run('close');
    assert.equal(closed.content, 'Closed page main.');
    assert.equal(closed.metadata.closed, true);
    assert.equal(h.runtime.browser.pageOpen, false);
    assert.match((await h.run('snapshot')).content, /page main is not open; start with open <url>/);
    assert.equal((await h.run('close')).content, 'Page main was not open.');
    await ok(`open ${site.url('/refs')}`);
    assert.equal(await ok('get title'), 'Refs');
  });

  it('dismisses dialogs and reports them, and reports new tabs while page main stays put', async () => {
    await ok(`open ${site.url('/popups')}`);
    const snapshot = await ok('snapshot -i');
    const saved = await ok(`click ${refOf(snapshot, 'button "Save"')}`);
    assert.match(saved, /^Dialog \(alert\) "Saved!" was dismissed\.\nClicked @/);
    assert.equal(await ok(`get text ${refOf(await ok('snapshot'), 'paragraph')}`), 'after the alert');
    const deleted = await ok(`click ${refOf(snapshot, 'button "Delete"')}`);
    assert.match(deleted, /^Dialog \(confirm\) "Delete it\?" was dismissed\./);
    assert.match(await ok('get text'), /kept/, 'a dismissed confirm answers false');
    // The new tab is announced after the click returns: with the click's result or the next one's.
    const reported = [await ok(`click ${refOf(snapshot, 'link "Open the form in a new tab"')}`)];
    assert.match(await ok('get url'), /\/popups$/, 'get answers with the bare value; page main stayed');
    reported.push(await ok('wait 300'), await ok('wait 1'));
    const notices = reported.join('\n').match(/The page opened a new tab at http:\/\/127\.0\.0\.1:\d+\/form; page main stays on this page/g);
    assert.equal(notices?.length, 1, reported.join('\n---\n'));
  });

  it("reports the page's uncaught errors and console errors with the next result, at most 10", async () => {
    await ok(`open ${site.url('/errors')}`);
    const snapshot = await ok('snapshot -i');
    assert.doesNotMatch(snapshot, /warning/, 'warnings are not reported');
    // Events reach Playwright around the click's answer: they come with that result or the next one.
    const noticesOf = async (command: string): Promise<string[]> => [await ok(command), await ok('wait 200')].join('\n').split('\n').filter((line) => !/^(Clicked|Page:|Waited)/.test(line));
    const saved = await noticesOf(`click ${refOf(snapshot, 'button "Save"')}`);
    assert.equal(saved.length, 2, saved.join('\n'));
    assert.match(saved.join('\n'), /Console error: saving failed: 503 \(http:\/\/127\.0\.0\.1:\d+\/errors:1\)/);
    assert.ok(saved.includes('Page error: missingFunction is not defined'), saved.join('\n'));
    const noisy = await noticesOf(`click ${refOf(snapshot, 'button "Noisy"')}`);
    // 25 errors over one or two results of at most 10 notices each: the rest are counted, never listed.
    const shown = noisy.filter((line) => line.startsWith('Console error: noise')).map((line) => Number(/noise (\d+)/.exec(line)?.[1]));
    const dropped = noisy.map((line) => Number(/^\((\d+) more notices not shown\)$/.exec(line)?.[1] ?? 0)).reduce((a, b) => a + b, 0);
    assert.ok(shown.length >= 10 && shown.length <= 20, noisy.join('\n'));
    assert.equal(shown.length + dropped, 25, noisy.join('\n'));
    assert.deepEqual(shown.slice(0, 10), Array.from({ length: 10 }, (_, i) => i), 'the first ten, in order');
    assert.doesNotMatch(await ok('wait 1'), /noise/, 'each notice once');
    const long = (await noticesOf(`click ${refOf(snapshot, 'button "Long"')}`)).find((line) => line.startsWith('Console error: long'));
    assert.equal(long, `Console error: long ${'x'.repeat(300 - 'Console error: long '.length)}…`, 'a notice is cut at 300 characters');
  });

  it('a failed navigation is an error result and the page stays usable', async () => {
    await ok(`open ${site.url('/form')}`);
    const refused = await h.run(`open http://127.0.0.1:${await closedPort()}/`);
    assert.equal(refused.status, 'error');
    assert.match(refused.content, /browser: open failed: .*ERR_CONNECTION_REFUSED/);
    await ok(`open ${site.url('/refs')}`);
    const missing = await h.run(`open ${site.url('/nowhere')}`);
    assert.equal(missing.status, 'success');
    assert.equal(missing.metadata.http_status, 404);
  });
});
