import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ToolError } from '../../../../../src/core/tools/errors';
import { defaultCandidates, EXECUTABLE_SETTING, findExecutable } from '../../../../../src/core/tools/browser/executable';
import { chromiumChildren, harness } from './pages';

describe('browser executable', () => {
  let dir: string;
  let plain: string;
  let exec1: string;
  let exec2: string;
  before(async () => {
    dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-browser-exe-'));
    plain = path.join(dir, 'not-executable');
    exec1 = path.join(dir, 'chrome-one');
    exec2 = path.join(dir, 'chrome-two');
    for (const file of [plain, exec1, exec2]) await fsp.writeFile(file, '#!/bin/sh\nexit 0\n');
    await fsp.chmod(plain, 0o644);
    await fsp.chmod(exec1, 0o755);
    await fsp.chmod(exec2, 0o755);
  });
  after(() => fsp.rm(dir, { recursive: true, force: true }));

  const failsWith = (configured: unknown, candidates: string[], message: RegExp): void => {
    assert.throws(() => findExecutable(configured, candidates), (err: unknown) => {
      assert.ok(err instanceof ToolError);
      assert.match(err.message, message);
      return true;
    });
  };

  it('uses a configured absolute executable, ahead of every candidate', () => {
    assert.equal(findExecutable(exec2, [exec1]), exec2);
  });

  it('refuses a configured path that is relative, not a string, missing, not executable or a directory, naming the setting', () => {
    failsWith('chromium', [exec1], /setting capabilities\.tools\.browser\.executable_path must be the absolute path of a Chromium-based browser, not "chromium"/);
    failsWith('./bin/chrome', [exec1], /capabilities\.tools\.browser\.executable_path must be the absolute path/);
    failsWith(42, [exec1], /capabilities\.tools\.browser\.executable_path must be the absolute path.*not 42/);
    failsWith(path.join(dir, 'missing'), [exec1], /capabilities\.tools\.browser\.executable_path is .*missing, which is not an executable file/);
    failsWith(plain, [exec1], /capabilities\.tools\.browser\.executable_path is .*not-executable, which is not an executable file/);
    failsWith(dir, [exec1], /capabilities\.tools\.browser\.executable_path is .*, which is not an executable file/);
  });

  it('treats an empty or null setting as unset', () => {
    assert.equal(findExecutable('', [exec1]), exec1);
    assert.equal(findExecutable(null, [exec1]), exec1);
    assert.equal(findExecutable(undefined, [exec1]), exec1);
  });

  it('takes the first executable candidate, skipping missing, non-executable files and directories', () => {
    assert.equal(findExecutable(undefined, [path.join(dir, 'missing'), plain, dir, exec2, exec1]), exec2);
    assert.equal(findExecutable(undefined, [exec1, exec2]), exec1);
    assert.equal(findExecutable(undefined, [plain], exec2), exec2, "Playwright's download is the last resort");
    assert.equal(findExecutable(undefined, [exec1], exec2), exec1);
  });

  it('without any browser gives install guidance naming the setting', () => {
    for (const candidates of [[], [path.join(dir, 'missing'), plain]]) {
      assert.throws(() => findExecutable(undefined, candidates, path.join(dir, 'no-download')), (err: unknown) => {
        assert.ok(err instanceof ToolError);
        assert.equal(err.code, 'not_found');
        assert.match(err.message, /no Chromium, Chrome or Edge found/);
        assert.match(err.message, /sudo apt-get install chromium/);
        assert.match(err.message, new RegExp(EXECUTABLE_SETTING.replace(/\./g, '\\.')));
        assert.match(err.message, /mode "connect"/);
        return true;
      });
    }
    failsWith(undefined, [plain], /looked at .*not-executable/);
  });

  it('knows where browsers install on each platform', () => {
    assert.equal(defaultCandidates('linux')[0], '/usr/bin/chromium');
    assert.ok(defaultCandidates('darwin').includes('/Applications/Google Chrome.app/Contents/MacOS/Google Chrome'));
    const win = defaultCandidates('win32', { PROGRAMFILES: 'C:\\Program Files', LOCALAPPDATA: '' });
    assert.ok(win.includes('C:\\Program Files\\Google\\Chrome\\Application\\chrome.exe'));
    assert.ok(win.every((candidate) => candidate.startsWith('C:\\Program Files\\')));
  });

  describe('through dispatch', () => {
    it('with no candidate, open fails with the guidance and launches nothing', async () => {
      const h = await harness({ candidates: [] });
      try {
        const result = await h.run('open http://127.0.0.1:9/');
        assert.equal(result.status, 'error');
        assert.equal(result.metadata.error, 'not_found');
        assert.match(result.content, /no Chromium, Chrome or Edge found.*apt-get install chromium.*capabilities\.tools\.browser\.executable_path/s);
        assert.deepEqual(chromiumChildren(), []);
        assert.equal(h.runtime.browser.pageOpen, false);
        const next = await h.run('get url');
        assert.match(next.content, /page main is not open; start with open <url>/);
      } finally {
        await h.dispose();
      }
    });

    it('the setting is read at open: a bad one is refused before any launch', async () => {
      const h = await harness({}, undefined, { [EXECUTABLE_SETTING]: plain });
      try {
        const result = await h.run('open http://127.0.0.1:9/');
        assert.equal(result.status, 'error');
        assert.match(result.content, /capabilities\.tools\.browser\.executable_path is .*not-executable, which is not an executable file/);
        assert.deepEqual(chromiumChildren(), []);
      } finally {
        await h.dispose();
      }
    });

    it('an executable that is not a browser fails to start with a clear error', async () => {
      const h = await harness({}, undefined, { capabilities: { tools: { browser: { executable_path: exec1 } } } });
      try {
        const result = await h.run('open http://127.0.0.1:9/');
        assert.equal(result.status, 'error');
        assert.match(result.content, /chrome-one did not start: .*capabilities\.tools\.browser\.executable_path/s);
        assert.deepEqual(chromiumChildren(), []);
      } finally {
        await h.dispose();
      }
    });
  });
});
