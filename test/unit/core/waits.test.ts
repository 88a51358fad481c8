import { strict as assert } from 'node:assert';
import { abortable, delay, within } from '../../../src/core/waits';

/** Timers alive now (mocha keeps its own). */
const timeouts = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('abortable', () => {
  it('resolves with the work when the signal stays quiet', async () => {
    assert.equal(await abortable(Promise.resolve(7), new AbortController().signal), 7);
  });

  it('rejects with the abort reason as soon as the signal aborts, while the work still runs', async () => {
    const controller = new AbortController();
    let finish: (value: string) => void = () => undefined;
    const work = new Promise<string>((resolve) => (finish = resolve));
    const raced = abortable(work, controller.signal);
    const reason = new Error('stop');
    controller.abort(reason);
    await assert.rejects(raced, (err) => err === reason);
    finish('late');
    assert.equal(await work, 'late');
  });

  it('rejects at once for a signal that is already aborted, and wraps non-Error rejections', async () => {
    const controller = new AbortController();
    controller.abort(new Error('before'));
    await assert.rejects(abortable(new Promise(() => undefined), controller.signal), /before/);
    await assert.rejects(abortable(Promise.reject('plain'), new AbortController().signal), (err) => err instanceof Error && err.message === 'plain');
  });

  describe('delay', () => {
    it('resolves after the time, or rejects with the abort reason and clears its timer', async () => {
      await delay(5, new AbortController().signal);
      const timers = timeouts();
      const controller = new AbortController();
      const waiting = delay(60_000, controller.signal);
      controller.abort(new Error('cancelled'));
      await assert.rejects(waiting, /cancelled/);
      assert.ok(timeouts() <= timers, 'no 60 s timer left to hold the process');
      const before = new AbortController();
      before.abort(new Error('early'));
      await assert.rejects(delay(5, before.signal), /early/);
    });
  });

  describe('within', () => {
    it('gives the promise when it settles in time, else the fallback, and clears its timer', async () => {
      assert.equal(await within(new Promise<string>(() => undefined), 5, 'late'), 'late');
      const timers = timeouts();
      assert.equal(await within(Promise.resolve('fast'), 60_000, 'late'), 'fast');
      await assert.rejects(within(Promise.reject(new Error('failed')), 60_000, 'late'), /failed/);
      assert.ok(timeouts() <= timers, 'no timer left behind');
    });
  });
});
