import assert from 'node:assert/strict';
import { promises as fsp } from 'node:fs';
import { applyPatch } from 'diff';
import fc from 'fast-check';
import { abs, edit, makeFixture, put, seen, text, type Fixture } from './helpers';

/**
 * Properties over the whole tool: random valid scripts agree with a tiny reference model, and
 * random invalid input never changes the file.
 */

const lineText = fc.string({ unit: fc.constantFrom('a', 'b', ' ', '+', '-', '{', '}', '#', ':'), maxLength: 6 });
const body = fc.array(lineText, { minLength: 1, maxLength: 3 });

interface FileCase {
  lines: string[];
  finalNewline: boolean;
}

/** A file as lines; a file whose last line is empty always ends with a newline (else that line would not exist). */
const fileCase = fc
  .record({ lines: fc.array(lineText, { maxLength: 12 }), finalNewline: fc.boolean() })
  .map(({ lines, finalNewline }): FileCase => ({ lines, finalNewline: finalNewline || lines.length === 0 || lines[lines.length - 1] === '' }));

function render(file: FileCase): string {
  return file.lines.length === 0 ? '' : file.lines.join('\n') + (file.finalNewline ? '\n' : '');
}

interface Script {
  /** Op lines with their bodies, in any order. */
  ops: string[];
  expected: string;
}

const row = (t: string): string => `+${t}`;

/**
 * Builds non-overlapping ops from random choices: per line keep/swap/delete (ranges up to 3 lines),
 * per gap an optional insert written in one of the spellings valid at that gap, and computes the
 * expected text directly.
 */
function buildScript(file: FileCase, actions: { kind: number; len: number; body: string[] }[], inserts: { on: boolean; style: number; body: string[] }[], shuffleSeed: number): Script {
  const n = file.lines.length;
  const rangeAt = new Map<number, { end: number; swap: string[] | null }>();
  const covered = new Set<number>();
  const ops: string[] = [];
  for (let i = 1; i <= n; ) {
    const action = actions[(i - 1) % actions.length] ?? { kind: 0, len: 1, body: ['x'] };
    if (action.kind === 0) {
      i++;
      continue;
    }
    const end = Math.min(n, i + action.len - 1);
    const swap = action.kind === 1 ? action.body : null;
    rangeAt.set(i, { end, swap });
    for (let k = i; k <= end; k++) covered.add(k);
    const range = i === end ? `${i}` : `${i}.=${end}`;
    ops.push(swap ? [`SWAP ${range}:`, ...swap.map(row)].join('\n') : `DEL ${range}`);
    i = end + 1;
  }
  const insertAt = new Map<number, string[]>();
  for (let g = 0; g <= n; g++) {
    const ins = inserts[g % inserts.length];
    if (!ins?.on) continue;
    const spellings: string[] = [];
    if (g === 0) spellings.push('INS.HEAD:');
    if (g === n) spellings.push('INS.TAIL:');
    if (g >= 1 && !covered.has(g)) spellings.push(`INS.POST ${g}:`);
    if (g < n && !covered.has(g + 1)) spellings.push(`INS.PRE ${g + 1}:`);
    const spelling = spellings[ins.style % Math.max(1, spellings.length)];
    if (!spelling) continue;
    insertAt.set(g, ins.body);
    ops.push([spelling, ...ins.body.map(row)].join('\n'));
  }

  const out: string[] = [];
  for (let g = 0; g <= n; g++) {
    out.push(...(insertAt.get(g) ?? []));
    if (g === n) break;
    const line = g + 1;
    const range = rangeAt.get(line);
    if (range) out.push(...(range.swap ?? []));
    else if (!covered.has(line)) out.push(file.lines[g] ?? '');
  }
  // An empty last line only exists with a terminator after it, so it ends the file with a newline.
  const finalNewline = n === 0 || file.finalNewline || out[out.length - 1] === '';
  const expected = out.length === 0 ? '' : out.join('\n') + (finalNewline ? '\n' : '');

  // Deterministic shuffle: line numbers refer to the tagged version, so op order must not matter.
  let state = shuffleSeed >>> 0 || 1;
  for (let i = ops.length - 1; i > 0; i--) {
    state = (state * 1103515245 + 12345) >>> 0;
    const j = state % (i + 1);
    [ops[i], ops[j]] = [ops[j] ?? '', ops[i] ?? ''];
  }
  return { ops, expected };
}

describe('hash_edit properties', function () {
  this.timeout(120_000);
  let fx: Fixture;
  before(async () => {
    fx = await makeFixture();
  });
  after(async () => {
    await fx.cleanup();
  });

  it('applies random non-overlapping scripts exactly like the reference model, with a display diff that reproduces them', async () => {
    const action = fc.record({ kind: fc.integer({ min: 0, max: 2 }), len: fc.integer({ min: 1, max: 3 }), body });
    const insert = fc.record({ on: fc.boolean(), style: fc.nat(3), body });
    await fc.assert(
      fc.asyncProperty(fileCase, fc.array(action, { minLength: 1, maxLength: 12 }), fc.array(insert, { minLength: 1, maxLength: 13 }), fc.nat(), async (file, actions, inserts, seed) => {
        const script = buildScript(file, actions, inserts, seed);
        fc.pre(script.ops.length > 0);
        await put(fx, 'p.txt', render(file));
        const tag = await seen(fx, 'p.txt');
        const result = await edit(fx, `[p.txt#${tag}]\n${script.ops.join('\n')}`);
        assert.equal(result.status, 'success', result.content);
        assert.equal(await text(fx, 'p.txt'), script.expected);
        // The display diff is built from the edit's own hunks: applied to the old text it must give the new one.
        const patch = result.display?.diffs?.[0]?.diff ?? '';
        assert.equal(applyPatch(render(file), patch), script.expected, patch);
      }),
      { numRuns: 200 },
    );
  });

  it('never changes the file for invalid input and always reports an error', async () => {
    const content = 'alpha\nbeta\ngamma\ndelta\n';
    const n = 4;
    const validOp = fc.constantFrom('SWAP 1:\n+x', 'DEL 2', 'INS.POST 3:\n+y', 'INS.TAIL:\n+z');
    const badLine = fc.oneof(fc.constant(0), fc.integer({ min: n + 1, max: n + 1000 }));
    const badOp = badLine.chain((l) => fc.constantFrom(`SWAP ${l}:\n+x`, `DEL ${l}`, `DEL 1.=${l}`, `INS.PRE ${l}:\n+x`, `INS.POST ${l}:\n+x`, `SWAP.BLK ${l}:\n+x`));
    const garbageRow = fc.string({ unit: fc.constantFrom('a', 'z', ' ', '1', '.', ':'), minLength: 1, maxLength: 8 }).filter((s) => s.trim() !== '');
    const hexTag = fc.string({ unit: fc.constantFrom(...'0123456789ABCDEF'), minLength: 6, maxLength: 6 });

    await put(fx, 'inv.txt', content);
    const tag = await seen(fx, 'inv.txt');
    const header = `[inv.txt#${tag}]`;
    const before = await fsp.readFile(abs(fx, 'inv.txt'));

    const input = fc.oneof(
      fc.string(), // anything at all
      fc.tuple(hexTag.filter((t) => t !== tag), fc.array(validOp, { minLength: 1, maxLength: 3 })).map(([t, ops]) => `[inv.txt#${t}]\n${ops.join('\n')}`),
      fc.tuple(fc.array(validOp, { maxLength: 2 }), badOp).map(([ops, bad]) => `${header}\n${[...ops, bad].join('\n')}`),
      fc.tuple(fc.array(validOp, { maxLength: 2 }), garbageRow).map(([ops, junk]) => `${header}\n${[...ops, junk].join('\n')}`),
      fc.integer({ min: 1, max: n }).map((l) => `${header}\nDEL ${l}\nSWAP ${l}:\n+x`),
    );
    await fc.assert(
      fc.asyncProperty(input, async (raw) => {
        fc.pre(raw.length > 0);
        const result = await edit(fx, raw);
        assert.equal(result.status, 'error', `accepted: ${JSON.stringify(raw)}`);
        assert.deepEqual(await fsp.readFile(abs(fx, 'inv.txt')), before);
        assert.equal(fx.runtime.snapshots.newest(abs(fx, 'inv.txt'))?.tag, tag);
      }),
      { numRuns: 300 },
    );
  });
});
