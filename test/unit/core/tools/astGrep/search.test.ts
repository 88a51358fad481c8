import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { runSearch, type SearchRequest } from '../../../../../src/core/tools/astGrep/search';
import { ToolError } from '../../../../../src/core/tools/errors';
import type { ToolResult } from '../../../../../src/core/tools/result';
import { tempWorkspace, type TempWorkspace } from '../../../helpers/workspace';

describe('ast_grep search: bad input and limits', function () {
  this.timeout(20_000);
  let ws: TempWorkspace;
  beforeEach(async () => {
    ws = await tempWorkspace();
  });
  afterEach(() => ws.cleanup());

  const search = (request: Partial<SearchRequest> & { pattern: string }, signal = new AbortController().signal): Promise<ToolResult> =>
    runSearch({ rewrite: undefined, path: undefined, language: undefined, limit: 100, ...request }, { runtime: ws.runtime, signal, replay: false });

  describe('patterns', () => {
    it('a pattern over 256 syntax nodes is refused; a smaller one runs', async () => {
      await ws.files({ 'a.js': `f(${Array.from({ length: 20 }, (_, i) => i).join(', ')});\n` });
      const args = (n: number): string => `f(${Array.from({ length: n }, (_, i) => i).join(', ')})`;
      // f(0, 1, …): about two nodes per argument.
      await assert.rejects(search({ pattern: args(130), language: 'javascript' }), (err: unknown) => err instanceof ToolError && /more than 256 syntax nodes in javascript/.test(err.message));
      const ok = await search({ pattern: args(20), language: 'javascript' });
      assert.equal(ok.metadata.matches, 1);
    });

    it('a pattern that does not parse, with language given, is a ToolError naming the language', async () => {
      await ws.files({ 'a.rs': 'fn main() {}\n' });
      await assert.rejects(search({ pattern: 'fn (', language: 'rust' }), (err: unknown) => err instanceof ToolError && /does not parse as rust code/.test(err.message));
      await assert.rejects(search({ pattern: 'a; b', language: 'javascript' }), (err: unknown) => err instanceof ToolError && /not valid for javascript: .*Multiple AST nodes/.test(err.message));
    });

    it('in a mixed folder, a pattern that fails for one language makes the result partial and names it', async () => {
      await ws.files({ 'src/a.js': 'if (a === b) run();\n', 'src/b.py': 'x = 1\n', 'src/c.py': 'y = 2\n' });
      const result = await search({ pattern: '$A === $B' });
      assert.equal(result.status, 'success');
      assert.deepEqual(result.metadata.pattern_failed_languages, ['python']);
      assert.equal(result.metadata.partial, true);
      assert.equal(result.metadata.matches, 1);
      assert.equal(result.content.split('\n')[0], 'src/a.js:1:if (a === b) run();');
      assert.match(result.content, /\[partial: 2 python file\(s\) not searched: the pattern does not parse as python code .* Give "language" to check the pattern strictly\.\]/);
    });
  });

  it('never loads a project sgconfig.yml: its custom language and rule folders change nothing', async () => {
    await ws.files({
      'sgconfig.yml': 'ruleDirs: [rules]\ncustomLanguages:\n  mojo:\n    libraryPath: missing.so\n    extensions: [js]\nlanguageGlobs:\n  python: ["*.js"]\n',
      'rules/r.yml': 'id: r\nlanguage: javascript\nrule: { pattern: foo() }\n',
      'src/a.js': 'foo();\nbar();\n',
    });
    const result = await search({ pattern: 'bar()' });
    assert.equal(result.status, 'success', result.content);
    assert.equal(result.content, 'src/a.js:2:bar();');
  });

  describe('files that are skipped and reported', () => {
    it('a file over 256 KiB', async () => {
      const big = 'console.log(1);\n'.repeat(16_385);
      assert.ok(Buffer.byteLength(big) > 256 * 1024);
      await ws.files({ 'big.js': big, 'small.js': 'console.log(2);\n' });
      const result = await search({ pattern: 'console.log($A)' });
      assert.equal(result.metadata.matches, 1);
      assert.equal(result.metadata.files_skipped, 1);
      assert.equal(result.metadata.partial, true);
      assert.match(result.content, /\[skipped 1 file\(s\) larger than the per-file limit \(e\.g\. 262160 bytes \(limit 262144\)\): big\.js\]/);
    });

    it('a file that is not valid UTF-8', async () => {
      await ws.files({ 'latin1.js': Buffer.from([...Buffer.from('console.log("caf'), 0xe9, ...Buffer.from('");\n')]), 'ok.js': 'console.log("ok");\n' });
      const result = await search({ pattern: 'console.log($A)' });
      assert.deepEqual(result.content.split('\n')[0], 'ok.js:1:console.log("ok");');
      assert.equal(result.metadata.files_skipped, 1);
      assert.match(result.content, /\[skipped 1 file\(s\) not valid UTF-8 .*: latin1\.js\]/);
    });

    it('a file nested deeper than 64 brackets, or with more than 16,384 tokens, as too complex', async () => {
      await ws.files({
        'deep.js': `console.log(${'['.repeat(70)}1${']'.repeat(70)});\n`,
        'long.js': 'console.log(1);\n'.repeat(3_000),
        'fine.js': 'console.log([[1]]);\n',
      });
      const result = await search({ pattern: 'console.log($A)' });
      assert.equal(result.metadata.matches, 1);
      assert.equal(result.metadata.files_parsed, 1);
      assert.equal(result.metadata.files_skipped, 2);
      assert.match(result.content, /\[skipped 2 file\(s\) syntax tree over the limits \(e\.g\. nests 71 brackets deep \(tree depth limit 64\)\): deep\.js, long\.js\]/);
    });

    it('a symlinked file inside the tree is not followed', async () => {
      const outside = path.join(path.dirname(ws.root), 'outside.js');
      await fsp.writeFile(outside, 'console.log("secret");\n');
      await ws.files({ 'inside.js': 'console.log("inside");\n' });
      await fsp.symlink(outside, path.join(ws.root, 'link.js'));
      const result = await search({ pattern: 'console.log($A)' });
      assert.equal(result.metadata.matches, 1);
      assert.doesNotMatch(result.content, /secret/);
      assert.equal(result.content.split('\n')[0], 'inside.js:1:console.log("inside");');
    });

    it('files past the file limit are counted, not searched', async () => {
      await ws.files(Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`f${i}.js`, `console.log(${i});\n`])));
      const result = await search({ pattern: 'console.log($A)', maxFiles: 3 });
      assert.equal(result.metadata.matches, 3);
      assert.equal(result.metadata.files, 3);
      assert.equal(result.metadata.files_skipped, 2);
      assert.equal(result.metadata.partial, true);
      assert.match(result.content, /\[partial: 2 file\(s\) past the 3-file limit not searched; narrow path\]/);
    });
  });

  it('keeps whole rows under the 64 KiB output cap and says so', async () => {
    const long = `call(${'a'.repeat(1_500)});`;
    await ws.files({ 'wide.js': `${long}\n`.repeat(100) });
    const result = await search({ pattern: 'call($A)', limit: 500 });
    assert.equal(result.metadata.truncated, true);
    assert.ok(Buffer.byteLength(result.content) <= 64 * 1024);
    const rows = result.content.split('\n').filter((line) => line.startsWith('wide.js:'));
    assert.ok(rows.length > 10 && rows.length < 100, `${rows.length} rows`);
    assert.ok(rows.every((row) => row.endsWith(');')), 'no row is cut');
    assert.match(result.content, /\[truncated: output reached the 65536-byte cap; narrow path or pattern\]/);
  });

  describe('deadline and cancellation', () => {
    it('a deadline that passes while files are parsed stops with an error result that is partial and timed out', async () => {
      const body = 'function f(a) {\n  if (a) console.log(a, [1, 2, 3].map((x) => x * 2));\n  return a;\n}\n'.repeat(250);
      // Every file is parsed (it holds the pattern's words), only the first one matches.
      await ws.files(Object.fromEntries(Array.from({ length: 600 }, (_, i) => [`m${String(i).padStart(3, '0')}.js`, i === 0 ? `console.log(0);\n${body}` : body])));
      // The parse workers start on first use (under tsx, a few hundred ms): started here, not timed.
      await search({ pattern: 'console.log($A)', path: 'm000.js' });
      const result = await search({ pattern: 'console.log($A)', deadlineMs: 400 });
      assert.equal(result.status, 'error');
      assert.equal(result.metadata.partial, true);
      assert.equal(result.metadata.timed_out, true);
      // What came back before the deadline is shown: at most the first file's one match (none on a slow machine).
      assert.ok(Number(result.metadata.lines) <= 1);
      if (result.metadata.lines === 1) assert.equal(result.content.split('\n')[0], 'm000.js:1:console.log(0);');
      assert.ok(Number(result.metadata.files_parsed) < 600);
      assert.match(result.content, /\[partial: the 0\.4-second deadline passed; results so far are shown/);
    });

    it('deadlineMs 0 with files: the walk is cut short, and the call is a partial failure', async () => {
      await ws.files({ 'a.js': 'console.log(1);\n', 'b.js': 'console.log(2);\n' });
      const result = await search({ pattern: 'console.log($A)', deadlineMs: 0 });
      assert.equal(result.status, 'error');
      assert.equal(result.metadata.partial, true);
      assert.equal(result.metadata.timed_out, true);
    });

    it('an aborted signal rejects the call', async () => {
      await ws.files({ 'a.js': 'console.log(1);\n' });
      const controller = new AbortController();
      controller.abort();
      await assert.rejects(search({ pattern: 'console.log($A)' }, controller.signal), (err: unknown) => (err as Error).name === 'AbortError');
    });
  });

  describe('rewrite previews', () => {
    it('never write the file: bytes and mtime stay the same', async () => {
      const text = 'function f() {\n  console.log(1, "é");\n}\n';
      await ws.files({ 'a.js': text });
      const file = path.join(ws.root, 'a.js');
      const before = await fsp.stat(file);
      const result = await search({ pattern: 'console.log($$$A)', rewrite: 'logger.info($$$A)' });
      assert.equal(result.content.split('\n').slice(0, 3).join('\n'), 'a.js:2: bytes [17, 37)\n-  console.log(1, "é");\n+  logger.info(1, "é");');
      assert.equal(result.metadata.rewrite_preview, true);
      assert.equal(await fsp.readFile(file, 'utf8'), text);
      assert.equal((await fsp.stat(file)).mtimeMs, before.mtimeMs);
    });

    it('a replacement estimated over 1 MiB is left out and reported; the other previews stay', async () => {
      await ws.files({ 'a.js': `f("${'a'.repeat(220 * 1024)}");\nf(1);\n` });
      const result = await search({ pattern: 'f($A)', rewrite: 'g($A, $A, $A, $A, $A)' });
      assert.equal(result.status, 'success');
      assert.equal(result.metadata.matches, 1);
      assert.equal(result.metadata.partial, true);
      assert.deepEqual(result.content.split('\n').slice(0, 3), ['a.js:2: bytes [225287, 225291)', '-f(1);', '+g(1, 1, 1, 1, 1);']);
      assert.match(result.content, /\[partial: 1 preview\(s\) left out: the replacement would exceed 1048576 bytes\]/);
    });

    it('overlapping matches give independent previews, each against the original text', async () => {
      await ws.files({ 'a.js': 'x = f(f(1));\n' });
      const result = await search({ pattern: 'f($A)', rewrite: 'g($A)' });
      assert.equal(result.metadata.matches, 2);
      assert.deepEqual(result.content.split('\n'), [
        'a.js:1: bytes [4, 11)',
        '-x = f(f(1));',
        '+x = g(f(1));',
        'a.js:1: bytes [6, 10)',
        '-x = f(f(1));',
        '+x = f(g(1));',
      ]);
    });
  });
});
