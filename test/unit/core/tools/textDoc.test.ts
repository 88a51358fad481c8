import assert from 'node:assert/strict';
import fc from 'fast-check';
import { contentTag, decodeUtf8, dominantEol, parseText, serializeText } from '../../../../src/core/tools/textDoc';

describe('textDoc', () => {
  it('splits lines keeping each terminator, the final-newline state and the BOM', () => {
    assert.deepEqual(parseText('\uFEFFa\r\nb\nc'), { bom: true, lines: ['a', 'b', 'c'], eols: ['\r\n', '\n', ''] });
    assert.deepEqual(parseText(''), { bom: false, lines: [], eols: [] });
    assert.deepEqual(parseText('\n\n'), { bom: false, lines: ['', ''], eols: ['\n', '\n'] });
  });

  it('round-trips any text exactly', () => {
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('a', 'é', '\n', '\r', '\r\n', '\uFEFF', ' ') }), (text) => assert.equal(serializeText(parseText(text)), text)));
  });

  it('picks the dominant line ending, LF when there is none', () => {
    assert.equal(dominantEol(parseText('a\r\nb\r\nc\n')), '\r\n');
    assert.equal(dominantEol(parseText('single')), '\n');
  });

  it('tags content with 6 uppercase hex digits that change with any byte', () => {
    assert.match(contentTag('x'), /^[0-9A-F]{6}$/);
    assert.notEqual(contentTag('a\n'), contentTag('a\r\n'));
  });

  it('decodes strict UTF-8 and names binary and invalid files', () => {
    assert.equal(decodeUtf8(Buffer.from('\uFEFFhé'), 'f'), '\uFEFFhé');
    assert.throws(() => decodeUtf8(Buffer.from([0x61, 0x00]), 'f.bin'), /f\.bin looks like a binary file/);
    assert.throws(() => decodeUtf8(Buffer.from([0xc3, 0x28]), 'f.txt'), /f\.txt is not valid UTF-8/);
  });
});
