import { strict as assert } from 'node:assert';
import { redact } from '../../../src/core/redact';

describe('redact', () => {
  it('removes given secrets and key-shaped text, keeps ordinary words', () => {
    assert.equal(redact('key hunter22 leaked', ['hunter22']), 'key [redacted] leaked');
    assert.equal(redact('Authorization: Bearer abc.def', []), 'Authorization: [redacted]');
    assert.equal(redact('use sk-proj-ABCDEFGH1234 here', []), 'use [redacted] here');
    assert.equal(redact('id 0123456789abcdef0123456789abcdef0', []), 'id [redacted]');
    assert.equal(redact("Type 'string' is not assignable to type 'number'.", ['ab']), "Type 'string' is not assignable to type 'number'.", 'short secrets and plain text are left alone');
  });

  it('redacts long tokens that mix letters and digits, and keeps slugs of words readable', () => {
    assert.equal(redact('token ghp_16C7e42F292c6912E7710c838347Ae178B4a here', []), 'token [redacted] here');
    assert.equal(redact('commit 2d72474e5b1c0a9f8e7d6c5b4a39281706f5e4d3', []), 'commit [redacted]');
    assert.equal(redact('eyJhbGciOiJIUzI1NiJ9-eyJzdWIiOiIxMjM0NTY3ODkwIn0', []), '[redacted]');
    const slug = 'https://example.com/blog/how-to-configure-the-typescript-compiler-for-monorepos-in-2024';
    assert.equal(redact(slug, []), slug);
    assert.equal(redact('see the_quick_brown_fox_jumps_over_the_lazy_dog_again', []), 'see the_quick_brown_fox_jumps_over_the_lazy_dog_again');
  });
});
