import { promises as dns } from 'node:dns';
import { connect as tcpConnect, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';
import { Agent, request } from 'undici';
import { ToolError } from '../tools/errors';
import { refusedAddress } from './address';
import { readCapped } from './body';
import { checkPublicUrl } from './publicUrl';

/**
 * How names are resolved and sockets opened. The default uses the system resolver and connects to
 * the checked address itself; tests inject one that routes a public-looking address to a server on
 * 127.0.0.1 — no setting can do that, so no user configuration opens loopback.
 */
export interface FetchTransport {
  resolve(host: string): Promise<string[]>;
  /** A socket to exactly `address`; for https, TLS with `servername` (certificates are checked against it). */
  connect(address: string, port: number, tls: boolean, servername: string): Socket;
}

export const systemTransport: FetchTransport = {
  async resolve(host) {
    return (await dns.lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
  },
  connect(address, port, tls, servername) {
    return tls ? tlsConnect({ host: address, port, servername, ALPNProtocols: ['http/1.1'] }) : tcpConnect({ host: address, port });
  },
};

export interface FetchLimits {
  maxBytes: number;
  connectTimeoutMs: number;
  requestTimeoutMs: number;
}

/** URL open's limits: 512 KiB, 5 s to connect, 15 s for the whole request. */
export const OPEN_LIMITS: FetchLimits = { maxBytes: 512 * 1024, connectTimeoutMs: 5_000, requestTimeoutMs: 15_000 };

export interface FetchedPage {
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
  /** The body was cut at maxBytes. */
  truncated: boolean;
}

/** Resolves `host` once and returns the address to connect to, after checking every address it has. */
async function pinnedAddress(host: string, transport: FetchTransport): Promise<string> {
  let addresses: string[];
  try {
    addresses = await transport.resolve(host);
  } catch (err) {
    throw new ToolError(`web: ${host} does not resolve (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}).`);
  }
  if (addresses.length === 0) throw new ToolError(`web: ${host} has no address.`);
  // Any private answer refuses the host: a name that can point inside is not public.
  for (const address of addresses) {
    const refused = refusedAddress(address);
    if (refused !== undefined) throw new ToolError(`web: ${host} resolves to ${address}, ${refused}; only public hosts are opened.`);
  }
  return addresses[0] as string;
}

/**
 * One GET of a public URL over a DNS-pinned connection: the URL is checked (checkPublicUrl), the
 * host resolved once, every address checked, and the socket opened to exactly the address that
 * passed — never resolved again by the HTTP client. Redirects are refused (their target was never
 * checked); the body is read up to maxBytes; cancellation and both timeouts abort the request.
 */
export async function fetchPublic(raw: string, signal: AbortSignal, transport: FetchTransport = systemTransport, limits: FetchLimits = OPEN_LIMITS): Promise<FetchedPage> {
  const target = checkPublicUrl(raw);
  const address = target.literal ? target.host : await pinnedAddress(target.host, transport);
  signal.throwIfAborted();
  const agent = new Agent({
    connectTimeout: limits.connectTimeoutMs,
    connect: (options, callback) => {
      const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
      const socket = transport.connect(address, port, options.protocol === 'https:', target.host);
      const timer = setTimeout(() => socket.destroy(new Error(`connect timed out after ${limits.connectTimeoutMs} ms`)), limits.connectTimeoutMs);
      const ready = options.protocol === 'https:' ? 'secureConnect' : 'connect';
      socket.once(ready, () => {
        clearTimeout(timer);
        callback(null, socket);
      });
      socket.once('error', (err) => {
        clearTimeout(timer);
        callback(err, null);
      });
    },
  });
  const timeout = AbortSignal.timeout(limits.requestTimeoutMs);
  try {
    const response = await request(target.url, {
      dispatcher: agent,
      method: 'GET',
      headers: { 'user-agent': 'MagiCode/1 (+web open)', accept: 'text/html, text/plain;q=0.9, */*;q=0.5' },
      signal: AbortSignal.any([signal, timeout]),
    });
    if (response.statusCode >= 300 && response.statusCode < 400) {
      await response.body.dump();
      const location = response.headers.location;
      throw new ToolError(`web: ${target.url.href} redirects (${response.statusCode}) to ${String(location ?? 'nowhere')}; redirects are not followed — open the target URL itself if it is public.`);
    }
    const { bytes, truncated } = await readCapped(response.body, limits.maxBytes);
    const contentType = response.headers['content-type'];
    return { url: target.url.href, status: response.statusCode, contentType: Array.isArray(contentType) ? (contentType[0] ?? '') : (contentType ?? ''), body: bytes, truncated };
  } catch (err) {
    if (err instanceof ToolError) throw err;
    if (signal.aborted) throw signal.reason;
    if (timeout.aborted) throw new ToolError(`web: ${target.url.href} did not answer within ${limits.requestTimeoutMs / 1000} s.`);
    throw new ToolError(`web: ${target.url.href} could not be fetched: ${(err as Error).message}`);
  } finally {
    await agent.close();
  }
}
