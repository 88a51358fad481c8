// The webview bundles alone in headless Chromium against a fake host (test/e2e/harness.mjs).
// Needs `npm run build` first (npm test builds). Screenshots go to test/e2e/.artifacts/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { chatTests } from './chat.test.mjs';
import { launch, startServer } from './harness.mjs';
import { missionControlTests } from './missionControl.test.mjs';

const artifacts = join(import.meta.dirname, '.artifacts');
mkdirSync(artifacts, { recursive: true });
const only = process.env.MAGI_E2E_ONLY;
const tests = [...chatTests, ...missionControlTests].filter(([name]) => !only || name.includes(only));

const { server, origin } = await startServer();
const browser = await launch();
let failed = 0;
try {
  for (const [name, fn] of tests) {
    const started = performance.now();
    try {
      await fn({ browser, origin, artifacts });
      console.log(`  ✓ ${name} (${Math.round(performance.now() - started)} ms)`);
    } catch (error) {
      failed++;
      console.log(`  ✗ ${name}\n${String(error?.stack ?? error).replace(/^/gm, '      ')}`);
    }
  }
} finally {
  await browser.close();
  server.close();
}
console.log(`${tests.length - failed} passing, ${failed} failing`);
process.exitCode = failed ? 1 : 0;
