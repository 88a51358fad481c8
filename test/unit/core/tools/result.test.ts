import assert from 'node:assert/strict';
import { failure, formatVisible, success } from '../../../../src/core/tools/result';

describe('formatVisible', () => {
  it('renders STATUS, PATHS first, the other metadata, then OUTPUT', () => {
    const text = formatVisible(success('body', { truncated: false, paths: ['a.ts', 'b.ts'], exit_code: 0 }));
    assert.equal(text, 'STATUS: success\nPATHS: a.ts, b.ts\nTRUNCATED: false\nEXIT_CODE: 0\nOUTPUT:\nbody');
  });

  it('omits OUTPUT for empty content and never shows display data', () => {
    const result = success('', { path: 'x' }, { diffs: [{ path: 'x', diff: 'SECRET DIFF' }] });
    assert.equal(formatVisible(result), 'STATUS: success\nPATH: x');
    assert.equal(formatVisible(failure('nope')), 'STATUS: error\nOUTPUT:\nnope');
  });
});
