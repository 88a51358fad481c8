import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { hashEditTool } from '../../../../../src/core/tools/hashEdit';
import { dispatchTool } from '../../../../../src/core/tools/dispatch';
import { readTool } from '../../../../../src/core/tools/read';
import { ToolRegistry } from '../../../../../src/core/tools/registry';
import type { ToolResult } from '../../../../../src/core/tools/result';
import { abs, edit, editOk, fileWith, makeFixture, text, type Fixture } from './helpers';

describe('hash_edit tool', () => {
  let fx: Fixture;
  beforeEach(async () => {
    fx = await makeFixture();
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  describe('definition', () => {
    it('is the mutating tool hash_edit with no aliases and a strict { input } schema', async () => {
      assert.equal(hashEditTool.name, 'hash_edit');
      assert.deepEqual(hashEditTool.aliases, []);
      assert.equal(hashEditTool.mutates, true);
      const [spec] = fx.registry.providerSpecs();
      assert.deepEqual(spec?.parameters.required, ['input']);
      assert.equal(spec?.parameters.additionalProperties, false);
      for (const word of ['SWAP.BLK', 'INS.BLK.POST', '++x', 'DEL', '1 MiB', 'capabilities.tools.hash_edit.absolute_paths', 'with write']) {
        assert.ok(hashEditTool.description.includes(word), word);
      }
    });

    it('rejects an empty input and unknown fields', async () => {
      const empty = (await dispatchTool(fx.registry, fx.runtime, 'hash_edit', { input: '' })).result;
      assert.match(empty.content, /field `input`: must not be empty/);
      const extra = (await dispatchTool(fx.registry, fx.runtime, 'hash_edit', { input: 'x', path: 'a' })).result;
      assert.match(extra.content, /unknown field `path`/);
    });
  });

  describe('on disk', () => {
    it('applies SWAP over a range and a single line', async () => {
      const header = await fileWith(fx, 'a.txt', '1\n2\n3\n4\n5\n');
      await editOk(fx, `${header}\nSWAP 2.=4:\n+two-four\nSWAP 5:\n+five`);
      assert.equal(await text(fx, 'a.txt'), '1\ntwo-four\nfive\n');
    });

    it('writes body escapes literally', async () => {
      const header = await fileWith(fx, 'list.md', 'x\n');
      await editOk(fx, `${header}\nSWAP 1:\n++1\n+- item\n+\n+--`);
      assert.equal(await text(fx, 'list.md'), '+1\n- item\n\n--\n');
    });

    it('preserves CRLF, a BOM and a missing final newline byte for byte', async () => {
      const original = Buffer.from('\uFEFFone\r\ntwo\r\nthree', 'utf8');
      const header = await fileWith(fx, 'w.txt', original);
      await editOk(fx, `${header}\nSWAP 2:\n+TWO\nINS.POST 3:\n+four`);
      assert.deepEqual(await fsp.readFile(abs(fx, 'w.txt')), Buffer.from('\uFEFFone\r\nTWO\r\nthree\r\nfour', 'utf8'));
    });

    it('keeps the endings of a mixed file', async () => {
      const header = await fileWith(fx, 'm.txt', 'a\r\nb\nc\r\n');
      await editOk(fx, `${header}\nINS.POST 2:\n+x\nDEL 1`);
      assert.equal(await text(fx, 'm.txt'), 'b\nx\r\nc\r\n');
    });

    it('applies block ops in a brace language, with brackets in strings and comments', async () => {
      const ts = ['function a() {', '  const s = "}";', '  // }', '  /* { */', '}', 'function b() {', '  return 1;', '}', ''].join('\n');
      const header = await fileWith(fx, 'a.ts', ts);
      await editOk(fx, `${header}\nSWAP.BLK 1:\n+function a() {}\nINS.BLK.POST 6:\n+function c() {}`);
      assert.equal(await text(fx, 'a.ts'), 'function a() {}\nfunction b() {\n  return 1;\n}\nfunction c() {}\n');
    });

    it('applies block ops in Allman C# and in Python', async () => {
      const cs = await fileWith(fx, 'a.cs', 'void F()\n{\n    G();\n}\nvoid H() {}\n');
      await editOk(fx, `${cs}\nDEL.BLK 1`);
      assert.equal(await text(fx, 'a.cs'), 'void H() {}\n');
      const py = await fileWith(fx, 'a.py', 'def f():\n    a()\n\n    b()\n\ndef g():\n    pass\n');
      await editOk(fx, `${py}\nSWAP.BLK 1:\n+def f():\n+    return 1\nINS.BLK.POST 6:\n+\n+x = 1`);
      assert.equal(await text(fx, 'a.py'), 'def f():\n    return 1\n\ndef g():\n    pass\n\nx = 1\n');
    });

    it('refuses DEL.BLK on a line that does not start a block', async () => {
      const header = await fileWith(fx, 'a.ts', 'x();\ny();\n');
      const result = await edit(fx, `${header}\nDEL.BLK 1`);
      assert.match(result.content, /\[a\.ts\] input line 2 \(DEL\.BLK 1\): line 1 does not start a block; use SWAP\/DEL with an explicit range/);
      assert.equal(await text(fx, 'a.ts'), 'x();\ny();\n');
    });

    it('refuses overlapping ops, naming both', async () => {
      const header = await fileWith(fx, 'a.txt', 'a\nb\nc\n');
      const result = await edit(fx, `${header}\nSWAP 1.=2:\n+x\nINS.POST 2:\n+y`);
      assert.match(result.content, /SWAP 1\.=2 \(input line 2, changes lines 1-2\) and INS\.POST 2 \(input line 4, inserts after line 2\) overlap/);
    });
  });

  describe('concurrency', () => {
    it('serializes edits of one file; the second recovers when its line is untouched', async () => {
      const header = await fileWith(fx, 'a.txt', 'a\nb\nc\nd\n');
      const results = await Promise.all([edit(fx, `${header}\nSWAP 1:\n+A`), edit(fx, `${header}\nSWAP 4:\n+D`)]);
      assert.deepEqual(results.map((r) => r.status), ['success', 'success']);
      assert.equal(results.filter((r) => r.metadata.recovered === true).length, 1);
      assert.equal(await text(fx, 'a.txt'), 'A\nb\nc\nD\n');
      assert.equal(fx.runtime.locks.size, 0);
    });

    it('never loses the first edit: a conflicting second one fails as stale', async () => {
      const header = await fileWith(fx, 'a.txt', 'a\nb\nc\n');
      const results: ToolResult[] = await Promise.all([edit(fx, `${header}\nSWAP 2:\n+first`), edit(fx, `${header}\nSWAP 2:\n+second`)]);
      const winner = results.findIndex((r) => r.status === 'success');
      const loser = results[1 - winner];
      assert.notEqual(winner, -1);
      assert.equal(loser?.metadata.error, 'stale_tag');
      assert.equal(await text(fx, 'a.txt'), `a\n${winner === 0 ? 'first' : 'second'}\nc\n`);
    });

    it('stays consistent under many concurrent inserts: each one lands whole or fails as stale', async () => {
      const header = await fileWith(fx, 'a.txt', 'base\n');
      // 10 calls share one tag; the store keeps 8 snapshots per path, so the last ones find it dropped.
      const results = await Promise.all(Array.from({ length: 10 }, (_, i) => edit(fx, `${header}\nINS.HEAD:\n+${i}`)));
      const landed = results.flatMap((r, i) => (r.status === 'success' ? [String(i)] : []));
      assert.ok(landed.length >= 8, `only ${landed.length} landed`);
      assert.ok(results.every((r) => r.status === 'success' || r.metadata.error === 'stale_tag'));
      const lines = (await text(fx, 'a.txt')).split('\n');
      assert.deepEqual(lines.slice(0, -2).sort(), landed.sort());
      assert.deepEqual(lines.slice(-2), ['base', '']);
    });
  });

  describe('with the read tool', () => {
    let registry: ToolRegistry;
    const run = async (tool: string, args: unknown): Promise<ToolResult> => (await dispatchTool(registry, fx.runtime, tool, args)).result;
    beforeEach(() => {
      registry = new ToolRegistry([readTool, hashEditTool]);
    });

    it('edits with the tag and line numbers read showed, then again with the returned tag', async () => {
      await fsp.writeFile(abs(fx, 'app.ts'), 'export function f() {\n  return 1;\n}\n');
      const read = await run('read', { paths: ['app.ts'] });
      const header = /^\[app\.ts#[0-9A-F]+\]/m.exec(read.content)?.[0];
      assert.ok(header, read.content);
      const first = await run('hash_edit', { input: `${header}\nSWAP 2:\n+  return 2;` });
      assert.equal(first.status, 'success', first.content);
      const next = /^\[app\.ts#[0-9A-F]+\]/m.exec(first.content)?.[0];
      const second = await run('hash_edit', { input: `${next}\nINS.BLK.POST 1:\n+export const g = 3;` });
      assert.equal(second.status, 'success', second.content);
      assert.equal(await text(fx, 'app.ts'), 'export function f() {\n  return 2;\n}\nexport const g = 3;\n');
    });

    it('refuses lines outside a windowed read until they are read', async () => {
      await fsp.writeFile(abs(fx, 'n.txt'), Array.from({ length: 10 }, (_, i) => `l${i + 1}`).join('\n') + '\n');
      const read = await run('read', { paths: ['n.txt:1-3'] });
      const header = /^\[n\.txt#[0-9A-F]+\]/m.exec(read.content)?.[0];
      const refused = await run('hash_edit', { input: `${header}\nSWAP 8:\n+x` });
      assert.equal(refused.metadata.error, 'unseen_line');
      assert.match(refused.content, /read n\.txt:8-8/);
      await run('read', { paths: ['n.txt:8-8'] });
      const ok = await run('hash_edit', { input: `${header}\nSWAP 8:\n+x` });
      assert.equal(ok.status, 'success', ok.content);
      assert.match(await text(fx, 'n.txt'), /l7\nx\nl9/);
    });
  });
});
