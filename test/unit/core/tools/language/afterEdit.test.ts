import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { diag, languageWorkspace, type LanguageWorkspace } from './standIn';

const ENABLED = { lsp: { enabled: true } };
const CONTENT = 'export const flag: boolean = 42;\n';

describe('edit diagnostics injection (lsp.enabled)', () => {
  let ws: LanguageWorkspace;
  afterEach(() => ws.cleanup());

  it('is off by default: write neither waits for nor appends diagnostics', async () => {
    ws = await languageWorkspace();
    const result = await ws.run('write', { path: 'a.ts', content: CONTENT });
    assert.equal(result.content, 'Created a.ts (33 bytes, 1 lines). Read it before editing it with hash_edit.');
    assert.deepEqual(ws.languages.calls, []);
  });

  it('appends the edited file’s diagnostics after write, errors first and bounded', async () => {
    ws = await languageWorkspace(ENABLED);
    const file = path.join(ws.root, 'a.ts');
    const items = [diag(file, 1, 1, 'warning', 'w'), ...Array.from({ length: 21 }, (_, i) => diag(file, 1, 14 + i, 'error', `Type 'number' is not assignable to type 'boolean'.`, { code: '2322', source: 'ts' }))];
    ws.languages.afterEdit = () => Promise.resolve({ items, ready: true });
    const result = await ws.run('write', { path: 'a.ts', content: CONTENT });
    assert.equal(result.status, 'success');
    const [head, block] = result.content.split('\n\n');
    assert.equal(head, 'Created a.ts (33 bytes, 1 lines). Read it before editing it with hash_edit.');
    const rows = (block ?? '').split('\n');
    assert.equal(rows[0], 'Diagnostics after the edit:');
    assert.equal(rows[1], "a.ts:1:14: error ts(2322): Type 'number' is not assignable to type 'boolean'.");
    assert.equal(rows.length, 1 + 20 + 1);
    assert.equal(rows[21], '… 2 more; run diagnostics on the file to see them.');
    assert.equal(result.metadata.diagnostics_after_edit, 22);
    assert.equal(result.metadata.errors_after_edit, 21);
    assert.deepEqual(ws.languages.calls, [`diagnosticsAfterEdit ${file}`]);
  });

  it('appends after hash_edit for the edited file, and says "none" for a clean one', async () => {
    ws = await languageWorkspace(ENABLED);
    await ws.write('a.ts', CONTENT);
    const read = await ws.run('read', { paths: ['a.ts'] });
    const tag = /^\[a\.ts#([0-9A-F]+)\]/.exec(read.content)?.[1];
    assert.ok(tag, read.content);
    const result = await ws.run('hash_edit', { input: `[a.ts#${tag}]\nSWAP 1:\n+export const flag: boolean = true;` });
    assert.equal(result.status, 'success', result.content);
    assert.match(result.content, /^\[a\.ts#[0-9A-F]+\]\n1:export const flag: boolean = true;\n\nDiagnostics after the edit: none\.$/);
    assert.deepEqual(ws.languages.calls, [`diagnosticsAfterEdit ${path.join(ws.root, 'a.ts')}`]);
  });

  it('never fails the edit: a slow service adds nothing, a failing one is noted in metadata', async () => {
    ws = await languageWorkspace(ENABLED);
    ws.languages.afterEdit = () => Promise.resolve({ items: [], ready: false, note: 'no diagnostics within 3 s' });
    const slow = await ws.run('write', { path: 'a.ts', content: CONTENT });
    assert.equal(slow.status, 'success');
    assert.doesNotMatch(slow.content, /Diagnostics after the edit/);
    assert.equal(slow.metadata.diagnostics_after_edit, 'skipped: no answer in time');
    ws.languages.afterEdit = () => Promise.reject(new Error('the TypeScript server crashed'));
    const failed = await ws.run('write', { path: 'b.ts', content: CONTENT });
    assert.equal(failed.status, 'success');
    assert.equal(failed.metadata.diagnostics_after_edit, 'skipped: the TypeScript server crashed');
    assert.equal(await fsp.readFile(path.join(ws.root, 'b.ts'), 'utf8'), CONTENT);
  });

  it('is not attempted for a failed edit', async () => {
    ws = await languageWorkspace(ENABLED);
    await ws.write('dir/x', '');
    const result = await ws.run('write', { path: 'dir', content: CONTENT });
    assert.equal(result.status, 'error');
    assert.deepEqual(ws.languages.calls, []);
  });
});
