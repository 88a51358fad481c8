import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { MutationLocks } from '../../../../src/core/tools/locks';

describe('MutationLocks', () => {
  it('runs holders of one key one at a time, in arrival order', async () => {
    const locks = new MutationLocks();
    const events: string[] = [];
    const job = (name: string, ms: number) =>
      locks.withLocks(['a'], async () => {
        events.push(`start ${name}`);
        await sleep(ms);
        events.push(`end ${name}`);
      });
    await Promise.all([job('1', 20), job('2', 1), job('3', 5)]);
    assert.deepEqual(events, ['start 1', 'end 1', 'start 2', 'end 2', 'start 3', 'end 3']);
    assert.equal(locks.size, 0);
  });

  it('lets different keys run concurrently and multi-key holders wait for each key', async () => {
    const locks = new MutationLocks();
    const events: string[] = [];
    // a finishes only once b has run: were different keys not concurrent, this would never end.
    let bRan!: () => void;
    const bDone = new Promise<void>((resolve) => (bRan = resolve));
    const a = locks.withLocks(['a'], async () => {
      events.push('a');
      await bDone;
      events.push('a done');
    });
    const b = locks.withLocks(['b'], async () => {
      events.push('b');
      bRan();
    });
    const ab = locks.withLocks(['b', 'a'], async () => {
      events.push('ab');
    });
    await Promise.all([a, b, ab]);
    // a and b start in either order (each takes its cross-process lock file first).
    assert.deepEqual(events.slice(0, 2).sort(), ['a', 'b']);
    assert.deepEqual(events.slice(2), ['a done', 'ab']);
  });

  it('releases the key when the holder throws', async () => {
    const locks = new MutationLocks();
    await assert.rejects(locks.withLocks(['k'], async () => Promise.reject(new Error('boom'))), /boom/);
    assert.equal(await locks.withLocks(['k'], async () => 42), 42);
  });
});
