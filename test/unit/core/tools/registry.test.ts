import assert from 'node:assert/strict';
import { z } from 'zod';
import { defineTool } from '../../../../src/core/tools/definition';
import { createDefaultRegistry } from '../../../../src/core/tools';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import { success } from '../../../../src/core/tools/result';

const fake = (name: string, aliases: string[] = []) =>
  defineTool({ name, aliases, description: name, mutates: false, input: z.strictObject({ q: z.string() }), execute: async () => success('') });

describe('ToolRegistry', () => {
  it('orders tools canonically whatever the registration order, unknown names last', () => {
    const registry = new ToolRegistry([fake('zeta'), fake('grep', ['ffgrep']), fake('read'), fake('bash', ['shell', 'cmd'])]);
    assert.deepEqual(registry.names(), ['read', 'bash', 'grep', 'zeta']);
  });

  it('resolves aliases to the canonical tool and refuses duplicates', () => {
    const registry = new ToolRegistry([fake('bash', ['shell', 'cmd'])]);
    assert.equal(registry.get('cmd')?.name, 'bash');
    assert.equal(registry.get('nope'), undefined);
    assert.throws(() => new ToolRegistry([fake('a', ['b']), fake('b')]), /duplicate tool name or alias: b/);
  });

  it('exports strict JSON Schema for providers, hiding read’s replay-only fields', () => {
    const specs = createDefaultRegistry().providerSpecs();
    const read = specs.find((s) => s.name === 'read');
    assert.ok(read);
    assert.deepEqual(Object.keys(read.parameters.properties as object), ['paths']);
    assert.equal(read.parameters.additionalProperties, false);
    assert.deepEqual(read.parameters.required, ['paths']);
    assert.deepEqual(specs.map((s) => s.name), ['read', 'hash_edit', 'write', 'bash', 'grep', 'find', 'list_files', 'repo_map', 'ast_grep', 'diagnostics', 'references', 'definition', 'symbols', 'web', 'browser', 'view_image', 'subagents']);
    const write = specs.find((s) => s.name === 'write');
    assert.deepEqual(write?.parameters.required, ['path', 'content']);
    assert.ok(specs.every((s) => s.description.length > 40));
  });

  it('offers ast_grep with every field but operation nullable, so providers that require every key can send null', () => {
    const astGrep = createDefaultRegistry().providerSpecs().find((s) => s.name === 'ast_grep');
    type Property = { type?: string | string[]; anyOf?: { type?: string }[] };
    const properties = astGrep?.parameters.properties as Record<string, Property>;
    const allowsNull = (p: Property | undefined): boolean => (Array.isArray(p?.type) && p.type.includes('null')) || (p?.anyOf?.some((branch) => branch.type === 'null') ?? false);
    const nullable = Object.keys(properties).filter((key) => allowsNull(properties[key]));
    assert.deepEqual(nullable.sort(), ['items', 'language', 'limit', 'name', 'path', 'pattern', 'pub_members', 'rewrite', 'symbol_type', 'view']);
    assert.equal(astGrep?.parameters.required, undefined);
  });
});
