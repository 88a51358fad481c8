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
});
