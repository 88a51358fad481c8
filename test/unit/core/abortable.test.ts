import { strict as assert } from 'node:assert';
import { abortable } from '../../../src/core/abortable';

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
});
