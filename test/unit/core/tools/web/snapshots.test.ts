import assert from 'node:assert/strict';
import { MAX_SNAPSHOT_BYTES, MAX_SNAPSHOTS, PageSnapshots } from '../../../../../src/core/tools/web/snapshots';

describe('PageSnapshots', () => {
  it('keeps the newest 64 pages and evicts the oldest', () => {
    const pages = new PageSnapshots();
    const refs = Array.from({ length: MAX_SNAPSHOTS + 1 }, (_, i) => pages.add({ url: `https://example.com/${i}`, title: undefined, text: `page ${i}`, truncated: false }).reference);
    assert.equal(pages.size, MAX_SNAPSHOTS);
    assert.equal(pages.get(refs[0] as string), undefined);
    assert.equal(pages.get(refs[MAX_SNAPSHOTS] as string)?.text, `page ${MAX_SNAPSHOTS}`);
  });

  it('stores at most 40,000 bytes of a page, cut between characters, and marks it truncated', () => {
    const pages = new PageSnapshots();
    const snapshot = pages.add({ url: 'https://example.com/', title: 'T', text: '€'.repeat(20_000), truncated: false });
    assert.ok(Buffer.byteLength(snapshot.text) <= MAX_SNAPSHOT_BYTES);
    assert.equal(Buffer.byteLength(snapshot.text), 39_999);
    assert.ok(!snapshot.text.includes('\uFFFD'));
    assert.equal(snapshot.truncated, true);
  });

  it('snapshots are immutable; the same URL and text give the same reference, other text another', () => {
    const pages = new PageSnapshots();
    const a = pages.add({ url: 'https://example.com/', title: undefined, text: 'one', truncated: false });
    assert.throws(() => ((a as { text: string }).text = 'two'));
    assert.equal(pages.add({ url: 'https://example.com/', title: undefined, text: 'one', truncated: false }), a);
    assert.notEqual(pages.add({ url: 'https://example.com/', title: undefined, text: 'two', truncated: false }).reference, a.reference);
  });
});
