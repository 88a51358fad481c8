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
    const a = locks.withLocks(['a'], async () => {
      events.push('a');
      await sleep(20);
      events.push('a done');
    });
    const b = locks.withLocks(['b'], async () => {
      events.push('b');
    });
    const ab = locks.withLocks(['b', 'a'], async () => {
      events.push('ab');
    });
    await Promise.all([a, b, ab]);
    assert.deepEqual(events, ['a', 'b', 'a done', 'ab']);
  });

  it('releases the key when the holder throws', async () => {
    const locks = new MutationLocks();
    await assert.rejects(locks.withLocks(['k'], async () => Promise.reject(new Error('boom'))), /boom/);
    assert.equal(await locks.withLocks(['k'], async () => 42), 42);
  });
});
