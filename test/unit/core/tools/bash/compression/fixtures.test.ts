import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { compressOutput } from '../../../../../../src/core/tools/bash/compression';

/**
 * Every recorded output under test/fixtures/compression/<rule>/<case>.txt (recorded from the real
 * tools by record.sh) against its pinned summary <case>.expected.txt. A case without an expected
 * file must pass through unchanged. UPDATE_COMPRESSION_EXPECTED=1 rewrites the expected files;
 * review their diff before committing.
 */
const ROOT = path.resolve(__dirname, '../../../../../fixtures/compression');
const UPDATE = process.env.UPDATE_COMPRESSION_EXPECTED === '1';

interface Recorded { command: string; exitCode: number | null }

async function cases(): Promise<{ rule: string; name: string; base: string }[]> {
  const out: { rule: string; name: string; base: string }[] = [];
  for (const rule of (await fsp.readdir(ROOT, { withFileTypes: true })).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
    for (const file of (await fsp.readdir(path.join(ROOT, rule))).filter((f) => f.endsWith('.json')).sort()) {
      const name = file.slice(0, -'.json'.length);
      out.push({ rule, name, base: path.join(ROOT, rule, name) });
    }
  }
  return out;
}

async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await fsp.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

describe('bash output compression: recorded fixtures', () => {
  it('finds fixtures for every rule', async () => {
    const rules = new Set((await cases()).map((c) => c.rule));
    assert.deepEqual([...rules].sort(), ['cargo-check', 'cargo-test', 'git-diff', 'git-status', 'mocha', 'pytest', 'tsc']);
  });

  it('pins each summary exactly (or pass-through where no expected file exists)', async () => {
    for (const c of await cases()) {
      const recorded = JSON.parse(await fsp.readFile(`${c.base}.json`, 'utf8')) as Recorded;
      const output = await fsp.readFile(`${c.base}.txt`, 'utf8');
      const compressed = compressOutput(recorded.command, output, recorded.exitCode);
      const expectedFile = `${c.base}.expected.txt`;
      if (UPDATE) {
        if (compressed) await fsp.writeFile(expectedFile, `${compressed.text}\n`);
        else await fsp.rm(expectedFile, { force: true });
      }
      const expected = await readIfExists(expectedFile);
      if (expected === undefined) assert.equal(compressed, undefined, `${c.rule}/${c.name}: expected pass-through`);
      else {
        assert.ok(compressed, `${c.rule}/${c.name}: expected a summary`);
        assert.equal(compressed.rule, c.rule, `${c.rule}/${c.name}: rule`);
        assert.equal(`${compressed.text}\n`, expected, `${c.rule}/${c.name}: summary`);
      }
    }
  });

  it('is deterministic: the same input gives the same summary', async () => {
    for (const c of await cases()) {
      const recorded = JSON.parse(await fsp.readFile(`${c.base}.json`, 'utf8')) as Recorded;
      const output = await fsp.readFile(`${c.base}.txt`, 'utf8');
      const first = compressOutput(recorded.command, output, recorded.exitCode);
      for (let i = 0; i < 3; i++) assert.deepEqual(compressOutput(recorded.command, output, recorded.exitCode), first);
    }
  });
});
