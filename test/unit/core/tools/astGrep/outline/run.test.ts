import assert from 'node:assert/strict';
import type { ToolContext } from '../../../../../../src/core/tools/definition';
import { OUTPUT_CAP } from '../../../../../../src/core/tools/astGrep/limits';
import { runOutline, type OutlineRequest } from '../../../../../../src/core/tools/astGrep/outline/run';
import type { OutlineItem } from '../../../../../../src/core/tools/astGrep/outline/view';
import type { ToolResult } from '../../../../../../src/core/tools/result';
import { tempWorkspace, type TempWorkspace } from '../../../../helpers/workspace';

interface Line {
  path: string;
  language: string;
  item: OutlineItem;
}

/** The JSON entry lines of a result (notes are the other lines). */
function entries(result: ToolResult): Line[] {
  return result.content
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as Line);
}

function notes(result: ToolResult): string[] {
  return result.content.split('\n').filter((line) => line !== '' && !line.startsWith('{'));
}

const RUST = [
  'use std::fmt;',
  'pub struct Config {',
  '    pub name: String,',
  '    depth: u32,',
  '}',
  'impl Config {',
  '    pub fn new(name: String) -> Self { todo!() }',
  '    fn validate(&self) -> bool { true }',
  '}',
  'fn helper() {}',
  'pub fn run_config(config: &Config) {}',
].join('\n');

const PYTHON = 'import os\n\nclass Walker:\n    def walk(self): pass\n    def _skip(self): pass\n\ndef main():\n    pass\n';

describe('ast_grep outline: runOutline', function () {
  this.timeout(30_000);
  let ws: TempWorkspace;
  let ctx: ToolContext;

  beforeEach(async () => {
    ws = await tempWorkspace();
    ctx = { runtime: ws.runtime, signal: new AbortController().signal, replay: false };
  });
  afterEach(() => ws.cleanup());

  function request(over: Partial<OutlineRequest> = {}): OutlineRequest {
    return { items: 'structure', view: 'digest', pubMembers: false, limit: 100, ...over };
  }

  it('outlines a folder: one complete JSON line per top-level entry with path, language and the digest item', async () => {
    await ws.files({ 'src/config.rs': RUST, 'src/walk.py': PYTHON });
    const result = await runOutline(request({ path: 'src' }), ctx);
    assert.equal(result.status, 'success');
    const lines = entries(result);
    assert.deepEqual(
      lines.map((l) => `${l.path} ${l.language} ${l.item.type} ${l.item.name}`),
      ['src/config.rs rust struct Config', 'src/config.rs rust impl Config', 'src/config.rs rust function helper', 'src/config.rs rust function run_config', 'src/walk.py python class Walker', 'src/walk.py python function main'],
    );
    assert.equal(result.content.split('\n')[0], JSON.stringify({
      path: 'src/config.rs',
      language: 'rust',
      item: {
        name: 'Config',
        type: 'struct',
        signature: 'pub struct Config',
        exported: true,
        imported: false,
        range: { start: { line: 2, column: 1 }, end: { line: 5, column: 2 } },
        members: [
          { name: 'name', type: 'field', exported: true, range: { start: { line: 3, column: 5 }, end: { line: 3, column: 21 } } },
          { name: 'depth', type: 'field', exported: false, range: { start: { line: 4, column: 5 }, end: { line: 4, column: 15 } } },
        ],
      },
    }));
    assert.equal(result.metadata.symbols_returned, 6 + 2 + 2 + 2);
    assert.equal(result.metadata.entries, 6);
    assert.equal(result.metadata.files, 2);
    assert.equal(result.metadata.files_skipped, 0);
    assert.equal(result.metadata.partial, false);
    assert.equal(result.metadata.truncated, false);
  });

  it('items: structure leaves imports out, exports keeps exported ones, imports only imports, all both', async () => {
    await ws.files({ 'config.rs': RUST });
    const names = async (items: OutlineRequest['items']): Promise<string[]> => entries(await runOutline(request({ path: 'config.rs', items }), ctx)).map((l) => l.item.name);
    assert.deepEqual(await names('structure'), ['Config', 'Config', 'helper', 'run_config']);
    assert.deepEqual(await names('exports'), ['Config', 'Config', 'run_config']);
    assert.deepEqual(await names('imports'), ['std::fmt']);
    assert.deepEqual(await names('all'), ['std::fmt', 'Config', 'Config', 'helper', 'run_config']);
  });

  it('name matches top-level name, signature or first line; a matching member never brings in its parent, a matching parent keeps its members', async () => {
    await ws.files({ 'config.rs': RUST });
    const byName = entries(await runOutline(request({ path: 'config.rs', name: /^run_/ }), ctx));
    assert.deepEqual(byName.map((l) => l.item.name), ['run_config']);
    const bySignature = entries(await runOutline(request({ path: 'config.rs', name: /&Config/ }), ctx));
    assert.deepEqual(bySignature.map((l) => l.item.name), ['run_config']);
    const byMember = await runOutline(request({ path: 'config.rs', name: /validate/ }), ctx);
    assert.deepEqual(entries(byMember), []);
    assert.equal(byMember.status, 'success');
    const parent = entries(await runOutline(request({ path: 'config.rs', name: /^impl Config$/ }), ctx));
    assert.deepEqual(parent.map((l) => [l.item.name, l.item.members?.map((m) => m.name)]), [['Config', ['new', 'validate']]]);
    // A global regex keeps lastIndex between test() calls; every entry is tested afresh.
    const global = entries(await runOutline(request({ path: 'config.rs', name: /Config/g }), ctx));
    assert.deepEqual(global.map((l) => l.item.type), ['struct', 'impl', 'function']);
  });

  it('symbol_type selects top-level types; pub_members keeps only public members', async () => {
    await ws.files({ 'config.rs': RUST });
    const impls = entries(await runOutline(request({ path: 'config.rs', symbolTypes: new Set(['impl', 'struct']) }), ctx));
    assert.deepEqual(impls.map((l) => l.item.type), ['struct', 'impl']);
    const methods = entries(await runOutline(request({ path: 'config.rs', symbolTypes: new Set(['method']) }), ctx));
    assert.deepEqual(methods, []);
    const pub = entries(await runOutline(request({ path: 'config.rs', pubMembers: true }), ctx));
    assert.deepEqual(pub.map((l) => l.item.members?.map((m) => m.name)), [['name'], ['new'], undefined, undefined]);
  });

  it('views: names, signatures, digest and expanded show what they promise', async () => {
    await ws.files({ 'walk.py': PYTHON });
    const first = async (view: OutlineRequest['view']): Promise<OutlineItem> => {
      const [line] = entries(await runOutline(request({ path: 'walk.py', view }), ctx));
      assert.ok(line);
      return line.item;
    };
    const range = { start: { line: 3, column: 1 }, end: { line: 5, column: 26 } };
    assert.deepEqual(await first('names'), { name: 'Walker', type: 'class', exported: true, imported: false, range });
    assert.deepEqual(await first('signatures'), { name: 'Walker', type: 'class', signature: 'class Walker:', exported: true, imported: false, range });
    const digest = await first('digest');
    assert.deepEqual(digest.members, [
      { name: 'walk', type: 'method', exported: true, range: { start: { line: 4, column: 5 }, end: { line: 4, column: 25 } } },
      { name: '_skip', type: 'method', exported: false, range: { start: { line: 5, column: 5 }, end: { line: 5, column: 26 } } },
    ]);
    const expanded = await first('expanded');
    assert.deepEqual(expanded.members?.map((m) => m.signature), ['def walk(self):', 'def _skip(self):']);
  });

  it('limit counts top-level entries, not members, and says more exist', async () => {
    await ws.files({ 'config.rs': RUST });
    const result = await runOutline(request({ path: 'config.rs', limit: 2 }), ctx);
    assert.equal(result.status, 'success');
    assert.deepEqual(entries(result).map((l) => l.item.type), ['struct', 'impl']);
    assert.equal(result.metadata.entries, 2);
    assert.equal(result.metadata.symbols_returned, 6);
    assert.equal(result.metadata.truncated, true);
    assert.match(result.content, /\[truncated: the limit of 2 entries was reached/);
    const exact = await runOutline(request({ path: 'config.rs', limit: 4 }), ctx);
    assert.equal(exact.metadata.truncated, false, 'exactly limit entries is not a cut');
  });

  it('keeps whole entries under the 64 KiB cap: a parent and its members together', async () => {
    const fields = Array.from({ length: 60 }, (_, i) => `    pub field_number_${i}: u32,`).join('\n');
    const structs = Array.from({ length: 40 }, (_, i) => `pub struct Wide${i} {\n${fields}\n}`).join('\n');
    await ws.files({ 'wide.rs': structs });
    const result = await runOutline(request({ path: 'wide.rs', view: 'expanded' }), ctx);
    assert.equal(result.status, 'success');
    assert.ok(Buffer.byteLength(result.content) <= OUTPUT_CAP);
    const lines = entries(result);
    assert.ok(lines.length > 0 && lines.length < 40, `${lines.length} entries`);
    for (const line of lines) assert.equal(line.item.members?.length, 60);
    assert.equal(result.metadata.truncated, true);
    assert.equal(result.metadata.entries, lines.length);
    assert.equal(result.metadata.symbols_returned, lines.length * 61);
    assert.match(result.content, /\[truncated: output reached the 65536-byte cap/);
  });

  it('a passed deadline is a partial failure with the entries so far', async () => {
    const body = Array.from({ length: 300 }, (_, i) => `def function_${i}(a, b):\n    return a + b\n`).join('');
    const files: Record<string, string> = {};
    for (let i = 0; i < 60; i++) files[`pkg/m${String(i).padStart(2, '0')}.py`] = body;
    await ws.files(files);
    // One entry per file keeps the output small, so every file is parsed until the deadline.
    const result = await runOutline(request({ path: 'pkg', deadlineMs: 50, name: /^function_0$/ }), ctx);
    assert.equal(result.status, 'error');
    assert.equal(result.metadata.partial, true);
    assert.equal(result.metadata.timed_out, true);
    const outlined = result.metadata.files as number;
    assert.ok(outlined < 60, `${outlined} files outlined`);
    assert.equal(result.metadata.entries, outlined);
    assert.deepEqual(entries(result).map((l) => l.path), Object.keys(files).slice(0, outlined));
    assert.match(result.content, /\[partial: the 0\.05-second deadline passed/);
  });

  it('a deadline that passes during the walk is a partial failure too, not an empty success', async () => {
    await ws.files({ 'walked/a.py': 'def a():\n    pass\n' });
    const result = await runOutline(request({ path: 'walked', deadlineMs: 0 }), ctx);
    assert.equal(result.status, 'error');
    assert.equal(result.metadata.timed_out, true);
    assert.equal(result.metadata.scan_complete, false);
    assert.doesNotMatch(result.content, /No declarations matched/);
  });

  it('skips and reports too complex, too large and non-UTF-8 files; the rest is outlined', async () => {
    await ws.files({
      'a/deep.rs': `fn deep() { ${'('.repeat(70)}1${')'.repeat(70)} }\n`,
      'a/big.py': `X = 1\n${'#'.repeat(300 * 1024)}\n`,
      'a/latin.go': Buffer.from('package a\n// caf\xe9\nfunc A() {}\n', 'latin1'),
      'a/ok.go': 'package a\nfunc Ok() {}\n',
    });
    const result = await runOutline(request({ path: 'a' }), ctx);
    assert.equal(result.status, 'success');
    assert.deepEqual(entries(result).map((l) => l.item.name), ['Ok']);
    assert.equal(result.metadata.files, 1);
    assert.equal(result.metadata.files_skipped, 3);
    assert.equal(result.metadata.partial, true);
    assert.deepEqual([...(result.metadata.skipped as string[])].sort(), ['a/big.py: too_large', 'a/deep.rs: too_complex', 'a/latin.go: not_utf8']);
    assert.equal(notes(result).length, 3);
  });

  it('skips unknown file types and outlines an empty result as a success with a note', async () => {
    await ws.files({ 'docs/README.md': '# title\n', 'docs/run.rb': 'def x; end\n', 'docs/empty.ts': '// only a comment\n' });
    const result = await runOutline(request({ path: 'docs' }), ctx);
    assert.equal(result.status, 'success');
    assert.deepEqual(entries(result), []);
    assert.equal(result.metadata.other_files, 2);
    assert.equal(result.metadata.files, 1);
    assert.equal(result.metadata.symbols_returned, 0);
    assert.deepEqual(notes(result), ['No declarations matched in 1 outlined file(s) of 1 candidate(s).']);
    const single = await runOutline(request({ path: 'docs/README.md' }), ctx);
    assert.equal(single.status, 'success');
    assert.equal(single.metadata.other_files, 1);
  });

  it('language restricts a folder to that language; files past maxFiles make the outline partial', async () => {
    await ws.files({ 'mix/a.py': 'def a(): pass\n', 'mix/b.py': 'def b(): pass\n', 'mix/c.rs': 'fn c() {}\n' });
    const python = await runOutline(request({ path: 'mix', language: 'python' }), ctx);
    assert.deepEqual(entries(python).map((l) => `${l.language} ${l.item.name}`), ['python a', 'python b']);
    assert.equal(python.metadata.other_files, 1);
    const capped = await runOutline(request({ path: 'mix', maxFiles: 1 }), ctx);
    assert.equal(capped.status, 'success');
    assert.deepEqual(entries(capped).map((l) => l.item.name), ['a']);
    assert.equal(capped.metadata.files_skipped, 2);
    assert.equal(capped.metadata.partial, true);
    assert.match(capped.content, /\[partial: 2 file\(s\) past the 1-file limit not outlined; narrow path\]/);
  });

  it('throws when the call is cancelled', async () => {
    await ws.files({ 'walk.py': PYTHON });
    const controller = new AbortController();
    controller.abort();
    await assert.rejects(runOutline(request({ path: 'walk.py' }), { ...ctx, signal: controller.signal }));
  });
});
