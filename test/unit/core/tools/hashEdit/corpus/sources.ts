import type { Rng } from './random';

/**
 * Realistic source files, generated from the seed: functions, if/else chains, classes, nested
 * objects, lists, and the repeated lines (`}`, `});`, blank lines, `end`, near-identical JSON and
 * YAML entries) that make line-number mistakes land on look-alike lines. Every file is LF with a
 * final newline; fixtures.ts derives the variants.
 */

export type Lang = 'ts' | 'js' | 'json' | 'md' | 'py' | 'css' | 'yaml';

const NOUNS = ['user', 'order', 'invoice', 'session', 'report', 'widget', 'ticket', 'payment', 'account', 'message', 'upload', 'schedule'];
const VERBS = ['load', 'save', 'render', 'validate', 'fetch', 'merge', 'update', 'remove', 'format', 'resolve', 'notify', 'count'];
const cap = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

function names(rng: Rng): { noun: string; verb: string; Noun: string } {
  const noun = rng.pick(NOUNS);
  return { noun, verb: rng.pick(VERBS), Noun: cap(noun) };
}

function tsMethod(rng: Rng, ind: string): string[] {
  const { noun, verb, Noun } = names(rng);
  const n = rng.int(2, 90);
  const shapes = [
    () => [`async ${verb}${Noun}(id: string): Promise<${Noun} | undefined> {`, `  const hit = this.cache.get(id);`, `  if (hit !== undefined) {`, `    return hit;`, `  }`, `  const row = await this.db.find('${noun}s', id);`, `  if (!row) {`, `    return undefined;`, `  } else {`, `    this.cache.set(id, row);`, `  }`, `  return row;`, `}`],
    () => [`${verb}All(items: ${Noun}[]): number {`, `  let total = 0;`, `  for (const item of items) {`, `    if (item.count > ${n}) {`, `      total += item.count;`, `    }`, `  }`, `  return total;`, `}`],
    () => [`async ${verb}(path: string): Promise<void> {`, `  try {`, `    const text = await fsp.readFile(path, 'utf8');`, `    this.${noun}s.push(JSON.parse(text));`, `  } catch (err) {`, `    this.log.warn('${verb} failed', err);`, `    throw err;`, `  } finally {`, `    this.pending--;`, `  }`, `}`],
    () => [`private ${verb}Options(): ${Noun}Options {`, `  return {`, `    limit: ${n},`, `    retries: ${rng.int(1, 5)},`, `    labels: ['${noun}', '${verb}'],`, `    nested: {`, `      enabled: true,`, `      timeoutMs: ${n * 100},`, `    },`, `  };`, `}`],
  ];
  return rng.pick(shapes)().map((l) => ind + l);
}

function typescript(rng: Rng): string {
  const { noun, Noun } = names(rng);
  const out = [`import { promises as fsp } from 'node:fs';`, `import * as path from 'node:path';`, `import type { Db, Logger } from './types';`, ''];
  out.push(`export interface ${Noun} {`, `  id: string;`, `  count: number;`, `  tags: string[];`, `}`, '');
  out.push(`export interface ${Noun}Options {`, `  limit: number;`, `  retries: number;`, `  labels: string[];`, `  nested: { enabled: boolean; timeoutMs: number };`, `}`, '');
  out.push(`export class ${Noun}Store {`, `  private readonly cache = new Map<string, ${Noun}>();`, `  private ${noun}s: ${Noun}[] = [];`, `  private pending = 0;`, '');
  out.push(`  constructor(private readonly db: Db, private readonly log: Logger) {}`, '');
  const methods = rng.int(3, 8);
  for (let i = 0; i < methods; i++) out.push(...tsMethod(rng, '  '), '');
  out.push(`}`, '');
  out.push(`export function describe${Noun}(item: ${Noun}): string {`, `  if (item.count === 0) {`, `    return 'empty';`, `  } else if (item.count < 10) {`, `    return 'few';`, `  }`, `  return path.join('${noun}', item.id);`, `}`);
  return out.join('\n') + '\n';
}

function javascript(rng: Rng): string {
  const out = [`'use strict';`, '', `const express = require('express');`, `const router = express.Router();`, ''];
  const routes = rng.int(4, 9);
  for (let i = 0; i < routes; i++) {
    const { noun, verb, Noun } = names(rng);
    const method = rng.pick(['get', 'post', 'put', 'delete']);
    out.push(`router.${method}('/${noun}s/:id', async (req, res) => {`, `  const ${noun} = await db.${verb}${Noun}(req.params.id);`, `  if (!${noun}) {`, `    res.status(404).json({ error: 'not found' });`, `    return;`, `  }`);
    if (rng.chance(0.5)) out.push(`  ${noun}.items.forEach((item) => {`, `    item.seen = true;`, `  });`);
    out.push(`  res.json(${noun});`, `});`, '');
  }
  out.push(`module.exports = {`, `  router,`, `  limits: {`, `    perPage: ${rng.int(10, 100)},`, `    maxPages: ${rng.int(2, 20)},`, `  },`, `};`);
  return out.join('\n') + '\n';
}

function json(rng: Rng): string {
  const out = ['{', `  "name": "${rng.pick(NOUNS)}-service",`, `  "version": "${rng.int(0, 3)}.${rng.int(0, 20)}.${rng.int(0, 9)}",`, `  "private": true,`, `  "dependencies": [`];
  const deps = rng.int(5, 14);
  for (let i = 0; i < deps; i++) {
    out.push(`    {`, `      "name": "${rng.pick(VERBS)}-${rng.pick(NOUNS)}",`, `      "version": "^${rng.int(1, 9)}.${rng.int(0, 12)}.0",`, `      "optional": ${rng.chance(0.3)}`, i === deps - 1 ? `    }` : `    },`);
  }
  out.push(`  ],`, `  "settings": {`, `    "retries": ${rng.int(1, 5)},`, `    "timeoutMs": ${rng.int(1, 60) * 1000},`, `    "features": {`, `      "cache": true,`, `      "audit": false`, `    }`, `  }`, '}');
  return out.join('\n') + '\n';
}

function markdown(rng: Rng): string {
  const { noun, Noun } = names(rng);
  const out = [`# ${Noun} service`, '', `The ${noun} service stores and serves ${noun}s.`, '', '## Setup', ''];
  for (let i = 1; i <= rng.int(3, 6); i++) out.push(`${i}. ${cap(rng.pick(VERBS))} the ${rng.pick(NOUNS)} table.`);
  out.push('', '## Options', '', '| Name | Default | Meaning |', '| --- | --- | --- |');
  for (let i = 0; i < rng.int(3, 7); i++) out.push(`| ${rng.pick(VERBS)}Limit | ${rng.int(1, 500)} | How many ${rng.pick(NOUNS)}s to ${rng.pick(VERBS)}. |`);
  out.push('', '## Example', '', '```ruby', `class ${Noun}Job`, `  def perform(id)`, `    if id.nil?`, `      return`, `    end`, `    ${Noun}.find(id).each do |row|`, `      row.touch`, `    end`, `  end`, `end`, '```', '', '## Notes', '');
  for (let i = 0; i < rng.int(3, 8); i++) out.push(`- ${cap(rng.pick(VERBS))} ${rng.pick(NOUNS)}s before ${rng.pick(VERBS)}ing.`);
  out.push('', 'See also the [changelog](CHANGELOG.md).');
  return out.join('\n') + '\n';
}

function python(rng: Rng): string {
  const { noun, Noun } = names(rng);
  const out = ['import json', 'from pathlib import Path', '', '', `class ${Noun}Repository:`, `    """Loads and saves ${noun}s."""`, '', '    def __init__(self, root):', '        self.root = Path(root)', '        self.cache = {}', ''];
  for (let i = 0; i < rng.int(3, 7); i++) {
    const verb = rng.pick(VERBS);
    const n = rng.int(1, 50);
    out.push(
      ...rng.pick([
        () => [`    def ${verb}(self, key):`, '        if key in self.cache:', '            return self.cache[key]', `        elif key.startswith("${noun}"):`, `            return self.${verb}(key[${n % 9}:])`, '        else:', '            return None', ''],
        () => [`    def ${verb}_all(self, items):`, '        total = 0', '        for item in items:', `            if item.count > ${n}:`, '                total += item.count', '        return total', ''],
        () => [`    def ${verb}_file(self, name):`, '        try:', '            text = (self.root / name).read_text()', '            return json.loads(text)', '        except OSError:', '            return {}', '        finally:', `            self.cache.pop("${noun}", None)`, ''],
      ])(),
    );
  }
  out.push('', `DEFAULTS = {`, `    "limit": ${rng.int(10, 99)},`, `    "labels": ["${noun}", "${rng.pick(NOUNS)}"],`, '}');
  return out.join('\n') + '\n';
}

function css(rng: Rng): string {
  const out = ['/* theme */', ':root {', `  --accent: #${rng.int(0x100000, 0xffffff).toString(16)};`, '  --radius: 4px;', '}', ''];
  for (let i = 0; i < rng.int(5, 12); i++) {
    const sel = `.${rng.pick(NOUNS)}-${rng.pick(['card', 'list', 'item', 'header', 'footer'])}`;
    out.push(`${sel} {`, `  margin: ${rng.int(0, 24)}px;`, `  padding: ${rng.int(0, 16)}px ${rng.int(0, 16)}px;`, `  color: var(--accent);`, `  border-radius: var(--radius);`, '}', '');
  }
  out.push('@media (max-width: 600px) {', '  .widget-card {', '    margin: 0;', '  }', '}');
  return out.join('\n') + '\n';
}

function yaml(rng: Rng): string {
  const out = [`name: ${rng.pick(NOUNS)}-ci`, '', 'on:', '  push:', '    branches: [main]', '', 'jobs:'];
  for (let j = 0; j < rng.int(2, 4); j++) {
    out.push(`  ${rng.pick(VERBS)}-${j}:`, '    runs-on: ubuntu-latest', '    steps:');
    for (let s = 0; s < rng.int(3, 7); s++) {
      out.push(`      - name: ${cap(rng.pick(VERBS))} ${rng.pick(NOUNS)}s`, `        run: npm run ${rng.pick(VERBS)}`);
      if (rng.chance(0.3)) out.push('        env:', `          RETRIES: "${rng.int(1, 5)}"`);
    }
    out.push('');
  }
  out.push('env:', '  NODE_VERSION: "20"', `  LIMIT: "${rng.int(1, 99)}"`);
  return out.join('\n') + '\n';
}

const GENERATORS: Record<Lang, (rng: Rng) => string> = { ts: typescript, js: javascript, json, md: markdown, py: python, css, yaml };

export const LANGS: readonly Lang[] = ['ts', 'js', 'json', 'md', 'py', 'css', 'yaml'];

export function generateSource(lang: Lang, rng: Rng): string {
  return GENERATORS[lang](rng);
}

/** Comment syntax per language, for full-rewrite lines that stay plausible. */
export function newLineFor(lang: Lang, rng: Rng, indent: string): string {
  const { noun, verb, Noun } = names(rng);
  const n = rng.int(1, 999);
  switch (lang) {
    case 'ts':
    case 'js':
      return rng.pick([`${indent}const ${noun}Limit = ${verb}${Noun}(${n});`, `${indent}// ${verb} the ${noun} before returning`, `${indent}this.${noun}s.length = ${n};`]);
    case 'py':
      return rng.pick([`${indent}${noun}_limit = self.${verb}(${n})`, `${indent}# ${verb} the ${noun} first`]);
    case 'json':
      return `${indent}"${verb}${Noun}": ${n},`;
    case 'yaml':
      return `${indent}${verb}_${noun}: ${n}`;
    case 'css':
      return `${indent}${rng.pick(['margin', 'padding', 'gap', 'width'])}: ${n % 64}px;`;
    case 'md':
      return rng.pick([`${cap(verb)} every ${noun} at most ${n} times.`, `- ${cap(verb)} the ${noun} list`, '']);
  }
}
