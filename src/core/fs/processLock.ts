import { createHash, randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ToolError } from '../tools/errors';
import { delay } from '../waits';
import { errnoOf } from './paths';

/**
 * A lock per file shared by every Magi process of this user on this machine: the extension in two
 * VS Code windows, a CLI next to them. It is a file created with O_EXCL in a private folder of the
 * temp dir (never in the workspace, where `git add -A` would pick it up), holding the owner's pid,
 * host and a token. A lock whose owner process is gone is taken over: it is first renamed away and
 * checked to be the dead owner's, so two waiters cannot both take it. The one race left: a waiter
 * that renamed a lock just re-created by a live owner puts it back with link(), which fails only if
 * a third process created one in that instant.
 */

export interface ProcessLockOptions {
  /** Folder of the lock files; defaults to a per-user folder in the temp dir. */
  dir?: string;
  /** How long to wait for another process's lock before giving up. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** How the key is shown in the error a timeout gives. */
  display?: string;
}

export interface ProcessLock {
  release(): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 30_000;
/** A lock file still without a readable owner after this long was left half-written. */
const UNREADABLE_GRACE_MS = 5_000;

/** This user's folder for Magi's cross-process state on this machine (locks, in-flight temp files). */
export function userStateDir(): string {
  const user = typeof process.getuid === 'function' ? String(process.getuid()) : os.userInfo().username;
  return path.join(os.tmpdir(), `magi-locks-${user}`);
}

interface Owner {
  pid: number;
  host: string;
  token: string;
}

function parseOwner(text: string): Owner | undefined {
  const [pid, host, token] = text.split('\n');
  const value = Number(pid);
  return Number.isSafeInteger(value) && value > 0 && host && token ? { pid: value, host, token } : undefined;
}

/** Whether process `pid` of `host` may still be running (a process on another host is assumed to be). */
export function ownerAlive(pid: number, host: string): boolean {
  if (host !== os.hostname()) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but is someone else's.
    return errnoOf(err) === 'EPERM';
  }
}

/** A file's text, or undefined when it does not exist. */
export async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await fsp.readFile(file, 'utf8');
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return undefined;
    throw err;
  }
}

/** Takes `key`'s lock, waiting (with backoff) while a live process holds it. */
export async function acquireProcessLock(key: string, options: ProcessLockOptions = {}): Promise<ProcessLock> {
  const dir = options.dir ?? userStateDir();
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${createHash('sha256').update(key).digest('hex').slice(0, 40)}.lock`);
  const token = randomBytes(12).toString('hex');
  const mine = `${process.pid}\n${os.hostname()}\n${token}\n${key}\n`;
  const signal = options.signal ?? new AbortController().signal;
  const started = Date.now();
  for (let attempt = 0; ; attempt++) {
    signal.throwIfAborted();
    if (await tryCreate(file, mine)) return { release: () => releaseLock(file, token) };
    const text = await readIfExists(file);
    if (text === undefined) continue;
    const owner = parseOwner(text);
    const gone = owner ? !ownerAlive(owner.pid, owner.host) : Date.now() - (await mtimeOrNow(file)) > UNREADABLE_GRACE_MS;
    if (gone) {
      await takeOver(file, text, token);
      continue;
    }
    if (Date.now() - started > (options.timeoutMs ?? DEFAULT_TIMEOUT_MS)) {
      const who = owner ? `another Magi process (pid ${owner.pid}${owner.host === os.hostname() ? '' : ` on ${owner.host}`})` : 'another Magi process';
      throw new ToolError(`${who} has been editing ${options.display ?? key} for ${Math.round((Date.now() - started) / 1000)} s (it may be waiting for a review); nothing was written. Retry when it is done.`, 'conflict');
    }
    await delay(Math.min(100, 2 ** Math.min(attempt, 6)), signal);
  }
}

async function tryCreate(file: string, content: string): Promise<boolean> {
  let handle;
  try {
    handle = await fsp.open(file, 'wx', 0o600);
  } catch (err) {
    if (errnoOf(err) === 'EEXIST') return false;
    throw err;
  }
  try {
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
  return true;
}

/** A file's mtime, or now for a file already gone. */
export async function mtimeOrNow(file: string): Promise<number> {
  try {
    return (await fsp.stat(file)).mtimeMs;
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return Date.now();
    throw err;
  }
}

/** Moves the dead owner's lock away; a lock that turns out to be someone else's is put back. */
async function takeOver(file: string, deadOwner: string, token: string): Promise<void> {
  const aside = `${file}.${token}.stale`;
  try {
    await fsp.rename(file, aside);
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return;
    throw err;
  }
  if ((await readIfExists(aside)) !== deadOwner) {
    try {
      await fsp.link(aside, file);
    } catch (err) {
      if (errnoOf(err) !== 'EEXIST') throw err;
    }
  }
  await fsp.rm(aside, { force: true });
}

/** Removes the lock file only while it is still this holder's. */
async function releaseLock(file: string, token: string): Promise<void> {
  const owner = parseOwner((await readIfExists(file)) ?? '');
  if (owner?.token === token) await fsp.rm(file, { force: true });
}
