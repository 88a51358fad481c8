/**
 * Per-key async mutexes: write/hash_edit calls on the same canonical path run one after another,
 * calls on different paths run freely.
 */
export class MutationLocks {
  private readonly tails = new Map<string, Promise<void>>();

  /** Runs `work` once every earlier holder of each key has finished. Keys are taken in sorted order. */
  async withLocks<T>(keys: readonly string[], work: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const previous = sorted.map((key) => this.tails.get(key) ?? Promise.resolve());
    for (const key of sorted) {
      const tail = Promise.all([this.tails.get(key), held]).then(() => undefined);
      this.tails.set(key, tail);
      void tail.then(() => {
        if (this.tails.get(key) === tail) this.tails.delete(key);
      });
    }
    try {
      await Promise.all(previous);
      return await work();
    } finally {
      release();
    }
  }

  /** Number of keys with a holder or waiter; for tests. */
  get size(): number {
    return this.tails.size;
  }
}
