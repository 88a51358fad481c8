// `npm start`: install and build as needed, then open the extension in a real VS Code.
// - With a desktop `code` on PATH: `code --extensionDevelopmentPath=<repo> <sample workspace>`.
// - Otherwise: code-server (test/host/setup.sh installs it) on 127.0.0.1 with the extension loaded
//   as a development extension; prints the URL and serves until Ctrl-C, then stops code-server.
// Env: MAGI_PORT picks the port (default: a free one).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const SAMPLE = join(REPO, 'test/host/.state/sample-workspace');

function run(command, args) {
  const result = spawnSync(command, args, { cwd: REPO, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error(`start: \`${command} ${args.join(' ')}\` failed`);
    process.exit(result.status ?? 1);
  }
}

function onPath(name) {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => dir && existsSync(join(dir, name)));
}

if (!existsSync(join(REPO, 'node_modules/.package-lock.json'))) run('npm', ['ci', '--no-audit', '--no-fund']);
run(process.execPath, ['esbuild.mjs']);
// A sample workspace of its own, kept between starts so what you try in it stays.
if (!existsSync(SAMPLE)) cpSync(join(REPO, 'test/host/fixtures/workspace'), SAMPLE, { recursive: true });

if (onPath('code')) {
  run('code', [`--extensionDevelopmentPath=${REPO}`, SAMPLE]);
  console.log(`start: VS Code opened ${SAMPLE} with Magi Code loaded from ${REPO}`);
  process.exit(0);
}

// No desktop VS Code: serve one from code-server.
const { ensureHarness, startCodeServer, workbenchUrl } = await import('../test/host/codeServer.mjs');
ensureHarness();
const stateDir = mkdtempSync(join(tmpdir(), 'magi-start-'));
const server = await startCodeServer({ stateDir, port: process.env.MAGI_PORT ? Number(process.env.MAGI_PORT) : undefined });
const url = workbenchUrl(server, { folder: SAMPLE, extensionDevelopmentPath: REPO });

let stopping = false;
const stop = async (signal) => {
  if (stopping) return;
  stopping = true;
  console.log(`\nstart: ${signal}, stopping code-server`);
  await server.stop();
  rmSync(stateDir, { recursive: true, force: true, maxRetries: 5 });
  process.exit(0);
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => void stop(signal));

console.log(`
Magi Code is running in VS Code (code-server ${server.url}, log: ${server.log}).
Open this URL in a browser (the page loads the extension from ${REPO}):

${url}

Run "Magi: Run Tool…" from the command palette (F1). After \`npm run build\`, reload the page.
Ctrl-C stops the server.`);
// The server's child handle keeps this process alive until a signal arrives or the server dies.
server.closed.then((how) => {
  if (stopping) return;
  console.error(`start: code-server ended (${how}); last lines of its log:\n${server.logTail(40)}`);
  process.exit(1);
});
