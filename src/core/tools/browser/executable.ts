import { accessSync, constants, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ToolError } from '../errors';

export const EXECUTABLE_SETTING = 'capabilities.tools.browser.executable_path';

/** Where Chromium, Chrome and Edge install themselves, most likely first, per platform. */
export function defaultCandidates(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): string[] {
  if (platform === 'darwin') {
    const apps = ['Google Chrome.app/Contents/MacOS/Google Chrome', 'Chromium.app/Contents/MacOS/Chromium', 'Microsoft Edge.app/Contents/MacOS/Microsoft Edge', 'Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary'];
    return [...apps.map((app) => `/Applications/${app}`), ...apps.map((app) => path.join(os.homedir(), 'Applications', app))];
  }
  if (platform === 'win32') {
    const roots = [env.PROGRAMFILES, env['PROGRAMFILES(X86)'], env.LOCALAPPDATA].filter((root): root is string => typeof root === 'string' && root !== '');
    const apps = ['Google\\Chrome\\Application\\chrome.exe', 'Chromium\\Application\\chrome.exe', 'Microsoft\\Edge\\Application\\msedge.exe'];
    return roots.flatMap((root) => apps.map((app) => path.win32.join(root, app)));
  }
  return ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable', '/usr/bin/microsoft-edge', '/snap/bin/chromium', '/opt/google/chrome/chrome'];
}

function isExecutableFile(file: string): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    accessSync(file, constants.X_OK);
    return true;
  } catch (err) {
    if (err instanceof Error && 'code' in err) return false;
    throw err;
  }
}

function installGuidance(looked: readonly string[]): string {
  return [
    `browser: no Chromium, Chrome or Edge found${looked.length > 0 ? ` (looked at ${looked.join(', ')})` : ''}.`,
    'Install one — Debian/Ubuntu: sudo apt-get install chromium; Fedora: sudo dnf install chromium; macOS/Windows: Google Chrome from google.com/chrome; or `npx playwright install chromium` —',
    `or set ${EXECUTABLE_SETTING} (VS Code: magi.${EXECUTABLE_SETTING}) to the browser's executable,`,
    'or use mode "connect" with a Chrome started with --remote-debugging-port=9222.',
  ].join(' ');
}

/**
 * The browser to launch: the configured path (which must exist and be executable), else the first
 * installed candidate, else Playwright's own download if one exists. Throws install guidance.
 */
export function findExecutable(configured: unknown, candidates: readonly string[], playwrightDownload?: string): string {
  if (configured !== undefined && configured !== null && configured !== '') {
    if (typeof configured !== 'string' || !path.isAbsolute(configured)) throw new ToolError(`browser: setting ${EXECUTABLE_SETTING} must be the absolute path of a Chromium-based browser, not ${JSON.stringify(configured)}.`);
    if (!isExecutableFile(configured)) throw new ToolError(`browser: ${EXECUTABLE_SETTING} is ${configured}, which is not an executable file; fix the setting or clear it to let Magi look for an installed browser.`);
    return configured;
  }
  const found = candidates.find(isExecutableFile) ?? (playwrightDownload !== undefined && isExecutableFile(playwrightDownload) ? playwrightDownload : undefined);
  if (found === undefined) throw new ToolError(installGuidance(candidates), 'not_found');
  return found;
}
