import { randomBytes } from 'node:crypto';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { errnoOf } from './paths';
import { mtimeOrNow, ownerAlive, readIfExists, userStateDir } from './processLock';

/**
 * A journal of the temp files atomic writes have in flight, so that a process killed mid-write
 * (`kill -9`, a crash) does not leave `.NAME.magi-*.tmp` files in the workspace for `git add -A` to
 * pick up: each temp file gets an entry (owner pid, host, temp path) before it is created and loses
 * it once renamed or removed; the next runtime to start removes the temp files of entries whose
 * owner is gone. The journal lives with the cross-process locks, outside every workspace.
 */

const TEMP_NAME = /^\..+\.magi-[0-9a-f]+\.tmp$/;
const EMPTY_GRACE_MS = 5_000;

function journalDir(base?: string): string {
  return path.join(base ?? userStateDir(), 'inflight');
}

/** Records `tempPath` as in flight; the returned function forgets it. */
export async function recordInflight(tempPath: string, base?: string): Promise<() => Promise<void>> {
  const dir = journalDir(base);
  await fsp.mkdir(dir, { recursive: true, mode: 0o700 });
  const entry = path.join(dir, `${process.pid}-${randomBytes(6).toString('hex')}.entry`);
  await fsp.writeFile(entry, `${process.pid}\n${os.hostname()}\n${tempPath}\n`, { mode: 0o600 });
  return () => fsp.rm(entry, { force: true });
}

/** Removes the temp files (and entries) that processes which are gone left in flight; returns how many files. */
export async function sweepInflight(base?: string): Promise<number> {
  const dir = journalDir(base);
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch (err) {
    if (errnoOf(err) === 'ENOENT') return 0;
    throw err;
  }
  let removed = 0;
  for (const name of names) {
    const entry = path.join(dir, name);
    const text = (await readIfExists(entry)) ?? '';
    // An empty entry is being written right now, unless it has been empty for a while.
    if (text === '' && Date.now() - (await mtimeOrNow(entry)) < EMPTY_GRACE_MS) continue;
    const [pid, host, tempPath] = text.split('\n');
    const owner = Number(pid);
    if (Number.isSafeInteger(owner) && owner > 0 && host && ownerAlive(owner, host)) continue;
    // Only a file named like our temp files is ever removed, whatever the entry says.
    if (tempPath && path.isAbsolute(tempPath) && TEMP_NAME.test(path.basename(tempPath))) {
      try {
        await fsp.unlink(tempPath);
        removed++;
      } catch (err) {
        if (errnoOf(err) !== 'ENOENT') throw err;
      }
    }
    await fsp.rm(entry, { force: true });
  }
  return removed;
}
