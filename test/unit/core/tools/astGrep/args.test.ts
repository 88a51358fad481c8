import assert from 'node:assert/strict';
import { astGrepInput, validateArgs, type OutlineArgs, type SearchArgs } from '../../../../../src/core/tools/astGrep/args';
import { ToolError } from '../../../../../src/core/tools/errors';

/** Schema, then cross-field validation: what the tool does with a provider's arguments. */
const validate = (args: unknown) => validateArgs(astGrepInput.parse(args));

function rejects(args: unknown, message: RegExp): void {
  assert.throws(() => validate(args), (err: unknown) => err instanceof ToolError && message.test(err.message));
}

describe('ast_grep arguments', () => {
  describe('null means omitted', () => {
    it('for every search field', () => {
      const nulls = { pattern: 'f($A)', rewrite: null, path: null, language: null, limit: null, items: null, view: null, name: null, symbol_type: null, pub_members: null };
      assert.deepEqual(validate(nulls), validate({ pattern: 'f($A)' }));
      assert.deepEqual(validate({ pattern: 'f($A)' }), { operation: 'search', pattern: 'f($A)', rewrite: undefined, path: undefined, language: undefined, limit: 100 } satisfies SearchArgs);
    });

    it('for every outline field', () => {
      const nulls = { operation: 'outline', pattern: null, rewrite: null, path: null, language: null, limit: null, items: null, view: null, name: null, symbol_type: null, pub_members: null };
      const expected: OutlineArgs = { operation: 'outline', path: undefined, language: undefined, limit: 100, items: 'structure', view: 'digest', name: undefined, symbolTypes: undefined, pubMembers: false };
      assert.deepEqual(validate(nulls), expected);
      assert.deepEqual(validate({ operation: 'outline' }), expected);
    });

    it('but not for operation, which must be search or outline when given', () => {
      assert.equal(astGrepInput.safeParse({ operation: null, pattern: 'x' }).success, false);
      assert.equal(astGrepInput.safeParse({ operation: 'replace', pattern: 'x' }).success, false);
      assert.equal(validate({ operation: 'search', pattern: 'x' }).operation, 'search');
    });
  });

  describe('fields of the other operation', () => {
    it('an outline field on search is named, with an omit-or-null example', () => {
      rejects({ pattern: 'x', view: 'names' }, /operation "search" does not take `view`="names"; omit it or set it to null, e.g. \{"operation":"search","view":null\}/);
      rejects({ pattern: 'x', items: 'all', symbol_type: 'class' }, /does not take `items`="all", `symbol_type`="class"; omit them or set them to null, e\.g\. \{"operation":"search","items":null,"symbol_type":null\}/);
      rejects({ pattern: 'x', name: '^f' }, /`name`="\^f"/);
    });

    it('pub_members: false on search is not absent', () => {
      rejects({ pattern: 'x', pub_members: false }, /does not take `pub_members`=false; omit it or set it to null/);
    });

    it('pattern and rewrite on outline are rejected, also empty strings and placeholders', () => {
      for (const pattern of ['f($A)', '', '<pattern>']) {
        rejects({ operation: 'outline', pattern }, new RegExp(`operation "outline" does not take \`pattern\`=${JSON.stringify(pattern).replace(/[()$]/g, '\\$&')}; omit it or set it to null, e\\.g\\. \\{"operation":"outline","pattern":null\\}`));
      }
      rejects({ operation: 'outline', pattern: null, rewrite: '' }, /does not take `rewrite`=""/);
      rejects({ operation: 'outline', rewrite: '<rewrite>' }, /does not take `rewrite`="<rewrite>"/);
    });
  });

  describe('search', () => {
    it('needs a nonempty pattern', () => {
      for (const args of [{}, { pattern: null }, { pattern: '' }, { pattern: ' \n\t' }]) rejects(args, /search needs a nonempty `pattern`/);
    });

    it('accepts a pattern and a rewrite of 4,096 UTF-8 bytes and rejects 4,097', () => {
      const max = 'é'.repeat(2048);
      assert.equal(Buffer.byteLength(max), 4096);
      assert.equal((validate({ pattern: max, rewrite: max }) as SearchArgs).pattern, max);
      rejects({ pattern: `${max}a` }, /`pattern` is 4097 bytes; at most 4096 bytes are accepted/);
      rejects({ pattern: 'x', rewrite: `a${max}` }, /`rewrite` is 4097 bytes; at most 4096 bytes are accepted/);
    });
  });

  describe('outline filters', () => {
    it('name and symbol_type accept 512 bytes and reject 513', () => {
      const name = 'a'.repeat(512);
      assert.equal((validate({ operation: 'outline', name }) as OutlineArgs).name?.source, name);
      rejects({ operation: 'outline', name: `${name}b` }, /`name` is 513 bytes; at most 512 bytes are accepted/);
      const types = `${' '.repeat(504)}function`;
      assert.deepEqual([...((validate({ operation: 'outline', symbol_type: types }) as OutlineArgs).symbolTypes ?? [])], ['function']);
      rejects({ operation: 'outline', symbol_type: ` ${types}` }, /`symbol_type` is 513 bytes; at most 512 bytes are accepted/);
    });

    it('a name that is not a valid regex is rejected; (?i) makes it case-insensitive', () => {
      rejects({ operation: 'outline', name: 'parse(' }, /`name` is not a valid regex/);
      const name = (validate({ operation: 'outline', name: '(?i)^parse' }) as OutlineArgs).name;
      assert.equal(name?.test('ParseArgs'), true);
    });

    it('an unknown symbol_type is named, with the known types', () => {
      rejects({ operation: 'outline', symbol_type: 'function, widget,Class' }, /unknown type\(s\) "widget", "Class"; use comma-separated lower camel case types from: function, method/);
      assert.deepEqual([...((validate({ operation: 'outline', symbol_type: 'function, enumMember' }) as OutlineArgs).symbolTypes ?? [])], ['function', 'enumMember']);
    });
  });

  describe('shared fields', () => {
    it('limit is 1 to 500', () => {
      rejects({ pattern: 'x', limit: 0 }, /`limit` must be 1 to 500 \(got 0\)/);
      rejects({ operation: 'outline', limit: 501 }, /`limit` must be 1 to 500 \(got 501\)/);
      assert.equal(validate({ pattern: 'x', limit: 500 }).limit, 500);
      assert.equal(validate({ operation: 'outline', limit: 1 }).limit, 1);
    });

    it('an unknown language is named, with the known ones', () => {
      rejects({ pattern: 'x', language: 'cobol' }, /unknown language "cobol"; use one of rust, typescript, tsx, javascript, python, go, kotlin, java, swift/);
      rejects({ operation: 'outline', language: 'Rust' }, /unknown language "Rust"/);
      assert.equal(validate({ pattern: 'x', language: 'kotlin' }).language, 'kotlin');
    });
  });
});
