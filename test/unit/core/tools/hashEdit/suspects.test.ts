import assert from 'node:assert/strict';
import { edit, editOk, fileWith, makeFixture, text, type Fixture } from './helpers';

/** Copied LINE: prefixes and miscounted SWAPs: refused once with the fix, applied when sent again. */
describe('hash_edit suspicious sections', () => {
  let fx: Fixture;
  beforeEach(async () => {
    fx = await makeFixture();
  });
  afterEach(async () => {
    await fx.cleanup();
  });

  const code = ['function total(items) {', '  let sum = 0;', '  for (const item of items) {', '    sum += item.price * item.count;', '  }', '  return sum;', '}', ''].join('\n');

  it('refuses body rows that copied the LINE: prefix, saying to drop it, and applies the very same call sent again', async () => {
    const header = await fileWith(fx, 'a.txt', 'A\nB\nC\n');
    const input = `${header}\nSWAP 2:\n+2:B`;
    const first = await edit(fx, input);
    assert.equal(first.metadata.error, 'line_prefix');
    assert.match(first.content, /input line 2 \(SWAP 2\): every body row starts with a line number and ':' \("2:B"\), copied from read's LINE:TEXT rows; drop the LINE: prefix and write \+TEXT only \(\+B, not \+2:B\)/);
    assert.equal(await text(fx, 'a.txt'), 'A\nB\nC\n');
    await editOk(fx, input);
    assert.equal(await text(fx, 'a.txt'), 'A\n2:B\nC\n');
  });

  it('refuses consecutive copied prefixes on a range and on an insert', async () => {
    const header = await fileWith(fx, 'b.ts', code);
    const swap = await edit(fx, `${header}\nSWAP 2.=3:\n+2:  let sum = 1;\n+3:  for (const item of items) {`);
    assert.equal(swap.metadata.error, 'line_prefix');
    const insert = await edit(fx, `${header}\nINS.POST 6:\n+7:  // done\n+8:  // really`);
    assert.equal(insert.metadata.error, 'line_prefix');
    assert.equal(await text(fx, 'b.ts'), code);
  });

  it('applies a genuine line that starts with digits and a colon', async () => {
    const header = await fileWith(fx, 'c.txt', 'agenda\nitem\nitem\n');
    // One such row among others, a time far from the anchored line, and ++ for a literal +12:x.
    await editOk(fx, `${header}\nSWAP 2:\n+12:00 meeting\n+lunch\nSWAP 3:\n+08:30 standup\nINS.TAIL:\n++12:x`);
    assert.equal(await text(fx, 'c.txt'), 'agenda\n12:00 meeting\nlunch\n08:30 standup\n+12:x\n');
  });

  it('refuses a SWAP whose body edits lines a few rows away, naming the range it probably meant', async () => {
    const header = await fileWith(fx, 'd.ts', code);
    // Meant line 4 (the sum line), wrote 3.
    const input = `${header}\nSWAP 3:\n+    sum += item.price * item.quantity;`;
    const first = await edit(fx, input);
    assert.equal(first.metadata.error, 'suspect_range');
    assert.match(first.content, /the body shares almost nothing with line 3 \(" {2}for \(const item of items\) \{"\) but nearly matches line 4 \(" {4}sum \+= item\.price \* item\.count;"\): did you mean `SWAP 4`\?/);
    assert.equal(await text(fx, 'd.ts'), code);
    const meant = await editOk(fx, input.replace('SWAP 3:', 'SWAP 4:'));
    assert.match(meant.content, /^4: {4}sum \+= item\.price \* item\.quantity;$/m);
  });

  it('applies a deliberate SWAP that looked miscounted when the same section is sent again', async () => {
    const header = await fileWith(fx, 'e.ts', code);
    const input = `${header}\nSWAP 2.=3:\n+    sum += item.price * item.count;\n+  }`;
    assert.equal((await edit(fx, input)).metadata.error, 'suspect_range');
    await editOk(fx, input);
    assert.equal(await text(fx, 'e.ts'), code.replace('  let sum = 0;\n  for (const item of items) {\n', '    sum += item.price * item.count;\n  }\n'));
  });

  it('does not suspect small edits of the named lines, rewrites, or unrelated text', async () => {
    const header = await fileWith(fx, 'f.ts', code);
    await editOk(fx, `${header}\nSWAP 2:\n+  let sum = 10;\nSWAP 4:\n+    sum += computeLineTotal(item);\nSWAP 6:\n+  return Math.round(sum * 100) / 100;`);
  });
});
