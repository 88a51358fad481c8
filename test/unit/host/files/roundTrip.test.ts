import assert from 'node:assert/strict';
import { changedRange, documentKeepsBytes } from '../../../../src/host/files/roundTrip';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');

describe('host/files/roundTrip', () => {
  describe('documentKeepsBytes', () => {
    it('accepts new text whose every line ending is the document\'s', () => {
      assert.equal(documentKeepsBytes('a\r\nb\r\n', '\r\n', bytes('a\r\nb\r\n'), bytes('a\r\nB\r\nc')), true);
      assert.equal(documentKeepsBytes('a\n', '\n', bytes('a\n'), bytes('no line ending at all')), true);
    });

    it('refuses other, mixed or lone-CR line endings', () => {
      assert.equal(documentKeepsBytes('a\n', '\n', bytes('a\n'), bytes('a\r\n')), false);
      assert.equal(documentKeepsBytes('a\r\nb\r\n', '\r\n', bytes('a\r\nb\n'), bytes('a\r\nb\nc\r\n')), false);
      assert.equal(documentKeepsBytes('a\n', '\n', bytes('a\n'), bytes('a\rb\n')), false);
    });

    it('refuses a BOM that appears or disappears, and keeps one that stays', () => {
      assert.equal(documentKeepsBytes('a\n', '\n', bytes('\uFEFFa\n'), bytes('\uFEFFb\n')), true);
      assert.equal(documentKeepsBytes('a\n', '\n', bytes('\uFEFFa\n'), bytes('b\n')), false);
      assert.equal(documentKeepsBytes('a\n', '\n', bytes('a\n'), bytes('\uFEFFb\n')), false);
    });

    it('refuses bytes that are not UTF-8, and a document that is not the disk\'s text', () => {
      assert.equal(documentKeepsBytes('a\n', '\n', bytes('a\n'), Buffer.from([0xff, 0x0a])), false);
      assert.equal(documentKeepsBytes('Ã©\n', '\n', bytes('é\n'), bytes('x\n')), false, 'decoded with another encoding');
      assert.equal(documentKeepsBytes('older\n', '\n', bytes('newer on disk\n'), bytes('x\n')), false, 'editor behind the disk');
    });
  });

  describe('changedRange', () => {
    const apply = (old: string, next: string): string => {
      const { start, oldEnd, newEnd } = changedRange(old, next);
      return old.slice(0, start) + next.slice(start, newEnd) + old.slice(oldEnd);
    };

    it('replaces only the differing middle', () => {
      assert.deepEqual(changedRange('one\ntwo\nthree\n', 'one\nTWO\nthree\n'), { start: 4, oldEnd: 7, newEnd: 7 });
      assert.deepEqual(changedRange('same', 'same'), { start: 4, oldEnd: 4, newEnd: 4 });
      assert.equal(apply('aaa', 'aaaa'), 'aaaa');
      assert.equal(apply('abcabc', 'abc'), 'abc');
    });

    it('never splits a CRLF or a surrogate pair', () => {
      const { start, oldEnd } = changedRange('a\r\nb', 'a\r\r\nb');
      assert.notEqual('a\r\nb'[start - 1], '\r');
      assert.notEqual('a\r\nb'[oldEnd], '\n');
      const emoji = changedRange('x\u{1F600}y', 'x\u{1F601}y');
      assert.deepEqual(emoji, { start: 1, oldEnd: 3, newEnd: 3 });
      assert.equal(apply('a\r\nb', 'a\r\r\nb'), 'a\r\r\nb');
    });
  });
});
