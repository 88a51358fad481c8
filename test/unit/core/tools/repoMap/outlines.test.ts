import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { ToolContext } from '../../../../../src/core/tools/definition';
import { collectSources, DEFAULT_COLLECT_LIMITS } from '../../../../../src/core/tools/repoMap/collect';
import { tempWorkspace, type TempWorkspace } from '../../../helpers/workspace';

describe('repo_map outlines across calls', () => {
  let ws: TempWorkspace;
  const collect = (limits: Partial<typeof DEFAULT_COLLECT_LIMITS> = {}) => {
    const ctx: ToolContext = { runtime: ws.runtime, signal: new AbortController().signal, replay: false };
    return collectSources(undefined, [], { ...DEFAULT_COLLECT_LIMITS, ...limits, deadline: Date.now() + 30_000 }, ctx);
  };

  beforeEach(async () => {
    ws = await tempWorkspace();
    await ws.files({ 'a.ts': 'export function alphaOne() {}\n', 'b.py': 'def beta_one():\n    pass\n', 'c.go': 'package c\n\nfunc GammaOne() {}\n' });
  });
  afterEach(() => ws.cleanup());

  it('parses only the files that changed since the session\'s previous call', async () => {
    const first = await collect();
    assert.equal(first.parsed, 3);
    assert.deepEqual(first.files.map((f) => f.symbols[0]?.name), ['alphaOne', 'beta_one', 'GammaOne']);
    const second = await collect();
    assert.equal(second.parsed, 0, 'nothing changed, nothing parsed');
    assert.deepEqual(second.files.map((f) => f.symbols[0]?.name), first.files.map((f) => f.symbols[0]?.name));
    assert.equal(second.scanned, 3);

    await fsp.writeFile(path.join(ws.root, 'b.py'), 'def beta_two():\n    pass\n');
    const third = await collect();
    assert.equal(third.parsed, 1);
    assert.deepEqual(third.files.map((f) => f.symbols[0]?.name), ['alphaOne', 'beta_two', 'GammaOne']);
  });

  it('counts reused files against the byte limit as if read', async () => {
    await collect();
    const limited = await collect({ maxTotalBytes: 40 });
    assert.equal(limited.files.length, 1);
    assert.equal(limited.skipped.get('read_cap'), 2);
  });

  it('never reuses an outline for a file that became a symlink', async () => {
    await collect();
    await fsp.rm(path.join(ws.root, 'a.ts'));
    await fsp.symlink(path.join(ws.root, 'b.py'), path.join(ws.root, 'a.ts'));
    const after = await collect();
    assert.equal(after.skipped.get('not_regular'), 1);
    assert.deepEqual(after.files.map((f) => f.display), ['b.py', 'c.go']);
  });
});
