import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { ToolError } from '../../../../src/core/tools/errors';
import { fetchPublic, type FetchTransport } from '../../../../src/core/net/pinnedFetch';

/** A public-looking address the test transport routes to the local server. */
const PUBLIC = '93.184.215.14';

describe('fetchPublic (DNS-pinned, SSRF-guarded)', function () {
  this.timeout(20_000);
  let server: Server;
  let port: number;
  let connections = 0;
  let connectedTo: string[] = [];

  before(async () => {
    server = createServer((req, res) => {
      if (req.url === '/page') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end('<html><body><h1>Hello</h1></body></html>');
      } else if (req.url === '/redirect') {
        res.writeHead(302, { location: `http://127.0.0.1:${port}/secret` });
        res.end();
      } else if (req.url === '/big') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('x'.repeat(100_000));
      } else if (req.url === '/slow') {
        setTimeout(() => res.end('late'), 5_000);
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    connections = 0;
    connectedTo = [];
  });

  /** Names resolve as the table says; a connection to PUBLIC reaches the local server; anything else is a test failure. */
  const transport: FetchTransport = {
    async resolve(host) {
      const table: Record<string, string[]> = { 'public.test': [PUBLIC], 'inside.test': ['10.0.0.5'], 'mixed.test': [PUBLIC, '127.0.0.1'], 'loop.test': ['::1'] };
      const found = table[host];
      if (found === undefined) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      return found;
    },
    connect(address, _port, _tls, _servername): Socket {
      connectedTo.push(address);
      if (address !== PUBLIC) throw new Error(`the guard let ${address} through`);
      return connect(port, '127.0.0.1');
    },
  };
  const open = (url: string, signal = new AbortController().signal, limits?: Parameters<typeof fetchPublic>[3]) => fetchPublic(url, signal, transport, limits);

  it('fetches a public page over a connection to exactly the checked address', async () => {
    const page = await open(`http://public.test:${port}/page`);
    assert.equal(page.status, 200);
    assert.equal(page.contentType, 'text/html; charset=utf-8');
    assert.match(page.body.toString(), /<h1>Hello<\/h1>/);
    assert.deepEqual(connectedTo, [PUBLIC]);
  });

  it('refuses the SSRF corpus with zero connections reaching the server', async () => {
    const corpus = [
      `http://localhost:${port}/page`, `http://127.0.0.1:${port}/page`, `http://[::1]:${port}/page`, 'http://169.254.169.254/latest/meta-data/',
      `http://0x7f000001:${port}/page`, `http://2130706433:${port}/page`, `http://017700000001:${port}/page`, `http://[::ffff:127.0.0.1]:${port}/page`,
      'http://10.0.0.1/', 'http://192.168.1.1/', `http://inside.test:${port}/page`, `http://mixed.test:${port}/page`, `http://loop.test:${port}/page`,
      `http://user:pass@public.test:${port}/page`,
    ];
    for (const url of corpus) {
      await assert.rejects(open(url), (err: unknown) => err instanceof ToolError, url);
    }
    assert.equal(connections, 0);
    assert.deepEqual(connectedTo, []);
  });

  it('refuses a public page that redirects to a private one, without following it', async () => {
    await assert.rejects(open(`http://public.test:${port}/redirect`), (err: unknown) => err instanceof ToolError && /redirects \(302\) to http:\/\/127\.0\.0\.1:\d+\/secret; redirects are not followed/.test(err.message));
    assert.deepEqual(connectedTo, [PUBLIC]);
    assert.equal(connections, 1);
  });

  it('cuts the body at maxBytes and says so', async () => {
    const page = await open(`http://public.test:${port}/big`, undefined, { maxBytes: 1000, connectTimeoutMs: 5_000, requestTimeoutMs: 15_000 });
    assert.equal(page.body.length, 1000);
    assert.equal(page.truncated, true);
  });

  it('times out, and cancellation rejects with the abort reason', async () => {
    await assert.rejects(open(`http://public.test:${port}/slow`, undefined, { maxBytes: 1000, connectTimeoutMs: 5_000, requestTimeoutMs: 300 }), /did not answer within 0\.3 s/);
    const controller = new AbortController();
    const pending = open(`http://public.test:${port}/slow`, controller.signal);
    setTimeout(() => controller.abort(), 100);
    await assert.rejects(pending, (err: unknown) => (err as Error).name === 'AbortError');
  });

  it('says when a name does not resolve', async () => {
    await assert.rejects(open('http://nowhere.test/'), /nowhere\.test does not resolve \(ENOTFOUND\)/);
  });
});
