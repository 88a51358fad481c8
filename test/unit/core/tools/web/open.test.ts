import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import type { FetchTransport } from '../../../../../src/core/net/pinnedFetch';
import { createWebTool } from '../../../../../src/core/tools/web';
import { webInput } from '../../../../../src/core/tools/web/args';
import type { ToolResult } from '../../../../../src/core/tools/result';
import { createDefaultRegistry } from '../../../../../src/core/tools';
import { dispatchTool } from '../../../../../src/core/tools/dispatch';
import { tempWorkspace, type TempWorkspace } from '../../../helpers/workspace';

const PUBLIC = '93.184.215.14';
const ARTICLE = `<html><head><title>Release notes</title><script>steal()</script></head><body><nav>Home | Blog</nav><article><h1>Release notes</h1>${'<p>This release brings faster builds and clearer errors for every project. </p>'.repeat(40)}<a href="/docs">docs</a></article><footer>footer</footer></body></html>`;

describe('web open (pages on 127.0.0.1 behind a test-only transport)', function () {
  this.timeout(20_000);
  let ws: TempWorkspace;
  let server: Server;
  let port: number;
  let connections = 0;

  before(async () => {
    server = createServer((req, res) => {
      if (req.url === '/article') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(ARTICLE);
      } else if (req.url === '/short') {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<h2>Short</h2><p>See <a href="/a">a</a>.</p>');
      } else if (req.url === '/image') {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
      } else {
        res.writeHead(404);
        res.end('missing');
      }
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(async () => {
    ws = await tempWorkspace();
    connections = 0;
  });
  afterEach(() => ws.cleanup());

  const transport: FetchTransport = {
    resolve: async (host) => (host === 'pages.test' ? [PUBLIC] : host === 'inside.test' ? ['192.168.0.10'] : []),
    connect(address): Socket {
      if (address !== PUBLIC) throw new Error(`the guard let ${address} through`);
      return connect(port, '127.0.0.1');
    },
  };
  const run = (args: unknown): Promise<ToolResult> =>
    createWebTool({ transport }).execute(webInput.parse(args), { runtime: ws.runtime, signal: new AbortController().signal, replay: false });

  it('extracts a substantial article as readable Markdown, and a reference reopens it without network', async () => {
    const result = await run({ operation: 'open', url: `http://pages.test:${port}/article` });
    assert.equal(result.status, 'success', result.content);
    assert.equal(result.metadata.method, 'readability');
    assert.match(result.content, /^URL: http:\/\/pages\.test:\d+\/article\nTitle: Release notes\nReference: web:[0-9a-f]{16}\n/);
    assert.match(result.content, /faster builds and clearer errors/);
    assert.match(result.content, new RegExp(`\\(http://pages\\.test:${port}/docs\\)`));
    assert.doesNotMatch(result.content, /steal\(\)|Home \| Blog/);
    const reference = result.metadata.reference as string;
    const before = connections;
    const again = await run({ operation: 'open', reference });
    assert.equal(again.metadata.cached, true);
    assert.equal(connections, before);
    assert.equal(again.content.split('\n').slice(4).join('\n'), result.content.split('\n').slice(4).join('\n'));
  });

  it('turns a short page into Markdown; refuses non-text, HTTP errors and private hosts', async () => {
    const short = await run({ operation: 'open', url: `http://pages.test:${port}/short` });
    assert.equal(short.metadata.method, 'markdown');
    assert.match(short.content, /## Short/);
    await assert.rejects(run({ operation: 'open', url: `http://pages.test:${port}/image` }), /image\/png/);
    await assert.rejects(run({ operation: 'open', url: `http://pages.test:${port}/missing` }), /answered HTTP 404/);
    const count = connections;
    await assert.rejects(run({ operation: 'open', url: `http://inside.test:${port}/article` }), /resolves to 192\.168\.0\.10, private/);
    await assert.rejects(run({ operation: 'open', url: `http://127.0.0.1:${port}/article` }), /loopback/);
    assert.equal(connections, count);
  });

  it('answers the retired web_search and code_search by naming web', async () => {
    for (const name of ['web_search', 'code_search']) {
      const { result } = await dispatchTool(createDefaultRegistry(), ws.runtime, name, { queries: ['x'] });
      assert.equal(result.status, 'error');
      assert.match(result.content, new RegExp(`^\`${name}\` is retired: use \`web\``));
    }
  });
});
