import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createWebTool } from '../../../../../src/core/tools/web';
import { ToolRuntime } from '../../../../../src/core/tools/runtime';
import type { ToolResult } from '../../../../../src/core/tools/result';
import { ToolError } from '../../../../../src/core/tools/errors';
import { validateWebArgs, webInput } from '../../../../../src/core/tools/web/args';
import { tempWorkspace, type TempWorkspace } from '../../../helpers/workspace';

interface Recorded {
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

const KEY = 'exa-test-key-0123456789';

describe('web search (Exa, scripted on 127.0.0.1)', function () {
  this.timeout(20_000);
  let ws: TempWorkspace;
  let server: Server;
  let base: string;
  let recorded: Recorded[];
  let answer: { status: number; json: unknown };

  before(async () => {
    server = createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk) => (raw += chunk));
      req.on('end', () => {
        recorded.push({ headers: req.headers, body: JSON.parse(raw) as Record<string, unknown> });
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.json));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(async () => {
    ws = await tempWorkspace();
    recorded = [];
    answer = {
      status: 200,
      json: {
        results: [
          { title: 'Announcing Rust 1.90', url: 'https://blog.rust-lang.org/2026/09/18/Rust-1.90.0/', publishedDate: '2026-09-18T00:00:00.000Z', text: 'The Rust team is happy to announce a new version.\n\nAuthorization: Bearer abcdefabcdefabcdef' },
          { title: 'Internal', url: 'http://10.0.0.7/admin', text: 'private' },
          { title: 'Releases', url: 'https://github.com/rust-lang/rust/releases', text: 'release notes '.repeat(400) },
        ],
      },
    };
  });
  afterEach(() => ws.cleanup());

  const now = () => new Date('2026-11-30T15:00:00Z');
  const run = async (args: unknown, env: Record<string, string | undefined> = { EXA_API_KEY: KEY }, runtime?: ToolRuntime): Promise<ToolResult> => {
    const tool = createWebTool({ exaBaseUrl: base, env, now });
    const parsed = webInput.parse(args);
    return tool.execute(parsed, { runtime: runtime ?? ws.runtime, signal: new AbortController().signal, replay: false });
  };

  it('sends one query with the key from the environment, the filters and the text cap', async () => {
    const result = await run({ operation: 'search', query: 'Rust release notes', limit: 3, domainFilter: [' rust-lang.org', '-old.rust-lang.org'], recencyFilter: 'month' });
    assert.equal(result.status, 'success', result.content);
    assert.equal(recorded.length, 1);
    assert.equal(recorded[0]?.headers['x-api-key'], KEY);
    assert.deepEqual(recorded[0]?.body, {
      query: 'Rust release notes', numResults: 3, includeDomains: ['rust-lang.org'], excludeDomains: ['old.rust-lang.org'],
      startPublishedDate: '2026-10-31T00:00:00.000Z', contents: { text: { maxCharacters: 10_000 } },
    });
  });

  it('shows titles, URLs, references and bounded, redacted excerpts; non-public result URLs are left out', async () => {
    const result = await run({ operation: 'search', query: 'rust', limit: null, domainFilter: null, recencyFilter: null, url: null, reference: null });
    const lines = result.content.split('\n');
    assert.equal(lines[0], '[1] Announcing Rust 1.90');
    assert.equal(lines[1], 'URL: https://blog.rust-lang.org/2026/09/18/Rust-1.90.0/');
    assert.match(lines[2] ?? '', /^Reference: web:[0-9a-f]{16}$/);
    assert.equal(lines[3], 'Published: 2026-09-18');
    assert.match(result.content, /Authorization: \[redacted\]/);
    assert.doesNotMatch(result.content, /abcdefabcdefabcdef|10\.0\.0\.7/);
    assert.match(result.content, /\[2\] Releases\nURL: https:\/\/github\.com\/rust-lang\/rust\/releases/);
    const excerptLine = result.content.split('\n').find((line) => line.startsWith('release notes')) ?? '';
    assert.equal(excerptLine.length, 1_201);
    assert.ok(excerptLine.endsWith('…'));
    assert.equal(result.metadata.results, 2);
    assert.equal(result.metadata.urls_dropped, 1);
    assert.equal(ws.runtime.pages.size, 2);
  });

  it('a reference from a search opens its stored text without network, also in a subagent runtime; an unknown one fails without network', async () => {
    const result = await run({ operation: 'search', query: 'rust' });
    const reference = /Reference: (web:[0-9a-f]{16})/.exec(result.content)?.[1] as string;
    const child = ws.runtime.derive({});
    const opened = await run({ operation: 'open', reference }, undefined, child);
    assert.equal(opened.status, 'success', opened.content);
    assert.match(opened.content, /^URL: https:\/\/blog\.rust-lang\.org\/2026\/09\/18\/Rust-1\.90\.0\/\nTitle: Announcing Rust 1\.90\nReference: web:[0-9a-f]{16} \(stored snapshot\)\n\nThe Rust team is happy/);
    assert.equal(opened.metadata.cached, true);
    await assert.rejects(run({ operation: 'open', reference: 'web:0000000000000000' }), /unknown or was evicted/);
    assert.equal(recorded.length, 1);
  });

  it('without EXA_API_KEY says how to set it, and asks nothing', async () => {
    await assert.rejects(run({ operation: 'search', query: 'rust' }, {}), (err: unknown) => err instanceof ToolError && /EXA_API_KEY in the environment .* restart VS Code/.test(err.message));
    assert.equal(recorded.length, 0);
  });

  it('drops a response over 2 MiB', async () => {
    answer = { status: 200, json: { results: [{ title: 'big', url: 'https://example.com/', text: 'word '.repeat(450_000) }] } };
    await assert.rejects(run({ operation: 'search', query: 'rust' }), /search response passed 2 MiB and was dropped/);
  });

  it('a refused key is reported without the key', async () => {
    answer = { status: 401, json: { error: `bad key ${KEY}` } };
    await assert.rejects(run({ operation: 'search', query: 'rust' }), (err: unknown) => err instanceof ToolError && /refused EXA_API_KEY \(HTTP 401\)/.test(err.message) && !err.message.includes(KEY));
  });
});

describe('web arguments', () => {
  const check = (args: unknown) => validateWebArgs(webInput.parse(args));
  it('names a field of the other operation with an omit-or-null example', () => {
    assert.throws(() => check({ operation: 'open', url: 'https://example.com', query: 'x' }), /operation "open" does not take `query`; omit it or set it to null, e.g. \{"operation":"open","query":null\}/);
    assert.throws(() => check({ operation: 'search', query: 'x', url: 'https://example.com' }), /operation "search" does not take `url`/);
  });

  it('refuses the retired fields naming web', () => {
    assert.throws(() => check({ operation: 'search', queries: ['a', 'b'] }), /`queries` belong to the retired web_search\/code_search tools; web takes one query per call/);
    assert.throws(() => check({ operation: 'search', query: 'a', numResults: 3, includeContent: true, maxTokens: 100 }), /`numResults`, `includeContent`, `maxTokens`/);
  });

  it('checks query, limit and every domainFilter rule', () => {
    assert.throws(() => check({ operation: 'search', query: '   ' }), /nonblank `query`/);
    assert.throws(() => check({ operation: 'search', query: 'q'.repeat(513) }), /513 characters; at most 512/);
    assert.equal((check({ operation: 'search', query: ` ${'q'.repeat(512)} ` }) as { query: string }).query.length, 512);
    assert.throws(() => check({ operation: 'search', query: 'a', limit: 11 }), /1 to 10/);
    for (const [entry, why] of [['https://rust-lang.org', /scheme/], ['rust-lang.org:443', /port/], ['rust-lang.org/learn', /path/], ['rust lang.org', /whitespace/], ['a..b', /label/], ['-a.com-', /label/], ['bücher.de', /not ASCII/], ['-', /empty/]] as const) {
      assert.throws(() => check({ operation: 'search', query: 'a', domainFilter: [entry] }), why, entry);
    }
    assert.throws(() => check({ operation: 'search', query: 'a', domainFilter: Array.from({ length: 21 }, (_, i) => `d${i}.com`) }), /21 entries; at most 20/);
  });

  it('open takes exactly one of url or reference', () => {
    assert.throws(() => check({ operation: 'open' }), /exactly one of `url` or `reference`/);
    assert.throws(() => check({ operation: 'open', url: 'https://a.com', reference: 'web:1' }), /exactly one/);
  });
});
