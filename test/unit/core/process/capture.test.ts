import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { BoundedCapture, clipUtf8 } from '../../../../src/core/process/capture';

describe('BoundedCapture', () => {
  it('keeps everything under the cap', () => {
    const c = new BoundedCapture(8, 8);
    c.push(Buffer.from('hello '));
    c.push(Buffer.from('world'));
    assert.deepEqual(c.result(), { text: 'hello world', bytesSeen: 11, bytesOmitted: 0, truncated: false, binary: false });
  });

  it('keeps the head and the tail and counts what it dropped', () => {
    const c = new BoundedCapture(4, 4);
    for (const part of ['abc', 'defgh', 'ijklmnop', 'qr']) c.push(Buffer.from(part));
    const r = c.result();
    assert.equal(r.text, 'abcd\n[… 10 bytes omitted …]\nopqr');
    assert.equal(r.bytesSeen, 18);
    assert.equal(r.bytesOmitted, 10);
    assert.ok(r.truncated);
  });

  it('matches head + tail of the whole stream for any chunking', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary-ascii', maxLength: 40 }), { maxLength: 20 }), fc.integer({ min: 1, max: 16 }), fc.integer({ min: 1, max: 16 }), (parts, h, t) => {
        const c = new BoundedCapture(h, t);
        for (const p of parts) c.push(Buffer.from(p.replace(/\0/g, 'x'), 'latin1'));
        const all = Buffer.from(parts.join('').replace(/\0/g, 'x'), 'latin1').toString('latin1');
        const r = c.result();
        assert.equal(r.bytesSeen, all.length);
        if (all.length <= h + t) assert.equal(r.truncated, false);
        else {
          assert.equal(r.bytesOmitted, all.length - h - t);
          assert.ok(r.text.includes(`[… ${all.length - h - t} bytes omitted …]`));
        }
      }),
    );
  });

  it('drops characters cut at the boundaries instead of calling them invalid', () => {
    const c = new BoundedCapture(4, 4);
    c.push(Buffer.from('ééééééééé'));
    const r = c.result();
    assert.equal(r.binary, false);
    assert.match(r.text, /^éé\n\[… \d+ bytes omitted …\]\néé$/);
  });

  it('decodes invalid UTF-8 and NUL lossily, flagged, within the cap', () => {
    const c = new BoundedCapture(8, 8);
    c.push(Buffer.from([0xff, 0xfe, 0x00, 0x61, 0x62, 0x63]));
    assert.deepEqual(c.result(), { text: '\uFFFD\uFFFD\uFFFDabc', bytesSeen: 6, bytesOmitted: 0, truncated: false, binary: true });
    const big = new BoundedCapture(8, 8);
    big.push(Buffer.alloc(16, 0xff));
    const r = big.result();
    assert.ok(r.binary);
    assert.ok(Buffer.byteLength(r.text.replace(/\n\[… \d+ bytes omitted …\]\n/, '')) <= 16);
  });

  it('clipUtf8 never splits a character', () => {
    assert.equal(clipUtf8('aé€', 4, 'start'), 'aé');
    assert.equal(clipUtf8('aé€', 4, 'end'), '€');
  });
});
