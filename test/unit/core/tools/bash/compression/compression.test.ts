import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { z } from 'zod';
import { resultJson } from '../../../../../../src/cli/toolCommands';
import { Settings } from '../../../../../../src/core/settings';
import { COMPRESSION_RULES, OUTPUT_COMPRESSION_KEY, compressOutput, findRule, simpleCommandWords, withProviderView } from '../../../../../../src/core/tools/bash/compression';
import { defineTool } from '../../../../../../src/core/tools/definition';
import { dispatchTool } from '../../../../../../src/core/tools/dispatch';
import { ToolRegistry } from '../../../../../../src/core/tools/registry';
import { failure, providerText, success } from '../../../../../../src/core/tools/result';
import { tempWorkspace, type TempWorkspace } from '../../../../helpers/workspace';

const FIXTURES = path.resolve(__dirname, '../../../../../fixtures/compression');
const fixture = (rel: string): Promise<string> => fsp.readFile(path.join(FIXTURES, rel), 'utf8');

describe('bash output compression: commands', () => {
  it('reads the words of a simple command, dropping leading assignments and a trailing 2>&1', () => {
    assert.deepEqual(simpleCommandWords('  git   status '), ['git', 'status']);
    assert.deepEqual(simpleCommandWords('RUST_BACKTRACE=1 FOO=bar cargo test --lib'), ['cargo', 'test', '--lib']);
    assert.deepEqual(simpleCommandWords('cargo test 2>&1'), ['cargo', 'test']);
    assert.deepEqual(simpleCommandWords(`pytest -k 'adds or multiplies'`), ['pytest', '-k', 'adds or multiplies']);
  });

  it('treats compound and redirected commands as not simple', () => {
    for (const command of ['git status && git diff', 'cargo test || true', 'git diff | cat', 'cd x; cargo check', 'git status\ngit diff', 'echo `git status`', 'echo $(git status)', 'cargo test > out.txt', 'cargo test &', 'pytest "unterminated', '', 'FOO=1']) {
      assert.equal(simpleCommandWords(command), undefined, command);
      assert.equal(findRule(command), undefined, command);
    }
  });

  it('maps commands to rules and leaves unknown ones alone', () => {
    const cases: [string, string | undefined][] = [
      ['git status', 'git-status'], ['git status -sb', 'git-status'], ['git diff --cached', 'git-diff'], ['git diff --stat', undefined],
      ['cargo check --all-targets', 'cargo-check'], ['cargo +nightly clippy', 'cargo-check'], ['cargo test', 'cargo-test'], ['cargo build', undefined],
      ['tsc --noEmit', 'tsc'], ['npx tsc -p .', 'tsc'], ['npx tsc --watch', undefined],
      ['npm test', 'mocha'], ['npm run test', 'mocha'], ['npx mocha test/a.test.js', 'mocha'], ['mocha', 'mocha'], ['npm install', undefined],
      ['pytest -q', 'pytest'], ['python -m pytest tests', 'pytest'], ['python3 -m pytest', 'pytest'], ['python -m unittest', undefined],
      ['ls -la', undefined], ['git log', undefined], ['gitstatus', undefined],
    ];
    for (const [command, rule] of cases) assert.equal(findRule(command)?.name, rule, command);
  });

  it('passes compound and unknown commands through even when the output looks familiar', async () => {
    const status = await fixture('git-status/long.txt');
    assert.equal(compressOutput('git status && true', status, 0), undefined);
    assert.equal(compressOutput('git status | cat', status, 0), undefined);
    assert.equal(compressOutput('cat status.txt', status, 0), undefined);
  });

  it('passes through output a rule cannot read, and output the summary would not shorten', async () => {
    assert.equal(compressOutput('npm test', 'PASS src/a.test.js\nTests: 1 passed, 1 total\n'.repeat(20), 0), undefined);
    assert.equal(compressOutput('git diff', 'warning: not a git repository\n'.repeat(20), 128), undefined);
    assert.equal(compressOutput('npx tsc --noEmit -p .', await fixture('tsc/errors.txt'), 2), undefined);
    assert.equal(compressOutput('tsc', '', 0), undefined);
  });

  it('never throws when a rule throws, and has unique rule names', () => {
    const broken = { name: 'broken', matches: () => true, summarize: (): string => { throw new Error('bug'); } };
    assert.equal(compressOutput('anything', 'x'.repeat(1000), 0, [broken]), undefined);
    assert.equal(new Set(COMPRESSION_RULES.map((r) => r.name)).size, COMPRESSION_RULES.length);
  });

  it('bounds long lists', () => {
    const files = Array.from({ length: 100 }, (_, i) => `?? file${String(i).padStart(3, '0')}.txt`).join('\n');
    const out = compressOutput('git status --short', files, 0);
    assert.ok(out);
    assert.match(out.text, /staged: 0, unstaged: 0, untracked: 100/);
    assert.match(out.text, / {2}file029\.txt\n {2}… 70 more$/);
  });
});

describe('bash output compression: bounds and edge cases', () => {
  it('counts hunk lines whose text starts with ++ or --, and bounds files and hunks', () => {
    const file = (i: number): string => `diff --git a/f${i}.txt b/f${i}.txt\nindex 1..2 100644\n--- a/f${i}.txt\n+++ b/f${i}.txt\n` +
      Array.from({ length: 10 }, (_, h) => `@@ -${h * 10 + 1},2 +${h * 10 + 1},2 @@\n---old\n+++new\n context`).join('\n');
    const out = compressOutput('git diff', Array.from({ length: 40 }, (_, i) => file(i)).join('\n'), 0);
    assert.ok(out);
    assert.match(out.text, /\n40 files changed, \+400 -400\nf0\.txt \(\+10 -10\)\n {2}@@ -1,2 \+1,2 @@\n/);
    assert.match(out.text, / {2}@@ -71,2 \+71,2 @@\n {2}… 2 more\nf1\.txt/);
    assert.match(out.text, /\nf29\.txt \(\+10 -10\)\n[^]*\n… 10 more files$/);
  });

  it('bounds tsc errors at 50 across files', () => {
    const raw = Array.from({ length: 70 }, (_, i) => `src/f${Math.floor(i / 20)}.ts(${i + 1},1): error TS2322: Type 'string' is not assignable to type 'number'.`).join('\n');
    const out = compressOutput('npx tsc', raw, 2);
    assert.ok(out);
    assert.match(out.text, /\ntsc: 70 errors in 4 files \(exit 2\)\nsrc\/f0\.ts\n/);
    assert.match(out.text, /\nsrc\/f2\.ts\n(?: {2}\(\d+,1\) TS2322: .*\n){10} {2}… 10 more\n… more errors in 1 file$/);
  });
});

describe('bash output compression: live git', () => {
  it('summarizes what this machine’s git prints now, not only the recorded fixtures', async () => {
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'magi-compress-git-'));
    try {
      const git = (...args: string[]): string => execFileSync('git', ['-c', 'color.ui=never', '-c', 'user.email=t@example.com', '-c', 'user.name=T', ...args], { cwd: dir, encoding: 'utf8' });
      git('init', '-q', '-b', 'main');
      await fsp.writeFile(path.join(dir, 'a.txt'), Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n') + '\n');
      git('add', '.');
      git('commit', '-q', '-m', 'init');
      await fsp.writeFile(path.join(dir, 'a.txt'), Array.from({ length: 30 }, (_, i) => (i === 3 || i === 25 ? `changed ${i}` : `line ${i}`)).join('\n') + '\n');
      await fsp.writeFile(path.join(dir, 'new.txt'), 'new\n');
      const status = compressOutput('git status', git('status'), 0);
      assert.ok(status);
      assert.match(status.text, /\nbranch: main\nstaged: 0, unstaged: 1, untracked: 1\nunstaged:\n {2}modified: a\.txt\nuntracked:\n {2}new\.txt$/);
      const diff = compressOutput('git diff', git('diff'), 0);
      assert.ok(diff);
      assert.match(diff.text, /\n1 file changed, \+2 -2\na\.txt \(\+2 -2\)\n {2}@@ -1,7 \+1,7 @@\n {2}@@ -23,7 \+23,7 @@ line 21$/);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  });
});

describe('bash output compression: with the real bash tool', () => {
  let ws: TempWorkspace;
  afterEach(() => ws.cleanup());

  it('gives the provider a summary and keeps the raw output and closing line in content', async () => {
    ws = await tempWorkspace({ 'tools.output_compression.enabled': true });
    const files: Record<string, string> = {};
    for (let i = 0; i < 40; i++) files[`src/file${String(i).padStart(2, '0')}.ts`] = `export const n${i} = ${i};\n`;
    await ws.files(files);
    execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: ws.root });
    execFileSync('git', ['add', 'src'], { cwd: ws.root });
    const result = await ws.run('bash', { command: 'git status', intent: 'see what changed' });
    assert.equal(result.status, 'success');
    assert.match(result.content, /^On branch main\n[^]*\tnew file: {3}src\/file39\.ts\n\n\[exit 0\]$/);
    assert.match(result.providerContent ?? '', /^\[compressed git-status output: 46 lines → 35\. [^\n]*\]\nbranch: main\nNo commits yet\nstaged: 40, unstaged: 0, untracked: 0\nstaged:\n {2}new file: src\/file00\.ts\n[^]*\n {2}new file: src\/file29\.ts\n {2}… 10 more\n\[exit 0\]$/);
    const piped = await ws.run('bash', { command: 'git status | cat', intent: 'raw output' });
    assert.equal(piped.providerContent, undefined);
  });
});

describe('bash output compression: the setting and the provider view', () => {
  const raw = 'On branch main\nChanges not staged for commit:\n' + Array.from({ length: 50 }, (_, i) => `\tmodified:   src/file${i}.ts`).join('\n') + '\n';
  const on = new Settings({ capabilities: { tools: { output_compression: { enabled: true } } } });

  it('is off by default, on by the newer key, and on by the older alias', () => {
    assert.equal(new Settings().bool(OUTPUT_COMPRESSION_KEY, false), false);
    assert.equal(on.bool(OUTPUT_COMPRESSION_KEY, false), true);
    assert.equal(new Settings({ 'tools.output_compression.enabled': true }).bool(OUTPUT_COMPRESSION_KEY, false), true);
    assert.equal(new Settings({ tools: { output_compression: { enabled: true } }, 'capabilities.tools.output_compression.enabled': false }).bool(OUTPUT_COMPRESSION_KEY, false), false);
  });

  it('sets providerContent only for bash with the setting on, keeping content raw', () => {
    const result = success(raw, { exit_code: 0 });
    assert.equal(withProviderView('bash', { command: 'git status' }, result, new Settings()), result);
    assert.equal(withProviderView('grep', { command: 'git status' }, result, on), result);
    assert.equal(withProviderView('bash', { command: 'git status; ls' }, result, on).providerContent, undefined);
    const viewed = withProviderView('bash', { command: 'git status' }, result, on);
    assert.equal(viewed.content, raw);
    assert.match(viewed.providerContent ?? '', /^\[compressed git-status output: 52 lines → 34\. .*\]\nbranch: main\nstaged: 0, unstaged: 50, untracked: 0\nunstaged:\n {2}modified: src\/file0\.ts\n[^]* {2}… 20 more$/);
    assert.equal(providerText(viewed), viewed.providerContent);
    assert.equal(providerText(result), raw);
    const legacy = withProviderView('bash', { command: 'git status' }, result, new Settings({ 'tools.output_compression.enabled': true }));
    assert.equal(legacy.providerContent, viewed.providerContent);
  });

  it('keeps the bash tool\'s closing status lines, says when output was cut, and leaves timeouts raw', () => {
    const content = `${raw}[exit 0]`;
    const viewed = withProviderView('bash', { command: 'git status' }, success(content, { exit_code: 0, truncated: true, bytes_omitted: 1234 }), on);
    assert.equal(viewed.content, content);
    assert.match(viewed.providerContent ?? '', /^\[compressed git-status output: 52 lines → 34\. /);
    assert.match(viewed.providerContent ?? '', / {2}… 20 more\n\[the output was cut \(1234 bytes omitted\); this summary covers only what was kept\]\n\[exit 0\]$/);
    const timedOut = failure(`${raw}[timed out after 30 s; killed with SIGTERM; cleanup: ok]`, { exit_code: null, timed_out: true });
    assert.equal(withProviderView('bash', { command: 'git status' }, timedOut, on), timedOut);
  });

  it('uses the exit code from metadata, null when there is none', () => {
    const cargo = 'error[E0308]: mismatched types\n --> src/main.rs:2:18\n' + '  |\n'.repeat(100);
    assert.match(withProviderView('bash', { command: 'cargo check' }, failure(cargo, { exit_code: 101 }), on).providerContent ?? '', /cargo check: failed \(exit 101\): 1 error, 0 warnings/);
    assert.match(withProviderView('bash', { command: 'cargo check' }, failure(cargo, { signal: 'SIGTERM' }), on).providerContent ?? '', /cargo check: failed \(no exit code\)/);
  });
});

describe('bash output compression: dispatch and CLI wiring', () => {
  // A stand-in named 'bash' that prints a recorded output: this tests dispatch's wiring, not bash.
  const fakeBash = defineTool({
    name: 'bash',
    aliases: ['shell'],
    description: 'fake bash for wiring tests',
    mutates: false,
    input: z.strictObject({ command: z.string(), output: z.string(), exit: z.number() }),
    execute: async (args) => (args.exit === 0 ? success(args.output, { exit_code: args.exit }) : failure(args.output, { exit_code: args.exit })),
  });
  const registry = new ToolRegistry([fakeBash]);
  let ws: TempWorkspace;
  afterEach(() => ws.cleanup());

  it('adds providerContent after a successful or failed bash call when the setting is on', async () => {
    ws = await tempWorkspace({ 'capabilities.tools.output_compression.enabled': true });
    const output = await fixture('cargo-test/one-fail.txt');
    const failed = (await dispatchTool(registry, ws.runtime, 'shell', { command: 'cargo test', output, exit: 101 })).result;
    assert.equal(failed.status, 'error');
    assert.equal(failed.content, output);
    assert.equal(`${failed.providerContent}\n`, await fixture('cargo-test/one-fail.expected.txt'));
    const passed = await dispatchTool(registry, ws.runtime, 'bash', { command: 'cargo test', output: await fixture('cargo-test/all-pass.txt'), exit: 0 });
    assert.match(passed.result.providerContent ?? '', /^\[compressed cargo-test output/);
    const json = JSON.parse(resultJson(passed)) as Record<string, unknown>;
    assert.deepEqual(Object.keys(json), ['tool', 'status', 'content', 'providerContent', 'metadata']);
    assert.equal(json.providerContent, passed.result.providerContent);
  });

  it('leaves results alone with the setting off, and the CLI JSON without providerContent', async () => {
    ws = await tempWorkspace();
    const outcome = await dispatchTool(registry, ws.runtime, 'bash', { command: 'cargo test', output: await fixture('cargo-test/one-fail.txt'), exit: 101 });
    assert.equal(outcome.result.providerContent, undefined);
    assert.equal('providerContent' in (JSON.parse(resultJson(outcome)) as object), false);
  });
});
