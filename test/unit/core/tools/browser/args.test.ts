import assert from 'node:assert/strict';
import { ToolError } from '../../../../../src/core/tools/errors';
import { browserInput, DEFAULT_CONNECT_URL, MAX_COMMAND_CHARS, targetKey, validateBrowserArgs } from '../../../../../src/core/tools/browser/args';
import { chromiumChildren, harness, type Harness } from './pages';

const validate = (input: unknown) => validateBrowserArgs(browserInput.parse(input));

describe('browser arguments', () => {
  it('defaults to headless without ignoring HTTPS errors; null means omitted', () => {
    assert.deepEqual(validate({ command: 'get url' }), { command: { verb: 'get', what: 'url' }, target: { mode: 'headless', ignoreHttpsErrors: false } });
    assert.deepEqual(validate({ command: 'get url', mode: null, connectUrl: null, ignoreHttpsErrors: null }).target, { mode: 'headless', ignoreHttpsErrors: false });
    assert.deepEqual(validate({ command: 'get url', mode: 'headed', ignoreHttpsErrors: true }).target, { mode: 'headed', ignoreHttpsErrors: true });
    assert.deepEqual(validate({ command: 'get url', mode: 'connect', ignoreHttpsErrors: null }).target, { mode: 'connect', connectUrl: `${DEFAULT_CONNECT_URL}/` });
    assert.deepEqual(validate({ command: 'get url', mode: 'connect', connectUrl: 'ws://127.0.0.1:9333/devtools/browser/abc' }).target, { mode: 'connect', connectUrl: 'ws://127.0.0.1:9333/devtools/browser/abc' });
  });

  it('refuses connectUrl without connect mode, naming the field', () => {
    for (const mode of [undefined, null, 'headless', 'headed']) {
      assert.throws(() => validate({ command: 'get url', mode, connectUrl: 'http://127.0.0.1:9222' }), (err: unknown) => {
        assert.ok(err instanceof ToolError);
        assert.match(err.message, /connectUrl is only for mode "connect"/);
        assert.match(err.message, /"mode": "connect", "connectUrl": "http:\/\/127\.0\.0\.1:9222"/);
        return true;
      });
    }
  });

  it('refuses ignoreHttpsErrors in connect mode, even false', () => {
    for (const ignoreHttpsErrors of [true, false]) {
      assert.throws(() => validate({ command: 'get url', mode: 'connect', ignoreHttpsErrors }), /ignoreHttpsErrors applies only to the browsers Magi starts \(mode headless or headed\)/);
    }
  });

  it('refuses connect URLs that are not http(s)/ws(s) or carry credentials', () => {
    assert.throws(() => validate({ command: 'get url', mode: 'connect', connectUrl: 'localhost:9222' }), /connectUrl must be http\(s\):\/\/ or ws\(s\):\/\/, not localhost:/);
    assert.throws(() => validate({ command: 'get url', mode: 'connect', connectUrl: 'not a url' }), /connectUrl "not a url" is not a URL/);
    assert.throws(() => validate({ command: 'get url', mode: 'connect', connectUrl: 'file:///tmp/x' }), /not file:/);
    assert.throws(() => validate({ command: 'get url', mode: 'connect', connectUrl: 'http://user:secret@127.0.0.1:9222' }), /must not carry a user name or password/);
  });

  it(`refuses a command over ${MAX_COMMAND_CHARS} characters before parsing it`, () => {
    const long = `fill @e1 ${'x'.repeat(MAX_COMMAND_CHARS)}`;
    assert.throws(() => validate({ command: long }), /the command is longer than 16384 characters/);
    const fits = `fill @e1 ${'x'.repeat(MAX_COMMAND_CHARS - 'fill @e1 '.length)}`;
    assert.equal(fits.length, MAX_COMMAND_CHARS);
    assert.equal((validate({ command: fits }).command as { text: string }).text.length, MAX_COMMAND_CHARS - 9);
  });

  it('names targets so a different one restarts the browser', () => {
    assert.equal(targetKey({ mode: 'headless', ignoreHttpsErrors: false }), 'headless');
    assert.equal(targetKey({ mode: 'headless', ignoreHttpsErrors: true }), 'headless (ignoring HTTPS errors)');
    assert.equal(targetKey({ mode: 'connect', connectUrl: 'http://127.0.0.1:9222/' }), 'connect http://127.0.0.1:9222/');
  });

  describe('through dispatch (nothing is launched)', () => {
    let h: Harness;
    before(async () => {
      h = await harness();
    });
    after(async () => {
      await h.dispose();
      assert.deepEqual(chromiumChildren(), []);
    });

    it('strict fields: unknown, misspelled and mistyped fields are refused', async () => {
      const unknown = await h.run('get url', { headless: true });
      assert.equal(unknown.status, 'error');
      assert.match(unknown.content, /headless/);
      const wrongMode = await h.run('get url', { mode: 'chrome' });
      assert.equal(wrongMode.status, 'error');
      assert.match(wrongMode.content, /mode/);
      const wrongType = await h.run('get url', { ignoreHttpsErrors: 'yes' });
      assert.equal(wrongType.status, 'error');
      assert.match(wrongType.content, /ignoreHttpsErrors/);
    });

    it('refusals come back as error results naming the field or the grammar', async () => {
      const connect = await h.run('open http://127.0.0.1:1/', { connectUrl: 'http://127.0.0.1:9222' });
      assert.equal(connect.status, 'error');
      assert.match(connect.content, /connectUrl is only for mode "connect"/);
      const ignore = await h.run('open http://127.0.0.1:1/', { mode: 'connect', ignoreHttpsErrors: true });
      assert.match(ignore.content, /ignoreHttpsErrors applies only/);
      const long = await h.run(`open https://a.test/${'x'.repeat(MAX_COMMAND_CHARS)}`);
      assert.match(long.content, /longer than 16384 characters/);
      const bad = await h.run('open file:///etc/passwd');
      assert.match(bad.content, /http:\/\/ or https:\/\/ URLs only/);
      assert.equal(h.runtime.browser.pageOpen, false);
      assert.deepEqual(chromiumChildren(), []);
    });
  });
});
