import assert from 'node:assert/strict';
import { FrontmatterError, parseFrontmatter } from '../../../../../src/core/agent/context/frontmatter';

const parse = (text: string) => parseFrontmatter(text, 'x/SKILL.md');

describe('parseFrontmatter', () => {
  it('reads plain, quoted and block scalars and keeps the body', () => {
    const front = parse('---\nname: pdf\ndescription: "Say \\"hi\\"\\n" # note\n---\n# Body\ntext\n');
    assert.deepEqual(front, { name: 'pdf', description: 'Say "hi"\n', body: '# Body\ntext\n' });
    assert.equal(parse("---\nname: 'it''s'\n---\n").name, "it's");
    assert.equal(parse('---\nname: a\ndescription: >-\n  one\n  two\n\n  three\n---\n').description, 'one two\nthree');
    assert.equal(parse('---\nname: a\ndescription: |\n  one\n    two\n---\n').description, 'one\n  two');
    assert.equal(parse('\uFEFF---\r\nname: a # trailing comment\r\n---\r\nbody').name, 'a');
  });

  it('reads tools as a comma list, an inline list or a bulleted list', () => {
    assert.deepEqual(parse('---\ntools: read, grep ,find\n---\n').tools, ['read', 'grep', 'find']);
    assert.deepEqual(parse('---\ntools: [read, "hash_edit", \'a,b\']\n---\n').tools, ['read', 'hash_edit', 'a,b']);
    assert.deepEqual(parse('---\ntools: []\n---\n').tools, []);
    assert.deepEqual(parse('---\ntools:\n  - read\n  - "bash"\n---\n').tools, ['read', 'bash']);
    assert.deepEqual(parse('---\ntools:\n- read\n- grep\nname: a\n---\n'), { tools: ['read', 'grep'], name: 'a', body: '' });
  });

  it('skips other keys, nested values included, without interpreting them', () => {
    const front = parse('---\nname: a\nmetadata:\n  author: me\n  tags: [x: y\nlicense: MIT\n---\n');
    assert.deepEqual(front, { name: 'a', body: '' });
  });

  const errors: [string, string][] = [
    ['no fence\n', 'x/SKILL.md: frontmatter: the file must start with a `---` line opening the frontmatter block.'],
    ['---\nname: a\n', 'x/SKILL.md: frontmatter: no closing `---` line ends the frontmatter block.'],
    ['---\nname: a\nname: b\n---\n', 'x/SKILL.md: frontmatter field "name": is given twice.'],
    ['---\nname:\n---\n', 'x/SKILL.md: frontmatter field "name": is empty.'],
    ['---\ndescription: Use when: x\n---\n', 'x/SKILL.md: frontmatter field "description": contains ": ", which YAML reads as a nested key; put the value in quotes.'],
    ['---\ndescription: [x]\n---\n', 'x/SKILL.md: frontmatter field "description": starts with "[", which YAML reads as syntax; put the value in quotes.'],
    ['---\nname: "a\n---\n', 'x/SKILL.md: frontmatter field "name": has an unterminated double-quoted value.'],
    ['---\ndescription: one\n  two\n---\n', 'x/SKILL.md: frontmatter field "description": continues on indented lines; write it on one line, quote it, or use a `|` or `>` block.'],
    ['---\ntools: [read, grep\n---\n', 'x/SKILL.md: frontmatter field "tools": has an unterminated [ list.'],
    ['---\ntools: read,,grep\n---\n', 'x/SKILL.md: frontmatter field "tools": has an empty list item.'],
    ['---\ntools:\n  read\n---\n', 'x/SKILL.md: frontmatter field "tools": expected a "- item" line, got "read".'],
    ['---\njust text\n---\n', 'x/SKILL.md: frontmatter: expected "key: value", got "just text".'],
  ];
  for (const [text, message] of errors) {
    it(`refuses ${JSON.stringify(text)} naming the file and field`, () => {
      assert.throws(() => parse(text), (err: unknown) => err instanceof FrontmatterError && err.message === message);
    });
  }
});
