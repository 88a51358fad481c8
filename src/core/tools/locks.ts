import { acquireProcessLock, type ProcessLock } from '../fs/processLock';

export interface LockOptions {
  signal?: AbortSignal;
  /** How a key is named in a timeout error (the path as the model wrote it). */
  display?: (key: string) => string;
}

/**
 * Per-key mutexes: write/hash_edit calls on the same canonical path run one after another, calls
 * on different paths run freely. In-process holders queue here; holders in other Magi processes
 * (another VS Code window, a CLI) are kept out by a lock file per key (fs/processLock.ts), taken
 * once this process's queue has reached the caller.
 */
export class MutationLocks {
  private readonly tails = new Map<string, Promise<void>>();

  /** `lockDir`: where the cross-process lock files live (tests use their own). */
  constructor(private readonly lockDir?: string) {}

  /** Runs `work` once every earlier holder of each key has finished. Keys are taken in sorted order. */
  async withLocks<T>(keys: readonly string[], work: () => Promise<T>, options: LockOptions = {}): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    const previous = sorted.map((key) => this.tails.get(key) ?? Promise.resolve());
    const mine = sorted.map((key) => {
      const tail = Promise.all([this.tails.get(key), done]).then(() => undefined);
      this.tails.set(key, tail);
      return tail;
    });
    const held: ProcessLock[] = [];
    try {
      await Promise.all(previous);
      for (const key of sorted) {
        const lock = await acquireProcessLock(key, { ...(this.lockDir ? { dir: this.lockDir } : {}), ...(options.signal ? { signal: options.signal } : {}), display: options.display?.(key) ?? key });
        held.push(lock);
      }
      return await work();
    } finally {
      try {
        for (const lock of held.reverse()) await lock.release();
      } finally {
        release();
      }
        // Nobody queued behind us: drop the key so the map does not grow with every path ever edited.
        sorted.forEach((key, i) => {
          if (this.tails.get(key) === mine[i]) this.tails.delete(key);
        });
      }
  }

  /** Number of keys with a holder or waiter; for tests. */
  get size(): number {
    return this.tails.size;
  }
}
