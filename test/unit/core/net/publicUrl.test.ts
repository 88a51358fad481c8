import assert from 'node:assert/strict';
import { ToolError } from '../../../../src/core/tools/errors';
import { checkPublicUrl, MAX_URL_BYTES } from '../../../../src/core/net/publicUrl';

describe('checkPublicUrl', () => {
  const refused: [string, RegExp][] = [
    ['http://localhost/', /local name/], ['http://api.localhost:8080/x', /local name/], ['http://intranet/', /local name/],
    ['http://127.0.0.1/', /loopback/], ['http://[::1]/', /loopback/], ['http://0x7f000001/', /loopback/], ['http://2130706433/', /loopback/],
    ['http://017700000001/', /loopback/], ['http://[::ffff:127.0.0.1]/', /IPv4-mapped/], ['http://169.254.169.254/latest/meta-data/', /metadata/],
    ['http://10.0.0.1/', /private/], ['http://192.168.1.1/', /private/], ['http://0.0.0.0:80/', /this network/],
    ['http://user:pass@example.com/', /credentials/], ['https://example.com/?api_key=abc', /sensitive parameter \(api_key\)/],
    ['https://example.com/?X-Amz-Signature=abc', /sensitive parameter/], ['file:///etc/passwd', /only http and https/],
    ['ftp://example.com/', /only http and https/], ['example.com', /not a valid absolute URL/],
    [`https://example.com/${'a'.repeat(MAX_URL_BYTES)}`, /over 2048 bytes/],
  ];
  for (const [url, reason] of refused) {
    it(`refuses ${url.slice(0, 60)}`, () => assert.throws(() => checkPublicUrl(url), (err: unknown) => err instanceof ToolError && reason.test(err.message)));
  }

  it('accepts public URLs, names to resolve later and public IP literals', () => {
    assert.deepEqual(
      [checkPublicUrl('https://www.rust-lang.org/learn?lang=en'), checkPublicUrl('http://93.184.215.14/'), checkPublicUrl('https://[2606:4700:4700::1111]/dns')].map((u) => [u.host, u.literal]),
      [['www.rust-lang.org', false], ['93.184.215.14', true], ['2606:4700:4700::1111', true]],
    );
  });
});
