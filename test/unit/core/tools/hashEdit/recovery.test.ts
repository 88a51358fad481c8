import assert from 'node:assert/strict';
import fc from 'fast-check';
import { edit, editOk, fileWith, makeFixture, put, text, type Fixture } from './helpers';
import { outsideChange } from './outsideChange';

const render = (lines: readonly string[]): string => (lines.length ? lines.join('\n') + '\n' : '');

/** Stale-tag recovery through the tool: ops land where the anchored lines went, or the call is refused. */
describe('hash_edit stale-tag recovery', () => {
  let fx: Fixture;
  beforeEach(async () => {
    fx = await makeFixture();
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  it('follows an anchor past lines another process prepended, onto a blank line that repeats', async () => {
    const header = await fileWith(fx, 'a.md', 'one\n\ntwo\n\nthree\n');
    await put(fx, 'a.md', 'x\ny\none\n\ntwo\n\nthree\n');
    const result = await editOk(fx, `${header}\nINS.POST 4:\n+NEW`);
    assert.equal(result.metadata.recovered, true);
    assert.equal(await text(fx, 'a.md'), 'x\ny\none\n\ntwo\n\nNEW\nthree\n');
    assert.match(result.content, /^7:NEW$/m);
  });

  it("follows the session's own edits exactly, even across identical blank lines", async () => {
    const lines = Array.from({ length: 100 }, (_, i) => (i % 2 === 1 ? '' : `line ${i + 1}`));
    const header = await fileWith(fx, 'b.txt', lines.join('\n') + '\n');
    await editOk(fx, `${header}\nINS.POST 1:\n+\n+`);
    await editOk(fx, `${header}\nINS.PRE 94:\n+here`);
    const expected = [...lines];
    expected.splice(93, 0, 'here');
    expected.splice(1, 0, '', '');
    assert.equal(await text(fx, 'b.txt'), expected.join('\n') + '\n');
  });

  it('applies at the mapped lines when lines were inserted and deleted above the anchor', async () => {
    const header = await fileWith(fx, 'c.ts', 'import a;\nimport b;\n\nfunction f() {\n  return 1;\n}\n');
    await put(fx, 'c.ts', 'import b;\nimport c;\nimport d;\n\nfunction f() {\n  return 1;\n}\n');
    await editOk(fx, `${header}\nSWAP 5:\n+  return 2;`);
    assert.equal(await text(fx, 'c.ts'), 'import b;\nimport c;\nimport d;\n\nfunction f() {\n  return 2;\n}\n');
  });

  it('refuses an anchor whose place became unclear, naming the line and the range to re-read', async () => {
    const header = await fileWith(fx, 'd.txt', 'a\n\nb\n');
    await put(fx, 'd.txt', 'a\n\n\nb\n');
    const result = await edit(fx, `${header}\nINS.POST 2:\n+x`);
    assert.equal(result.metadata.error, 'stale_tag');
    assert.match(result.content, /line 2, used by INS\.POST 2, repeats nearby and lines were added or removed around it, so where it is now is unclear\)\. Re-read lines 1-4 \(read d\.txt:1-4\)/);
    assert.equal(await text(fx, 'd.txt'), 'a\n\n\nb\n');
  });

  it('refuses a replaced range that another process split with new lines', async () => {
    const header = await fileWith(fx, 'e.txt', 'a\nb\nc\nd\n');
    await put(fx, 'e.txt', 'a\nb\ninserted\nc\nd\n');
    const result = await edit(fx, `${header}\nSWAP 2.=3:\n+B\n+C`);
    assert.match(result.content, /lines were added or removed between lines 2 and 3, used by SWAP 2\.=3/);
    assert.equal(await text(fx, 'e.txt'), 'a\nb\ninserted\nc\nd\n');
  });

  it('lands exactly where the anchored lines went, or refuses and changes nothing (random outside changes)', async () => {
    const op = fc.record({ kind: fc.constantFrom('SWAP', 'DEL', 'INS.PRE', 'INS.POST'), at: fc.nat(), len: fc.integer({ min: 1, max: 3 }) });
    let applied = 0;
    await fc.assert(
      fc.asyncProperty(outsideChange, op, async ({ before, after, truth }, { kind, at, len }) => {
        const start = (at % before.length) + 1;
        const end = kind === 'SWAP' || kind === 'DEL' ? Math.min(before.length, start + len - 1) : start;
        const header = await fileWith(fx, 'p.txt', render(before));
        const current = render(after);
        await put(fx, 'p.txt', current);
        const range = start === end ? `${start}` : `${start}.=${end}`;
        const input = kind === 'DEL' ? `DEL ${range}` : `${kind} ${kind === 'SWAP' ? range : start}:\n+written`;
        const result = await edit(fx, `${header}\n${input}`);
        const spots = truth.slice(start - 1, end);
        const survived = spots.every((spot, i) => spot !== 0 && (i === 0 || spot === (spots[i - 1] ?? 0) + 1));
        if (result.status !== 'success') {
          assert.equal(await text(fx, 'p.txt'), current, result.content);
          return;
        }
        assert.ok(survived, `applied although an anchored line did not survive: ${result.content}`);
        const lines = [...after];
        const first = spots[0] ?? 0;
        if (kind === 'SWAP') lines.splice(first - 1, end - start + 1, 'written');
        if (kind === 'DEL') lines.splice(first - 1, end - start + 1);
        if (kind === 'INS.PRE') lines.splice(first - 1, 0, 'written');
        if (kind === 'INS.POST') lines.splice(first, 0, 'written');
        assert.equal(await text(fx, 'p.txt'), render(lines));
        applied++;
      }),
      { numRuns: 300 },
    );
    assert.ok(applied > 100, `only ${applied} of 300 random stale edits applied`);
  });
});
