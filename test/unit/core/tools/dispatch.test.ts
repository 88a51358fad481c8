import assert from 'node:assert/strict';
import { z } from 'zod';
import { defineTool } from '../../../../src/core/tools/definition';
import { dispatchTool } from '../../../../src/core/tools/dispatch';
import { ToolError } from '../../../../src/core/tools/errors';
import { ToolRegistry } from '../../../../src/core/tools/registry';
import { success } from '../../../../src/core/tools/result';
import { tempWorkspace, type TempWorkspace } from '../../helpers/workspace';

const probe = defineTool({
  name: 'find',
  aliases: ['fffind'],
  description: 'probe',
  mutates: false,
  input: z.strictObject({ mode: z.enum(['ok', 'tool-error', 'crash', 'wait']) }),
  async execute(args, ctx) {
    if (args.mode === 'tool-error') throw new ToolError('narrow the pattern', 'invalid_input');
    if (args.mode === 'crash') throw new TypeError('boom');
    if (args.mode === 'wait') {
      await new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true }));
    }
    return success(`ran ${args.mode}`);
  },
});

describe('dispatchTool', () => {
  let ws: TempWorkspace;
  const registry = new ToolRegistry([probe]);
  beforeEach(async () => {
    ws = await tempWorkspace();
  });
  afterEach(() => ws.cleanup());

  it('runs a tool by alias and reports the canonical name', async () => {
    const outcome = await dispatchTool(registry, ws.runtime, 'fffind', { mode: 'ok' });
    assert.equal(outcome.tool, 'find');
    assert.equal(outcome.result.content, 'ran ok');
  });

  it('turns an unknown tool, bad arguments and thrown errors into error results', async () => {
    const unknown = await dispatchTool(registry, ws.runtime, 'grepp', {});
    assert.equal(unknown.result.status, 'error');
    assert.match(unknown.result.content, /Unknown tool `grepp`\. Available tools: find\./);
    const bad = await dispatchTool(registry, ws.runtime, 'find', { mode: 'fast' });
    assert.match(bad.result.content, /^find: invalid arguments: field `mode`/);
    const extra = await dispatchTool(registry, ws.runtime, 'find', { mode: 'ok', other: 1 });
    assert.match(extra.result.content, /unknown field `other` \(allowed fields: mode\)/);
    const toolError = await dispatchTool(registry, ws.runtime, 'find', { mode: 'tool-error' });
    assert.deepEqual([toolError.result.content, toolError.result.metadata.error], ['narrow the pattern', 'invalid_input']);
    const crash = await dispatchTool(registry, ws.runtime, 'find', { mode: 'crash' });
    assert.match(crash.result.content, /^find failed: boom/);
  });

  it('cancels through the caller’s signal', async () => {
    const controller = new AbortController();
    const pending = dispatchTool(registry, ws.runtime, 'find', { mode: 'wait' }, { signal: controller.signal });
    controller.abort();
    const outcome = await pending;
    assert.equal(outcome.result.status, 'error');
    assert.equal(outcome.result.metadata.cancelled, true);
    const already = await dispatchTool(registry, ws.runtime, 'find', { mode: 'ok' }, { signal: controller.signal });
    assert.match(already.result.content, /cancelled before it started/);
  });
});
