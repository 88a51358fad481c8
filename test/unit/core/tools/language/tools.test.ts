import assert from 'node:assert/strict';
import * as path from 'node:path';
import { createDefaultRegistry } from '../../../../../src/core/tools';
import { MAX_OUTPUT_BYTES } from '../../../../../src/core/tools/language/format';
import type { DocumentSymbol } from '../../../../../src/core/tools/language/port';
import { diag, languageWorkspace, loc, type LanguageWorkspace } from './standIn';

const LANGUAGE_TOOLS = ['diagnostics', 'references', 'definition', 'symbols'];

describe('language tools', () => {
  let ws: LanguageWorkspace;
  afterEach(() => ws.cleanup());

  describe('without language services (the headless CLI)', () => {
    beforeEach(async () => {
      ws = await languageWorkspace({}, false);
    });

    it('are not available and say they need VS Code', async () => {
      const registry = createDefaultRegistry();
      for (const name of LANGUAGE_TOOLS) {
        const tool = registry.get(name);
        assert.ok(tool, name);
        assert.equal(tool.unavailable?.(ws.runtime), `${name} needs VS Code's language services; run it inside the Magi extension (the headless CLI has none).`);
        const result = await ws.run(name, { path: 'a.ts', line: 1, column: 1 });
        assert.equal(result.status, 'error');
        assert.equal(result.content, `${name} is not available: ${name} needs VS Code's language services; run it inside the Magi extension (the headless CLI has none).`);
      }
    });
  });

  describe('with language services', () => {
    beforeEach(async () => {
      ws = await languageWorkspace();
    });

    it('are offered', () => {
      const registry = createDefaultRegistry();
      for (const name of LANGUAGE_TOOLS) assert.equal(registry.get(name)?.unavailable?.(ws.runtime), undefined, name);
    });

    it('diagnostics lists a file’s problems errors first, root-relative, with code, redacted', async () => {
      const file = await ws.write('src/a.ts', 'const x = 1;\n');
      ws.languages.diagnostics.set(file, {
        ready: true,
        items: [
          diag(file, 3, 1, 'warning', "'y' is declared but never used.", { code: '6133', source: 'ts' }),
          diag(file, 1, 7, 'error', "Type 'string' is not\n  assignable to type 'number'.", { code: '2322', source: 'ts' }),
          diag(file, 2, 2, 'info', 'token sk-abcdefghijklmnopqrstuv leaked', { source: 'secrets' }),
        ],
      });
      const result = await ws.run('diagnostics', { path: 'src/a.ts' });
      assert.equal(result.status, 'success', result.content);
      assert.equal(result.content, [
        "src/a.ts:1:7: error ts(2322): Type 'string' is not assignable to type 'number'.",
        "src/a.ts:3:1: warning ts(6133): 'y' is declared but never used.",
        'src/a.ts:2:2: info secrets: token [redacted] leaked',
      ].join('\n'));
      assert.deepEqual(result.metadata, { path: 'src/a.ts', count: 3, errors: 1, warnings: 1, truncated: false, ready: true, sources: ['secrets', 'ts'] });
      assert.deepEqual(ws.languages.calls, [`fileDiagnostics ${file}`]);
    });

    it('diagnostics tells a clean file from one no service answered for', async () => {
      await ws.write('ok.ts', 'export {};\n');
      const notes = await ws.write('notes.xyz', 'x\n');
      assert.equal((await ws.run('diagnostics', { path: 'ok.ts' })).content, 'No diagnostics for ok.ts: its language service reports no problems.');
      ws.languages.diagnostics.set(notes, { items: [], ready: false, note: 'no language service answers for .xyz files' });
      const result = await ws.run('diagnostics', { path: 'notes.xyz' });
      assert.equal(result.status, 'success');
      assert.equal(result.metadata.ready, false);
      assert.equal(result.content, 'diagnostics: no answer for notes.xyz: no language service answers for .xyz files. Retry in a few seconds; if it stays empty there is no language service for .xyz files in this VS Code, so use grep or project checks instead.');
    });

    it('diagnostics validates its path through the containment rules before asking the service', async () => {
      await ws.write('dir/x.ts', '');
      const outside = path.join(path.dirname(ws.root), 'outside.ts');
      const denied = await languageWorkspace({ capabilities: { tools: { diagnostics: { absolute_paths: false } } } });
      try {
        const refused = await denied.run('diagnostics', { path: outside });
        assert.equal(refused.status, 'error');
        assert.match(refused.content, /capabilities\.tools\.diagnostics\.absolute_paths is false/);
        assert.deepEqual(denied.languages.calls, []);
      } finally {
        await denied.cleanup();
      }
      const missing = await ws.run('diagnostics', { path: 'nope.ts' });
      assert.equal(missing.content, 'diagnostics: nope.ts does not exist; check the path with find or list_files.');
      assert.equal((await ws.run('diagnostics', { path: 'dir' })).content, 'diagnostics: dir is not a file; pass a source file.');
      assert.equal((await ws.run('diagnostics', { path: 'dir/x.ts', extra: 1 })).status, 'error');
      assert.equal((await ws.run('diagnostics', { limit: 501 })).status, 'error');
      assert.deepEqual(ws.languages.calls, []);
    });

    it('diagnostics without a path summarises the workspace, errors first, bounded by limit', async () => {
      const a = path.join(ws.root, 'a.ts');
      const b = path.join(ws.root, 'lib', 'b.ts');
      ws.languages.workspace = [
        diag(a, 5, 1, 'hint', 'unused'),
        diag(b, 2, 3, 'error', 'second error', { code: '1', source: 'ts' }),
        diag(a, 9, 9, 'error', 'first error', { code: '2', source: 'ts' }),
        diag(b, 1, 1, 'warning', 'careful'),
      ];
      const result = await ws.run('diagnostics', { limit: 2 });
      assert.equal(result.content, [
        'Workspace diagnostics: 2 errors, 1 warning, 0 info, 1 hint in 2 files.',
        'a.ts:9:9: error ts(2): first error',
        'lib/b.ts:2:3: error ts(1): second error',
        '… 2 more diagnostics not shown; raise limit (max 500) or pass a path.',
      ].join('\n'));
      assert.deepEqual(result.metadata, { count: 4, errors: 2, warnings: 1, files: 2, truncated: true, ready: true, sources: ['ts'] });
      assert.deepEqual(ws.languages.calls, [`workspaceDiagnostics ${ws.root}`]);
    });

    it('caps the output at 64 KiB and says it was cut', async () => {
      const file = await ws.write('big.ts', '');
      const items = Array.from({ length: 500 }, (_, i) => diag(file, i + 1, 1, 'error', `${'long message '.repeat(40)}${i}`));
      ws.languages.diagnostics.set(file, { items, ready: true });
      const result = await ws.run('diagnostics', { path: 'big.ts', limit: 500 });
      assert.ok(Buffer.byteLength(result.content) <= MAX_OUTPUT_BYTES, String(Buffer.byteLength(result.content)));
      assert.equal(result.metadata.truncated, true);
      assert.match(result.content, /\n… \d+ more diagnostics not shown; raise limit \(max 500\) to see more\.$/);
    });

    it('references shows each location once with its line text, only inside the root', async () => {
      const a = await ws.write('a.ts', 'export function greet() {}\n');
      const b = await ws.write('b.ts', "import { greet } from './a';\n\n   greet();   \n");
      const lib = path.join(path.dirname(ws.root), 'lib.d.ts');
      ws.languages.locations = { ready: true, items: [loc(b, 3, 4), loc(lib, 10, 2), loc(b, 1, 10), loc(b, 3, 4)] };
      const result = await ws.run('references', { path: 'a.ts', line: 1, column: 17 });
      assert.equal(result.status, 'success', result.content);
      assert.equal(result.content, [`b.ts:1:10: import { greet } from './a';`, 'b.ts:3:4: greet();', `${lib}:10:2`].join('\n'));
      assert.deepEqual(result.metadata, { path: 'a.ts', line: 1, column: 17, count: 3, truncated: false, ready: true });
      await ws.run('references', { path: 'a.ts', line: 1, column: 17, include_declaration: true, limit: 1 });
      assert.deepEqual(ws.languages.calls, [`references ${a}:1:17 false`, `references ${a}:1:17 true`]);
    });

    it('references cuts at limit and explains an empty answer', async () => {
      const a = await ws.write('a.ts', 'let v = 1;\nv++;\nv--;\n');
      ws.languages.locations = { ready: true, items: [loc(a, 2, 1), loc(a, 3, 1)] };
      const cut = await ws.run('references', { path: 'a.ts', line: 1, column: 5, limit: 1 });
      assert.equal(cut.content, 'a.ts:2:1: v++;\n… 1 more not shown; raise limit (max 500) to see more.');
      assert.equal(cut.metadata.truncated, true);
      ws.languages.locations = { ready: true, items: [] };
      const none = await ws.run('references', { path: 'a.ts', line: 1, column: 5 });
      assert.equal(none.content, "No references found for the symbol at a.ts:1:5 (besides its declaration). Check that line and column (1-based) point at the symbol's name.");
    });

    it('checks positions against the file before asking the service', async () => {
      await ws.write('a.ts', 'ab\ncd\n');
      const pastEnd = await ws.run('references', { path: 'a.ts', line: 9, column: 1 });
      assert.equal(pastEnd.content, "references: a.ts has 2 lines; line 9 is past its end. Read the file to find the symbol's line.");
      const wide = await ws.run('definition', { path: 'a.ts', line: 2, column: 4 });
      assert.equal(wide.content, 'definition: line 2 of a.ts has 2 characters; column 4 is past its end (columns are 1-based).');
      assert.equal((await ws.run('definition', { path: 'a.ts', line: 0, column: 1 })).status, 'error');
      assert.deepEqual(ws.languages.calls, []);
    });

    it('definition answers with the declaring line, or guidance while the service starts', async () => {
      const a = await ws.write('a.ts', 'export class Greeter {}\n');
      await ws.write('b.ts', "import { Greeter } from './a';\n");
      ws.languages.locations = { ready: true, items: [loc(a, 1, 14)] };
      const result = await ws.run('definition', { path: 'b.ts', line: 1, column: 10 });
      assert.equal(result.content, 'a.ts:1:14: export class Greeter {}');
      ws.languages.locations = { ready: false, items: [], note: 'no language service answered; TypeScript is probably still starting' };
      const starting = await ws.run('definition', { path: 'b.ts', line: 1, column: 10 });
      assert.equal(starting.metadata.ready, false);
      assert.match(starting.content, /^definition: no answer for b\.ts: no language service answered; TypeScript is probably still starting\. Retry in a few seconds;/);
    });

    it('symbols prints an indented outline in line order, bounded by limit', async () => {
      await ws.write('a.ts', 'class A { m() {} n() {} }\nfunction f() {}\n');
      const sym = (name: string, kind: string, line: number, column: number, children: DocumentSymbol[] = []): DocumentSymbol => ({ name, kind, line, column, endLine: line, endColumn: column, children });
      ws.languages.outline = { ready: true, items: [sym('f', 'function', 2, 10), sym('A', 'class', 1, 7, [sym('n', 'method', 1, 18), sym('m', 'method', 1, 11)])] };
      const result = await ws.run('symbols', { path: 'a.ts' });
      assert.equal(result.content, 'A (class) 1:7\n  m (method) 1:11\n  n (method) 1:18\nf (function) 2:10');
      assert.deepEqual(result.metadata, { path: 'a.ts', count: 4, truncated: false, ready: true });
      const cut = await ws.run('symbols', { path: 'a.ts', limit: 2 });
      assert.equal(cut.content, 'A (class) 1:7\n  m (method) 1:11\n… 2 more symbols not shown; raise limit (max 500) to see more.');
    });
  });
});
