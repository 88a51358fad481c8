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
    assert.deepEqual(specs.map((s) => s.name), ['read', 'hash_edit', 'write', 'bash', 'grep', 'find', 'list_files', 'diagnostics', 'references', 'definition', 'symbols', 'subagents']);
    const write = specs.find((s) => s.name === 'write');
    assert.deepEqual(write?.parameters.required, ['path', 'content']);
    assert.ok(specs.every((s) => s.description.length > 40));
  });
});
