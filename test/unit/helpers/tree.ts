import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { WalkEnvironment } from '../../../src/core/workspace/types';

/** A file's text, a symlink, a FIFO, or (for a key ending in `/`) an empty folder. */
export type TreeNode = string | Buffer | { symlink: string } | { fifo: true } | null;

/** Creates files, folders, symlinks and FIFOs below `root`, parents included. */
export async function writeTree(root: string, tree: Record<string, TreeNode>): Promise<void> {
  for (const [rel, node] of Object.entries(tree)) {
    const abs = path.join(root, rel);
    if (rel.endsWith('/')) {
      await fsp.mkdir(abs, { recursive: true });
      continue;
    }
    await fsp.mkdir(path.dirname(abs), { recursive: true });
    if (node === null) await fsp.mkdir(abs, { recursive: true });
    else if (typeof node === 'string' || Buffer.isBuffer(node)) await fsp.writeFile(abs, node);
    else if ('symlink' in node) await fsp.symlink(node.symlink, abs);
    else execFileSync('mkfifo', [abs]);
  }
}

/** A fresh canonical temp folder. */
export async function tempDir(prefix = 'magi-walk-'): Promise<string> {
  return fsp.realpath(await fsp.mkdtemp(path.join(os.tmpdir(), prefix)));
}

/**
 * A home of its own (no ~/.gitconfig, no ~/.p4enviro unless a test writes one), so that neither
 * the walker nor a git child reads the real user's files.
 */
export function isolatedEnvironment(home: string, env: Record<string, string> = {}): WalkEnvironment {
  return { home, env: { HOME: home, ...env }, platform: 'linux' };
}

/** Runs git with the environment's HOME and XDG_CONFIG_HOME, and without the system config. */
export function git(cwd: string, args: string[], environment: WalkEnvironment): string {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: '1', HOME: environment.home, LANG: 'C' };
  const xdg = environment.env.XDG_CONFIG_HOME;
  if (xdg !== undefined) env.XDG_CONFIG_HOME = xdg;
  // stderr is captured (it carries warnings such as git's refusal of a symlinked .gitignore).
  return execFileSync('git', args, { cwd, env, maxBuffer: 256 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] }).toString();
}

export function gitAvailable(): boolean {
  try {
    execFileSync('git', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Byte order of UTF-8 paths. */
export function byteSorted(paths: string[]): string[] {
  return [...paths].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
}

/**
 * What git lists as the work tree's files — `git ls-files --cached --others --exclude-standard` —
 * less hidden paths (a component starting with a dot), which the walker skips; byte order.
 */
export function gitFiles(cwd: string, environment: WalkEnvironment): string[] {
  const out = git(cwd, ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], environment);
  return byteSorted(out.split('\0').filter((p) => p !== '' && !p.split('/').some((part) => part.startsWith('.'))));
}
