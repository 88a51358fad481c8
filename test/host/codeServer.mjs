// Starts and stops code-server (VS Code 1.100.3's own server, with the real Node extension host) for
// the host tests (test/host/run.mjs) and for `npm start` (scripts/start.mjs).
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const HARNESS_DIR = dirname(fileURLToPath(import.meta.url));
const CS_ENTRY = join(HARNESS_DIR, 'node_modules/code-server/out/node/entry.js');

/** Installs the harness if needed (test/host/setup.sh: apt packages, code-server, playwright-core); fast when done. */
export function ensureHarness() {
  const setup = spawnSync('bash', [join(HARNESS_DIR, 'setup.sh')], { stdio: 'inherit' });
  if (setup.status !== 0) throw new Error(`test/host/setup.sh failed (exit ${setup.status ?? setup.signal})`);
}

/** playwright-core from the harness's own node_modules. */
export function playwright() {
  return createRequire(join(HARNESS_DIR, 'package.json'))('playwright-core');
}

/** Environment that keeps a program's config, cache and runtime files under `dir`, out of the home folder. */
function throwawayHome(dir) {
  const env = { ...process.env, HOME: join(dir, 'home') };
  for (const [name, sub] of [['XDG_CONFIG_HOME', 'config'], ['XDG_DATA_HOME', 'data'], ['XDG_CACHE_HOME', 'cache'], ['XDG_RUNTIME_DIR', 'run']]) {
    env[name] = join(dir, sub);
    mkdirSync(env[name], { recursive: true, mode: 0o700 });
  }
  return env;
}

/** Headless Chromium launch options that work as root in a container, with its state under `stateDir`. */
export function chromiumOptions(stateDir) {
  return {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--disable-gpu'],
    env: throwawayHome(join(stateDir, 'chromium')),
    // Our own handlers close the browser and then stop code-server; playwright's would exit first.
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  };
}

/** The `payload` query parameter that asks the remote extension host to load a development extension. */
export function workbenchUrl(server, { folder, extensionDevelopmentPath, extensionTestsPath }) {
  // code-server's remote authority is literally `remote`.
  const payload = [['extensionDevelopmentPath', `vscode-remote://remote${extensionDevelopmentPath}`], ['skipWelcome', 'true']];
  if (extensionTestsPath) payload.push(['extensionTestsPath', `vscode-remote://remote${extensionTestsPath}`]);
  return `${server.url}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const USER_SETTINGS = {
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'telemetry.telemetryLevel': 'off',
  'workbench.startupEditor': 'none',
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
  // keeps tsserver from reaching the registry for type acquisition
  'typescript.disableAutomaticTypeAcquisition': true,
  // the sample workspace of `npm start` sits inside this repository
  'git.openRepositoryInParentFolders': 'never',
};

function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (err) {
    if (err.code === 'ESRCH') return false; // no process left in the group
    if (err.code === 'EPERM') return true; // alive, just not ours to signal
    throw err;
  }
}

/**
 * Starts code-server on 127.0.0.1 at `port` (default: a free one), with every piece of state (user data, extensions,
 * home and XDG dirs, log) under `stateDir`, in a process group of its own (its extension hosts, watchers and
 * tsserver join it), and waits for /healthz. The returned `stop()` ends that whole group; it also
 * runs when this process exits, so the extension host never outlives the caller. `userSettings`
 * are written over the harness's defaults into the user settings.json before the server starts.
 */
export async function startCodeServer({ stateDir, port, extraArgs = [], userSettings = {} }) {
  if (!existsSync(CS_ENTRY)) throw new Error('code-server is not installed: run bash test/host/setup.sh');
  for (const dir of ['user/User', 'exts']) mkdirSync(join(stateDir, dir), { recursive: true });
  writeFileSync(join(stateDir, 'user/User/settings.json'), JSON.stringify({ ...USER_SETTINGS, ...userSettings }, null, 2));
  writeFileSync(join(stateDir, 'config.yaml'), 'auth: none\n');
  port ??= await freePort();
  const log = join(stateDir, 'code-server.log');
  const logFd = openSync(log, 'a');
  const child = spawn(process.execPath, [
    CS_ENTRY, '--config', join(stateDir, 'config.yaml'), '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`,
    '--user-data-dir', join(stateDir, 'user'), '--extensions-dir', join(stateDir, 'exts'),
    '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', '--disable-getting-started-override',
    '--ignore-last-opened', ...extraArgs,
  ], {
    detached: true, // setsid(): a new session and process group, ended as one in stop()
    stdio: ['ignore', logFd, logFd],
    env: {
      ...throwawayHome(join(stateDir, 'server')),
      // No marketplace: without a gallery the workbench makes no extension queries off this machine.
      EXTENSIONS_GALLERY: '{}',
    },
  });
  closeSync(logFd);
  const pid = child.pid;
  let exited = false;
  const closed = new Promise((r) => child.once('exit', (code, signal) => r(code ?? signal)));
  closed.then(() => (exited = true));
  const killNow = () => {
    if (groupAlive(pid)) process.kill(-pid, 'SIGKILL');
  };
  process.once('exit', killNow);

  const server = {
    url: `http://127.0.0.1:${port}`,
    pid,
    log,
    /** Resolves with the exit code (or signal) when the server process ends. */
    closed,
    logTail: (lines = 80) => readFileSync(log, 'utf8').split('\n').slice(-lines).join('\n'),
    /** Ends the server's whole process group: SIGTERM, then SIGKILL after 3 s (the extension host may ignore SIGTERM). Never throws. */
    async stop() {
      process.removeListener('exit', killNow);
      if (!groupAlive(pid)) return;
      process.kill(-pid, 'SIGTERM');
      for (let i = 0; i < 30 && groupAlive(pid); i++) await sleep(100);
      killNow();
      for (let i = 0; i < 20 && groupAlive(pid); i++) await sleep(100);
    },
  };

  const deadline = Date.now() + 60_000;
  for (;;) {
    if (exited) throw new Error(`code-server exited during startup:\n${server.logTail()}`);
    if (await healthy(server.url)) return server;
    if (Date.now() > deadline) {
      await server.stop();
      throw new Error(`code-server did not answer /healthz within 60 s:\n${server.logTail()}`);
    }
    await sleep(200);
  }
}

async function healthy(url) {
  try {
    return (await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) })).ok;
  } catch (err) {
    // Not up yet (connection refused, or no answer within 2 s): the caller polls again.
    if (err.name === 'TimeoutError' || err.cause?.code === 'ECONNREFUSED' || err.cause?.code === 'ECONNRESET') return false;
    throw err;
  }
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
