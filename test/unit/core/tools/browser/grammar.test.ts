import assert from 'node:assert/strict';
import { ToolError } from '../../../../../src/core/tools/errors';
import { DEFAULT_SCROLL_PIXELS, MAX_URL_LENGTH, MAX_WAIT_MS, parseCommand } from '../../../../../src/core/tools/browser/grammar';

/** Asserts the command is refused with a ToolError whose message matches and names the grammar. */
function refused(command: string, message: RegExp): void {
  assert.throws(() => parseCommand(command), (err: unknown) => {
    assert.ok(err instanceof ToolError, `expected a ToolError for ${JSON.stringify(command)}`);
    assert.match(err.message, message);
    assert.match(err.message, /Commands: open <url>, snapshot \[-i\]/);
    return true;
  });
}

describe('browser command grammar', () => {
  it('open takes one absolute http(s) URL, normalized', () => {
    assert.deepEqual(parseCommand('open https://example.com'), { verb: 'open', url: 'https://example.com/' });
    assert.deepEqual(parseCommand('  open   http://127.0.0.1:3000/a?b=c  '), { verb: 'open', url: 'http://127.0.0.1:3000/a?b=c' });
    refused('open', /open needs a URL/);
    refused('open https://a.test https://b.test', /open <url> takes nothing more/);
    refused('open example.com', /not an absolute URL/);
    refused('open /relative/path', /not an absolute URL/);
    refused('open file:///etc/passwd', /http:\/\/ or https:\/\/ URLs only, not file:/);
    refused('open javascript:alert(1)', /only, not javascript:/);
    refused('open data:text/html,hi', /only, not data:/);
    refused(`open https://a.test/${'x'.repeat(MAX_URL_LENGTH)}`, /longer than 8192/);
  });

  it('snapshot, with or without -i', () => {
    assert.deepEqual(parseCommand('snapshot'), { verb: 'snapshot', interactive: false });
    assert.deepEqual(parseCommand('snapshot -i'), { verb: 'snapshot', interactive: true });
    refused('snapshot -x', /snapshot \[-i\] takes nothing more here, got "-x"/);
    refused('snapshot -i -i', /takes nothing more/);
  });

  it('refs are @e12 or e12 (and frame refs), returned without the @', () => {
    assert.deepEqual(parseCommand('click @e12'), { verb: 'click', ref: 'e12' });
    assert.deepEqual(parseCommand('click e12'), { verb: 'click', ref: 'e12' });
    assert.deepEqual(parseCommand('click @f1e3'), { verb: 'click', ref: 'f1e3' });
    refused('click', /click needs a ref like @e12/);
    refused('click #submit', /click needs a ref like @e12 from a snapshot, not "#submit"/);
    refused('click @e', /not "@e"/);
    refused('click @@e1', /not "@@e1"/);
    refused('click button', /not "button"/);
    refused('click @e1 @e2', /click <@ref> takes nothing more/);
  });

  it('fill and type take the rest of the command verbatim, or one JSON string', () => {
    assert.deepEqual(parseCommand('fill @e3 Ada Lovelace'), { verb: 'fill', ref: 'e3', text: 'Ada Lovelace' });
    assert.deepEqual(parseCommand('fill e3 two  spaces  kept'), { verb: 'fill', ref: 'e3', text: 'two  spaces  kept' });
    assert.deepEqual(parseCommand('type @e3 hello'), { verb: 'type', ref: 'e3', text: 'hello' });
    assert.deepEqual(parseCommand('fill @e3 "  line one\\nline two "'), { verb: 'fill', ref: 'e3', text: '  line one\nline two ' });
    assert.deepEqual(parseCommand('type @e3 ""'), { verb: 'type', ref: 'e3', text: '' });
    assert.deepEqual(parseCommand('fill @e3 say "hi"'), { verb: 'fill', ref: 'e3', text: 'say "hi"' });
    refused('fill @e3', /fill needs a text after the ref/);
    refused('type', /type needs a ref/);
    refused('fill hello world', /fill needs a ref like @e12 from a snapshot, not "hello"/);
    refused('fill @e3 "unterminated', /a text starting with " must be one JSON string/);
    refused('fill @e3 "a" "b"', /must be one JSON string/);
    refused('type @e3 "bad \\q escape"', /must be one JSON string/);
  });

  it('select takes a value or label, same text rules', () => {
    assert.deepEqual(parseCommand('select @e6 b'), { verb: 'select', ref: 'e6', value: 'b' });
    assert.deepEqual(parseCommand('select @e6 Light blue'), { verb: 'select', ref: 'e6', value: 'Light blue' });
    assert.deepEqual(parseCommand('select @e6 " padded "'), { verb: 'select', ref: 'e6', value: ' padded ' });
    refused('select @e6', /select needs an option value or label/);
    refused('select', /select needs a ref/);
  });

  it('press takes exactly one key name, character or chord', () => {
    for (const key of ['Enter', 'Tab', 'a', '/', 'ArrowDown', 'F5', 'Control+A', 'Shift+ArrowDown', 'Control+Shift+K', 'Meta+/']) {
      assert.deepEqual(parseCommand(`press ${key}`), { verb: 'press', key });
    }
    refused('press', /press takes one key name or chord/);
    refused('press Control A', /press takes one key/);
    refused('press Enter Enter', /press takes one key/);
    refused('press Control+', /press takes one key/);
    refused('press +A', /press takes one key/);
  });

  it('scroll takes a direction and optional pixels (1..100000)', () => {
    assert.deepEqual(parseCommand('scroll down'), { verb: 'scroll', direction: 'down', pixels: DEFAULT_SCROLL_PIXELS });
    for (const direction of ['up', 'down', 'left', 'right']) {
      assert.deepEqual(parseCommand(`scroll ${direction} 250`), { verb: 'scroll', direction, pixels: 250 });
    }
    assert.deepEqual(parseCommand('scroll up 100000'), { verb: 'scroll', direction: 'up', pixels: 100_000 });
    refused('scroll', /scroll needs a direction/);
    refused('scroll sideways', /scroll needs a direction/);
    refused('scroll down 0', /scroll pixels must be from 1 to 100000, not 0/);
    refused('scroll down 100001', /must be from 1 to 100000, not 100001/);
    refused('scroll down -5', /scroll pixels must be a whole number, not "-5"/);
    refused('scroll down 1.5', /whole number/);
    refused('scroll down 10 20', /scroll <direction> \[px\] takes nothing more/);
  });

  it('get title|url|text [@ref]', () => {
    assert.deepEqual(parseCommand('get title'), { verb: 'get', what: 'title' });
    assert.deepEqual(parseCommand('get url'), { verb: 'get', what: 'url' });
    assert.deepEqual(parseCommand('get text'), { verb: 'get', what: 'text' });
    assert.deepEqual(parseCommand('get text @e4'), { verb: 'get', what: 'text', ref: 'e4' });
    assert.deepEqual(parseCommand('get text e4'), { verb: 'get', what: 'text', ref: 'e4' });
    refused('get', /get takes title, url or text/);
    refused('get html', /get takes title, url or text/);
    refused('get title @e4', /get title takes nothing more/);
    refused('get url now', /get url takes nothing more/);
    refused('get text body', /get text needs a ref like @e12/);
    refused('get text @e4 @e5', /get text \[@ref\] takes nothing more/);
  });

  it(`wait takes a ref or milliseconds up to ${MAX_WAIT_MS}`, () => {
    assert.deepEqual(parseCommand('wait 0'), { verb: 'wait', ms: 0 });
    assert.deepEqual(parseCommand('wait 500'), { verb: 'wait', ms: 500 });
    assert.deepEqual(parseCommand('wait 50000'), { verb: 'wait', ms: 50_000 });
    assert.deepEqual(parseCommand('wait @e9'), { verb: 'wait', ref: 'e9' });
    assert.deepEqual(parseCommand('wait e9'), { verb: 'wait', ref: 'e9' });
    refused('wait 50001', /wait milliseconds must be from 0 to 50000, not 50001/);
    refused('wait 999999999999', /must be from 0 to 50000/);
    refused('wait', /wait needs a ref/);
    refused('wait 1s', /wait needs a ref like @e12 from a snapshot, not "1s"/);
    refused('wait -1', /not "-1"/);
    refused('wait 100 200', /wait <@ref\|ms> takes nothing more/);
  });

  it('screenshot [--full] and close', () => {
    assert.deepEqual(parseCommand('screenshot'), { verb: 'screenshot', full: false });
    assert.deepEqual(parseCommand('screenshot --full'), { verb: 'screenshot', full: true });
    assert.deepEqual(parseCommand('close'), { verb: 'close' });
    refused('screenshot --fullpage', /screenshot \[--full\] takes nothing more/);
    refused('screenshot --full out.png', /takes nothing more/);
    refused('close main', /close takes nothing more here, got "main"/);
  });

  it('refuses empty and unknown commands, and verbs in another case', () => {
    refused('', /the command is empty/);
    refused('   \n ', /the command is empty/);
    refused('goto https://example.com', /unknown command "goto"/);
    refused('eval document.title', /unknown command "eval"/);
    refused('OPEN https://example.com', /unknown command "OPEN"/);
  });
});
