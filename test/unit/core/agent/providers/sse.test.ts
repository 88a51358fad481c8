import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { SseParser, type SseMessage } from '../../../../../src/core/agent/providers/sse';

function parseAll(chunks: Uint8Array[]): SseMessage[] {
  const parser = new SseParser();
  const out = chunks.flatMap((chunk) => parser.push(chunk));
  return [...out, ...parser.end()];
}

// Every line ending the standard allows, a comment, a multi-line data field, a field without a
// space, 2-, 3- and 4-byte UTF-8 characters, a message without data and an unterminated tail.
const STREAM = Buffer.from(
  ': keep-alive\r\n' +
    'event: content_block_delta\r\n' +
    'data: {"text":"héllo €"}\r\n\r\n' +
    'data: line one\n' +
    'data:line two 🎉\n\n' +
    'event: ping\r\r' +
    'id: 7\r' +
    'data: after CR\r\r' +
    'data\n\n' +
    'data: [DONE]\n\n' +
    'data: cut off',
);
const EXPECTED: SseMessage[] = [
  { event: 'content_block_delta', data: '{"text":"héllo €"}' },
  { event: 'message', data: 'line one\nline two 🎉' },
  { event: 'message', data: 'after CR' },
  { event: 'message', data: '' },
  { event: 'message', data: '[DONE]' },
];

describe('SseParser', () => {
  it('parses a whole stream: CRLF, LF and CR endings, comments, multi-line data; drops the unterminated tail', () => {
    assert.deepEqual(parseAll([STREAM]), EXPECTED);
  });

  it('gives the same messages when the stream is split at any byte offset', () => {
    for (let cut = 0; cut <= STREAM.length; cut++) {
      assert.deepEqual(parseAll([STREAM.subarray(0, cut), STREAM.subarray(cut)]), EXPECTED, `split at byte ${cut}`);
    }
  });

  it('gives the same messages one byte at a time', () => {
    assert.deepEqual(parseAll([...STREAM].map((byte) => Uint8Array.of(byte))), EXPECTED);
  });

  it('gives the same messages for any chunking', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: STREAM.length - 1 }), { maxLength: 12 }), (cuts) => {
        const bounds = [0, ...cuts.sort((a, b) => a - b), STREAM.length];
        const chunks = bounds.slice(1).map((end, i) => STREAM.subarray(bounds[i], end));
        assert.deepEqual(parseAll(chunks), EXPECTED);
      }),
    );
  });

  it('drops a leading byte-order mark and treats a CR split from its LF as one line break', () => {
    const parser = new SseParser();
    assert.deepEqual(parser.push(Buffer.from('\uFEFFdata: a\r')), []);
    assert.deepEqual(parser.push(Buffer.from('\n\r')), [{ event: 'message', data: 'a' }]);
    assert.deepEqual(parser.push(Buffer.from('\ndata: b\n\n')), [{ event: 'message', data: 'b' }]);
  });
});
