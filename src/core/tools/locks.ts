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
    const mine = sorted.map((key) => {
      const tail = Promise.all([this.tails.get(key), held]).then(() => undefined);
      this.tails.set(key, tail);
      return tail;
    });
    try {
      await Promise.all(previous);
      return await work();
    } finally {
      release();
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
