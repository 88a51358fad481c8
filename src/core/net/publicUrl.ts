import { isIP } from 'node:net';
import { ToolError } from '../tools/errors';
import { refusedAddress } from './address';

/** UTF-8 bytes of a URL `web` opens. */
export const MAX_URL_BYTES = 2048;

/**
 * Query parameter names that carry credentials or one-time secrets: a URL holding one is refused
 * rather than fetched (and so never logged, cached or shown). Compared case-insensitively, with
 * `-` and `_` ignored.
 */
const SENSITIVE_PARAMETERS = new Set([
  'token', 'accesstoken', 'refreshtoken', 'idtoken', 'authtoken', 'apikey', 'key', 'secret', 'clientsecret', 'password', 'passwd', 'pwd',
  'auth', 'authorization', 'session', 'sessionid', 'sid', 'signature', 'sig', 'xamzsignature', 'xamzcredential', 'xamzsecuritytoken',
  'xgoogsignature', 'xgoogcredential', 'code', 'credential', 'credentials', 'jwt', 'bearer',
]);

export interface PublicUrl {
  url: URL;
  /** The host as DNS is asked for it (no brackets), or the IP literal. */
  host: string;
  /** The host is an IP literal (already checked): nothing to resolve. */
  literal: boolean;
}

/**
 * Checks a URL before any network work: at most MAX_URL_BYTES, http or https, no user or password,
 * no sensitive query parameter, and a host that is either a public IP literal (after the WHATWG
 * parser's normalisation, which turns `0x7f000001`, `2130706433` and `017700000001` into
 * 127.0.0.1) or a name to be resolved and checked at connect time.
 */
export function checkPublicUrl(raw: string, tool = 'web'): PublicUrl {
  if (Buffer.byteLength(raw, 'utf8') > MAX_URL_BYTES) throw new ToolError(`${tool}: the URL is over ${MAX_URL_BYTES} bytes.`);
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ToolError(`${tool}: ${JSON.stringify(raw.slice(0, 200))} is not a valid absolute URL; give one like https://example.com/page.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ToolError(`${tool}: only http and https URLs are opened, not ${url.protocol}`);
  if (url.username !== '' || url.password !== '') throw new ToolError(`${tool}: URLs with credentials (user:password@) are refused; open the public URL without them.`);
  for (const name of url.searchParams.keys()) {
    if (SENSITIVE_PARAMETERS.has(name.toLowerCase().replace(/[-_]/g, ''))) {
      throw new ToolError(`${tool}: the URL carries a sensitive parameter (${name}); open it without credentials or secrets.`);
    }
  }
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (host === '') throw new ToolError(`${tool}: the URL has no host.`);
  const literal = isIP(host) !== 0;
  if (literal) {
    const refused = refusedAddress(host);
    if (refused !== undefined) throw new ToolError(`${tool}: ${url.hostname} is ${refused}; only public addresses are opened.`);
  } else if (host === 'localhost' || host.endsWith('.localhost') || !host.includes('.')) {
    throw new ToolError(`${tool}: ${host} is a local name; only public hosts are opened.`);
  }
  return { url, host, literal };
}
