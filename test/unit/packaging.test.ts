import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import * as path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.resolve(__dirname, '../..');

// What `npm run package` puts in the .vsix, asked of vsce itself: the bundles require the native
// @ast-grep packages and playwright-core at run time, so those (and only those) node_modules must
// travel with them.
describe('the .vsix contents', function () {
  this.timeout(120_000);
  let files: string[];
  before(async () => {
    const vsce = path.join(ROOT, 'node_modules/.bin/vsce');
    const { stdout } = await promisify(execFile)(vsce, ['ls'], { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
    files = stdout.split('\n').filter((line) => line !== '');
  });

  it('holds the bundles, the parse worker and the native modules they require', () => {
    for (const file of ['dist/extension.js', 'dist/cli.js', 'dist/grepWorker.js', 'dist/astGrepWorker.js', 'node_modules/@ast-grep/napi/index.js', 'node_modules/@ast-grep/setup-lang/package.json']) {
      assert.ok(files.includes(file), `${file} is packaged`);
    }
    for (const language of ['rust', 'python', 'go', 'kotlin', 'java', 'swift']) {
      assert.ok(files.includes(`node_modules/@ast-grep/lang-${language}/index.js`), language);
      assert.ok(files.includes(`node_modules/@ast-grep/lang-${language}/prebuilds/prebuild-Linux-X64/parser.so`), `${language} parser`);
    }
    assert.ok(files.some((file) => /^node_modules\/@ast-grep\/napi-[^/]+\/.*\.node$/.test(file)), 'the napi binary of this platform');
    for (const file of ['package.json', 'index.js', 'index.mjs', 'browsers.json', 'lib/coreBundle.js', 'lib/utilsBundle.js', 'lib/bootstrap.js']) assert.ok(files.includes(`node_modules/playwright-core/${file}`), `playwright-core ${file}`);
  });

  it('leaves out every other dependency, the parsers\' sources and the TypeScript sources', () => {
    assert.deepEqual(files.filter((file) => file.startsWith('node_modules/') && !file.startsWith('node_modules/@ast-grep/') && !file.startsWith('node_modules/playwright-core/')), []);
    assert.deepEqual(files.filter((file) => /^node_modules\/playwright-core\/(lib\/vite|types|bin)\//.test(file)), [], 'no trace viewer, types or install scripts');
    assert.deepEqual(files.filter((file) => /^node_modules\/@ast-grep\/lang-[^/]+\/src\//.test(file)), []);
    assert.deepEqual(files.filter((file) => file.startsWith('src/') || file.startsWith('test/')), []);
  });
});
