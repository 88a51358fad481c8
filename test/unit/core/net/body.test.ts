import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { readCapped } from '../../../../src/core/net/body';

describe('readCapped', () => {
  const body = (...chunks: string[]) => Readable.from(chunks.map((c) => Buffer.from(c)), { objectMode: false });

  it('reads a body up to the cap whole', async () => {
    assert.deepEqual(await readCapped(body('abc', 'def'), 6), { bytes: Buffer.from('abcdef'), truncated: false });
  });

  it('cuts a longer body at the cap and stops reading it', async () => {
    const stream = body('abc', 'def', 'ghi');
    const { bytes, truncated } = await readCapped(stream, 4);
    assert.equal(bytes.toString(), 'abcd');
    assert.equal(truncated, true);
    assert.equal(stream.destroyed, true);
  });
});
