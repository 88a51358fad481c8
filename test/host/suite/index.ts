import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import Mocha from 'mocha';

/**
 * Entry point the extension host calls (`extensionTestsPath`): runs every `*.test.js` next to this
 * file and rejects when any test failed, so the host reports a non-zero exit code.
 */
export function run(): Promise<void> {
  const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 30_000 });
  for (const file of readdirSync(__dirname).filter((f) => f.endsWith('.test.js')).sort()) mocha.addFile(join(__dirname, file));
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      // run.mjs turns this line into the closing "N passed, N failed".
      console.log(`MAGI_HOST_SUMMARY ${JSON.stringify({ passed: runner.stats?.passes ?? 0, failed: failures })}`);
      if (failures > 0) reject(new Error(`${failures} host test(s) failed`));
      else resolve();
    });
  });
}
