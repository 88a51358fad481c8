// Runs test/host/suite inside a real VS Code extension host: code-server + headless Chromium.
// Usage: node test/host/run.mjs        (npm run test:host; needs `npm run build` first)
// Env: MAGI_HOST_TIMEOUT (seconds, default 300), MAGI_HOST_KEEP=1 keeps the temp state dir,
//      MAGI_HOST_ONLY=text runs only the suite files whose name contains text (index.ts always).
// Exit code: the suite's (0 only when every test passed); 1 on timeout or harness failure.
import * as esbuild from 'esbuild';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { format } from 'node:util';
import { HARNESS_DIR, chromiumOptions, ensureHarness, playwright, startCodeServer, workbenchUrl } from './codeServer.mjs';

const REPO = resolve(HARNESS_DIR, '../..');
// One folder per run, so that two runs at once (parallel work on one machine) do not clobber each other.
const SUITE_OUT = join(HARNESS_DIR, `.state/suite-${process.pid}`);
const ONLY = process.env.MAGI_HOST_ONLY;
const TIMEOUT_MS = Number(process.env.MAGI_HOST_TIMEOUT ?? 300) * 1000;
const SUMMARY_MARK = 'MAGI_HOST_SUMMARY ';
const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`;

if (!existsSync(join(REPO, 'dist/extension.js'))) {
  console.error('dist/extension.js is missing: run `npm run build` first (npm test does).');
  process.exit(1);
}
ensureHarness();

// The suite runs inside the extension host: bundle each file to CommonJS; `vscode` comes from the
// host, and `mocha` resolves from the project's node_modules (the output sits inside the repo).
rmSync(SUITE_OUT, { recursive: true, force: true });
await esbuild.build({
  entryPoints: readdirSync(join(HARNESS_DIR, 'suite'))
    .filter((f) => f.endsWith('.ts') && (f === 'index.ts' || !ONLY || f.includes(ONLY)))
    .map((f) => join(HARNESS_DIR, 'suite', f)),
  outdir: SUITE_OUT,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode', 'mocha'],
  sourcemap: 'inline',
  logLevel: 'warning',
});

const stateDir = mkdtempSync(join(tmpdir(), 'magi-host-'));
const workspace = join(stateDir, 'workspace');
cpSync(join(HARNESS_DIR, 'fixtures/workspace'), workspace, { recursive: true });

let server;
let browser;
let summary;
let code = 1;
let cleaning;
/** Closes the browser, ends code-server's process group, removes the state; once, whoever asks first. */
const cleanup = () => (cleaning ??= (async () => {
  await browser?.close().catch((err) => console.error(`host tests: closing the browser failed: ${err.message}`));
  await server?.stop();
  if (!process.env.MAGI_HOST_KEEP) {
    rmSync(stateDir, { recursive: true, force: true, maxRetries: 5 });
    rmSync(SUITE_OUT, { recursive: true, force: true });
  }
})());
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.error(`\nhost tests: ${signal}, stopping code-server`);
    cleanup().finally(() => process.exit(130));
  });
}

try {
  server = await startCodeServer({ stateDir });
  console.log(`host tests: code-server up at ${server.url} after ${elapsed()}`);
  browser = await playwright().chromium.launch(chromiumOptions(stateDir));
  const page = await browser.newPage();
  let reportExit;
  const exited = new Promise((r) => (reportExit = r));
  await page.exposeFunction('codeAutomationLog', (type, args) => {
    const text = format(...(args ?? []));
    if (text.startsWith(SUMMARY_MARK)) summary = JSON.parse(text.slice(SUMMARY_MARK.length));
    else console.log(type === 'log' || type === 'info' ? text : `[${type}] ${text}`);
  });
  await page.exposeFunction('codeAutomationExit', (exitCode) => reportExit(exitCode));
  page.on('pageerror', (err) => console.log(`[workbench error] ${err.message}`));
  await page.goto(workbenchUrl(server, {
    folder: workspace,
    extensionDevelopmentPath: REPO,
    extensionTestsPath: join(SUITE_OUT, 'index.js'),
  }));
  let timer;
  const timedOut = new Promise((r) => (timer = setTimeout(() => r('timeout'), TIMEOUT_MS)));
  const result = await Promise.race([exited, timedOut]);
  clearTimeout(timer);
  if (result === 'timeout') console.error(`host tests: no exit code from the extension host within ${TIMEOUT_MS / 1000}s`);
  else code = result === 0 ? 0 : 1;
  if (code === 0 && !(summary?.passed > 0)) {
    console.error('host tests: the extension host exited 0 but no test ran');
    code = 1;
  }
  if (code !== 0) console.error(`---- code-server log (tail) ----\n${server.logTail()}`);
} catch (err) {
  console.error('host tests: harness failed:', err);
  if (server) console.error(`---- code-server log (tail) ----\n${server.logTail()}`);
} finally {
  await cleanup();
}
// The closing line CI reads: "N passed, N failed".
if (summary) console.log(`host: ${summary.passed} passed, ${summary.failed} failed`);
console.log(`host tests: exit ${code} after ${elapsed()}`);
process.exit(code);
