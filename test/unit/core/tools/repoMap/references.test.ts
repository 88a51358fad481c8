import assert from 'node:assert/strict';
import type { LanguageId } from '../../../../../src/core/tools/astGrep/languages';
import type { OutlineSymbol } from '../../../../../src/core/tools/astGrep/outline/types';
import { countReferences, definersOf, moduleNames, referenceName } from '../../../../../src/core/tools/repoMap/references';
import { symbol } from './symbols';

interface File {
  display: string;
  language: LanguageId;
  text: string;
  symbols: OutlineSymbol[];
}

const always = (): boolean => true;

function count(files: File[], maxTokens = 1_000_000) {
  return countReferences(files, definersOf(files), maxTokens, always);
}

describe('repo_map references', () => {
  it('names a symbol by its last identifier, and never an import or impl block', () => {
    assert.equal(referenceName(symbol('(*Server).Start', 1)), 'Start');
    assert.equal(referenceName(symbol('loadConfig', 1)), 'loadConfig');
    assert.equal(referenceName(symbol('fmt', 1, { imported: true })), undefined);
    assert.equal(referenceName(symbol('Display for Point', 1, { type: 'impl' })), undefined);
    assert.equal(referenceName(symbol('x', 1)), undefined, 'one character is too common');
  });

  it('names modules as imports write them', () => {
    assert.deepEqual(moduleNames('src/core/settings.ts', 'typescript'), ['settings']);
    assert.deepEqual(moduleNames('src/tools/index.ts', 'typescript'), ['tools']);
    assert.deepEqual(moduleNames('test/a.test.ts', 'typescript'), ['a']);
    assert.deepEqual(moduleNames('pkg/server/handler.go', 'go'), ['server']);
    assert.deepEqual(moduleNames('app/models/__init__.py', 'python'), ['models']);
    assert.deepEqual(moduleNames('src/net/mod.rs', 'rust'), ['net']);
    assert.equal(moduleNames('src/lib.rs', 'rust'), undefined);
    assert.equal(moduleNames('my-app/index.ts', 'typescript'), undefined);
  });

  it('counts occurrences per referencing file, not in the defining file', () => {
    const refs = count([
      { display: 'src/config.ts', language: 'typescript', text: 'export function loadConfig() { loadConfig(); }', symbols: [symbol('loadConfig', 1)] },
      { display: 'src/a.ts', language: 'typescript', text: 'loadConfig(); loadConfig(); other();', symbols: [] },
      { display: 'lib/b.tsx', language: 'tsx', text: "import { loadConfig } from '../src/config';\nconst c = loadConfig();", symbols: [] },
    ]);
    assert.deepEqual([...(refs.byName.get('loadConfig') ?? [])], [[1, 2], [2, 2]]);
    assert.equal(refs.byName.has('other'), false);
    assert.equal(refs.capped, false);
    assert.equal(refs.filesScanned, 3);
  });

  it('lets unexported Go, Rust and Python names be named from the same folder only, TypeScript ones from nowhere', () => {
    const refs = count([
      { display: 'pkg/server.go', language: 'go', text: '', symbols: [symbol('startServer', 1, { exported: false })] },
      { display: 'pkg/main.go', language: 'go', text: 'startServer()', symbols: [] },
      { display: 'cmd/main.go', language: 'go', text: 'startServer()', symbols: [] },
      { display: 'src/util.ts', language: 'typescript', text: '', symbols: [symbol('hiddenHelper', 1, { exported: false })] },
      { display: 'src/app.ts', language: 'typescript', text: 'hiddenHelper()', symbols: [] },
    ]);
    assert.deepEqual([...(refs.byName.get('startServer')?.keys() ?? [])], [1]);
    assert.equal(refs.byName.has('hiddenHelper'), false);
  });

  it('from another folder, counts a name only where the file mentions the module defining it', () => {
    const refs = count([
      { display: 'pkg/server/server.go', language: 'go', text: 'package server', symbols: [symbol('StartServer', 3)] },
      { display: 'cmd/main.go', language: 'go', text: 'import "example.com/pkg/server"\nserver.StartServer()', symbols: [] },
      { display: 'cmd/other/other.go', language: 'go', text: 'StartServer()', symbols: [] },
      { display: 'py/models.py', language: 'python', text: '', symbols: [symbol('UserAccount', 1, { type: 'class' })] },
      { display: 'app/api.py', language: 'python', text: 'from py.models import UserAccount\nUserAccount()', symbols: [] },
      { display: 'app/cli.py', language: 'python', text: 'UserAccount()', symbols: [] },
      { display: 'src/util/index.ts', language: 'typescript', text: '', symbols: [symbol('formatBytes', 1)] },
      { display: 'src/view.ts', language: 'typescript', text: "import { formatBytes } from './util';\nformatBytes(1)", symbols: [] },
      { display: 'crate/src/lib.rs', language: 'rust', text: '', symbols: [symbol('parse_manifest', 1)] },
      { display: 'crate/tests/it.rs', language: 'rust', text: 'mycrate::parse_manifest("")', symbols: [] },
    ]);
    assert.deepEqual([...(refs.byName.get('StartServer')?.keys() ?? [])], [1], 'the package is named only by cmd/main.go');
    assert.deepEqual([...(refs.byName.get('UserAccount')?.keys() ?? [])], [4]);
    assert.deepEqual([...(refs.byName.get('formatBytes')?.keys() ?? [])], [7], 'an index file is its folder');
    assert.deepEqual([...(refs.byName.get('parse_manifest')?.keys() ?? [])], [9], 'a crate root is reachable by any file');
  });

  it('never links languages of different families', () => {
    const refs = count([
      { display: 'models.py', language: 'python', text: '', symbols: [symbol('UserAccount', 1, { type: 'class' })] },
      { display: 'account.ts', language: 'typescript', text: 'UserAccount', symbols: [] },
      { display: 'api.py', language: 'python', text: 'UserAccount()', symbols: [] },
    ]);
    assert.deepEqual([...(refs.byName.get('UserAccount')?.keys() ?? [])], [2]);
  });

  it('defines members as members, visible only when their type is', () => {
    const definers = definersOf([
      { language: 'rust', symbols: [symbol('Point', 1, { type: 'struct', members: [symbol('x_pos', 2, { type: 'field', exported: true }), symbol('secret', 3, { type: 'field', exported: false })] })] },
    ]);
    assert.deepEqual(definers.get('x_pos'), [{ file: 0, member: true, scope: 'public' }]);
    assert.deepEqual(definers.get('secret'), [{ file: 0, member: true, scope: 'folder' }]);
    assert.deepEqual(definers.get('Point'), [{ file: 0, member: false, scope: 'public' }]);
  });

  it('stops at the token limit and says how many files were counted', () => {
    const refs = count([
      { display: 'a.ts', language: 'typescript', text: 'one two three', symbols: [symbol('one', 1)] },
      { display: 'b.ts', language: 'typescript', text: 'one one one one', symbols: [] },
      { display: 'c.ts', language: 'typescript', text: 'one', symbols: [] },
    ], 5);
    assert.equal(refs.capped, true);
    assert.equal(refs.filesScanned, 1);
    assert.equal(refs.tokensScanned, 5);
    assert.deepEqual([...(refs.byName.get('one') ?? [])], [[1, 2]]);
  });

  it('stops at the first file the step refuses (the deadline)', () => {
    const files: File[] = [
      { display: 'a.ts', language: 'typescript', text: '', symbols: [symbol('shared', 1)] },
      { display: 'b.ts', language: 'typescript', text: 'shared', symbols: [] },
    ];
    let steps = 0;
    const refs = countReferences(files, definersOf(files), 100, () => ++steps < 2);
    assert.equal(refs.filesScanned, 1);
    assert.equal(refs.capped, false);
    assert.equal(refs.byName.size, 0);
  });
});
