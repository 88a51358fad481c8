import assert from 'node:assert/strict';
import fc from 'fast-check';
import { compareBytes } from '../../../../src/core/workspace/pathOrder';

describe('pathOrder', () => {
  it('compareBytes agrees with comparing the UTF-8 bytes, astral characters included', () => {
    const text = fc.string({ unit: fc.oneof(fc.constantFrom('a', 'B', '/', '-', '.', 'é', '\uE000', '\uFFFD', '\u{1F600}', '\u{10000}'), fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 })), maxLength: 6 });
    fc.assert(
      fc.property(text, text, (a, b) => {
        assert.equal(Math.sign(compareBytes(a, b)), Math.sign(Buffer.compare(Buffer.from(a), Buffer.from(b))));
      }),
      { numRuns: 2000 },
    );
  });
});
