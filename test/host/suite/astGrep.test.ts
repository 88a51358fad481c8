import * as assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { join } from 'node:path';
import { root, runTool } from '../support/magi';

// The native addon and the prebuilt parsers load inside the real extension host, from node_modules next to dist/extension.js.
describe('ast_grep and repo_map in the extension host', () => {
  it('searches Rust (a dynamic language) and TypeScript, and previews a rewrite without writing', async () => {
    const rust = await runTool('ast_grep', { pattern: 'let $A = $B;', path: 'astgrep' });
    assert.equal(rust.status, 'success', rust.content);
    assert.equal(rust.content, 'astgrep/lib.rs:11:        let next = self.count + 1;');
    const before = await fsp.readFile(join(root(), 'astgrep/util.ts'), 'utf8');
    const preview = await runTool('ast_grep', { pattern: 'console.log($A)', rewrite: 'logger.debug($A)', path: 'astgrep', language: 'typescript' });
    assert.equal(preview.status, 'success', preview.content);
    assert.deepEqual(preview.content.split('\n'), ['astgrep/util.ts:2: bytes [48, 65)', '-  console.log(name);', '+  logger.debug(name);']);
    assert.equal(await fsp.readFile(join(root(), 'astgrep/util.ts'), 'utf8'), before);
  });

  it('outlines a Rust impl with its members', async () => {
    const outline = await runTool('ast_grep', { operation: 'outline', path: 'astgrep/lib.rs' });
    assert.equal(outline.status, 'success', outline.content);
    const entries = outline.content.split('\n').map((line) => JSON.parse(line) as { item: { name: string; type: string; members?: { name: string }[] } });
    const impl = entries.find((e) => e.item.type === 'impl');
    assert.ok(impl, outline.content);
    assert.deepEqual(impl.item.members?.map((m) => m.name), ['new', 'bump']);
  });

  it('maps the workspace with repo_map', async () => {
    const map = await runTool('repo_map', { path: 'astgrep' });
    assert.equal(map.status, 'success', map.content);
    assert.match(map.content, /Counter/);
    assert.match(map.content, /greet/);
  });
});
