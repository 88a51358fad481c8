import { strict as assert } from 'node:assert';
import { pendingSummary } from '../../../../src/core/agent/toolSummary';

describe('pendingSummary', () => {
  it('shows ast_grep operation, pattern, language and path, search being the default', () => {
    assert.deepEqual(pendingSummary('ast_grep', { pattern: 'foo($A)', rewrite: 'bar($A)', path: 'src', language: 'rust' }), {
      operation: 'search', pattern: 'foo($A)', language: 'rust', path: 'src',
    });
    assert.deepEqual(pendingSummary('ast_grep', { operation: 'outline', path: 'src', pattern: null }), { operation: 'outline', path: 'src' });
  });

  it('shows repo_map path and query, nothing else', () => {
    assert.deepEqual(pendingSummary('repo_map', { path: 'src', query: 'session', maxTokens: 2048 }), { path: 'src', query: 'session' });
    assert.deepEqual(pendingSummary('repo_map', {}), {});
  });

  it('shows web operation, query, reference and only the origin and path of a URL', () => {
    assert.deepEqual(pendingSummary('web', { operation: 'open', url: 'https://user:pw@example.com/a/b?token=s3cret#x' }), { operation: 'open', url: 'https://example.com/a/b' });
    assert.deepEqual(pendingSummary('web', { operation: 'search', query: 'rust' }), { operation: 'search', query: 'rust' });
  });

  it('shows view_image the file name and the start of the prompt, never folders or bytes', () => {
    assert.deepEqual(pendingSummary('view_image', { path: '/home/me/secret-project/shots/error.PNG', prompt: 'Read the dialog text' }), { path: 'error.PNG', prompt: 'Read the dialog text' });
    const long = pendingSummary('view_image', { path: 'C:\\Users\\me\\a.png', prompt: 'x'.repeat(500) });
    assert.equal(long.path, 'a.png');
    assert.equal(long.prompt, `${'x'.repeat(80)}…`);
  });

  it('shows a browser command without what it types and an opened URL as origin and path', () => {
    assert.deepEqual(pendingSummary('browser', { command: 'fill @e5 hunter2 is my password' }), { command: 'fill @e5 (22 characters)' });
    assert.deepEqual(pendingSummary('browser', { command: 'type e7 "secret"', mode: 'headed' }), { command: 'type e7 (8 characters)', mode: 'headed' });
    assert.deepEqual(pendingSummary('browser', { command: 'select @e6 Green' }), { command: 'select @e6 (5 characters)' });
    assert.deepEqual(pendingSummary('browser', { command: 'open https://u:p@example.com/app?session=abc#x' }), { command: 'open https://example.com/app' });
    assert.deepEqual(pendingSummary('browser', { command: 'snapshot -i', mode: 'connect', connectUrl: 'http://127.0.0.1:9222' }), { command: 'snapshot -i', mode: 'connect' });
    assert.equal(pendingSummary('browser', { command: `get text ${'x'.repeat(300)}` }).command, `get text ${'x'.repeat(111)}…`);
    assert.equal(JSON.stringify(pendingSummary('browser', { command: 'fill @e5 hunter2' })).includes('hunter2'), false);
  });

  it('never shows write contents or hash_edit payloads', () => {
    assert.deepEqual(pendingSummary('write', { path: 'a.txt', content: 'secret' }), { path: 'a.txt', bytes: 6 });
    const summary = pendingSummary('hash_edit', { input: '[a.ts#ABCDEF]\nSWAP 1.aa:\n+token\n' });
    assert.equal(JSON.stringify(summary).includes('token'), false);
  });
});
