import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import { createDefaultRegistry } from '../../../../../src/core/tools';
import { IMAGES, ScriptedVision, cleanupImageWorkspaces, fixedCredentials, imageWorkspace, json, visionSettings, type ImageWorkspace } from './scripted';

const KEY = 'sk-vision-test-0123456789abcdef';
const PROMPT = 'What color is the pixel?';

/** Every check here fails before any request: the scripted endpoint must see none. */
describe('view_image local checks (nothing sent on failure)', function () {
  this.timeout(20_000);
  let vision: ScriptedVision;
  let ws: ImageWorkspace | undefined;

  before(async () => (vision = await ScriptedVision.start()));
  after(() => vision.close());
  beforeEach(() => {
    vision.reset();
    vision.script = (_req, res) => json(res, 200, { choices: [{ message: { content: 'seen' } }] });
  });
  afterEach(cleanupImageWorkspaces);

  const open = async (extra: Record<string, unknown> = {}): Promise<ImageWorkspace> =>
    (ws = await imageWorkspace(visionSettings('openai-compatible', vision.baseUrl, extra), fixedCredentials({ openai: KEY })));
  const refused = async (args: unknown, pattern: RegExp, code?: string): Promise<void> => {
    const result = await (ws as ImageWorkspace).run(args);
    assert.equal(result.status, 'error', result.content);
    assert.match(result.content, pattern);
    if (code !== undefined) assert.equal(result.metadata.error, code);
    assert.equal(vision.requests.length, 0, 'no request reached the vision endpoint');
    assert.equal(vision.connections, 0, 'no connection was even opened');
  };

  it('refuses a .png holding JPEG bytes (signature mismatch)', async () => {
    const file = await (await open()).write('fake.png', IMAGES.jpeg);
    await refused({ path: file, prompt: PROMPT }, /fake\.png has a \.png extension but its bytes are JPEG; rename it/);
  });

  it('refuses bytes that are no image at all, and a WebP without its WEBP tag', async () => {
    const w = await open();
    await refused({ path: await w.write('notes.gif', 'GIF88a not really'), prompt: PROMPT }, /bytes are not PNG, JPEG, GIF or WebP/);
    const wave = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt ')]);
    await refused({ path: await w.write('sound.webp', wave), prompt: PROMPT }, /bytes are not PNG, JPEG, GIF or WebP/);
  });

  it('refuses an image over max_image_bytes (by stat), naming the setting', async () => {
    const file = await (await open({ max_image_bytes: 10 })).write('big.png', IMAGES.png);
    await refused({ path: file, prompt: PROMPT }, new RegExp(`is ${IMAGES.png.length} bytes; the limit is 10 \\(capabilities\\.tools\\.view_image\\.max_image_bytes`), 'too_large');
  });

  it('takes an image of exactly max_image_bytes', async () => {
    const file = await (await open({ max_image_bytes: IMAGES.gif.length })).write('exact.gif', IMAGES.gif);
    const result = await (ws as ImageWorkspace).run({ path: file, prompt: PROMPT });
    assert.equal(result.status, 'success', result.content);
    assert.equal(vision.requests.length, 1);
  });

  it('refuses a missing configuration with the setting and a JSON example, through dispatch and unavailable alike', async () => {
    ws = await imageWorkspace({}, fixedCredentials({ openai: KEY }));
    const file = await ws.write('a.png', IMAGES.png);
    await refused({ path: file, prompt: PROMPT }, /view_image is not available: no vision model is configured.*capabilities\.tools\.view_image\.vision_model.*\{"capabilities":\{"tools":\{"view_image":\{"vision_model":\{"provider":"openai-responses","model":"[^"]+"\}\}\}\}\}/, 'unavailable');
    // Not offered to the agent without the setting, offered with it.
    const registered = createDefaultRegistry().get('view_image');
    assert.match(registered?.unavailable?.(ws.runtime) ?? '', /^no vision model is configured/);
    assert.equal(registered?.unavailable?.((await open()).runtime), undefined);
    // An empty object (the manifest's default) is not a configuration either.
    ws = await imageWorkspace({ 'capabilities.tools.view_image.vision_model': {} });
    await refused({ path: file, prompt: PROMPT }, /no vision model is configured/);
  });

  it('refuses a public base URL without a key before anything is read or sent', async () => {
    ws = await imageWorkspace(visionSettings('openai-responses', undefined), fixedCredentials({ anthropic: KEY }));
    const file = await ws.write('a.png', IMAGES.png);
    await refused({ path: file, prompt: PROMPT }, /https:\/\/api\.openai\.com\/v1 needs an API key \(openai\) and none is set\. In VS Code run Magi: Set API Key….*MAGI_VISION_API_KEY/, 'not_configured');
    ws = await imageWorkspace(visionSettings('anthropic', 'https://api.anthropic.com/v1'));
    await refused({ path: file, prompt: PROMPT }, /needs an API key \(anthropic\)/);
  });

  it('refuses a relative path, naming an absolute example', async () => {
    await open();
    await refused({ path: 'shot.png', prompt: PROMPT }, /path must be absolute, not "shot\.png"; e\.g\. ".*ws\/shot\.png"/);
    await refused({ path: '', prompt: PROMPT }, /path must be absolute/);
  });

  it('refuses a missing file, a directory and a FIFO', async () => {
    const w = await open();
    await refused({ path: path.join(w.root, 'nope.png'), prompt: PROMPT }, /no file at .*nope\.png/, 'not_found');
    await fsp.mkdir(path.join(w.root, 'dir.png'));
    await refused({ path: path.join(w.root, 'dir.png'), prompt: PROMPT }, /dir\.png is a directory; give the path of one image file/);
    if (process.platform !== 'win32') {
      const fifo = path.join(w.root, 'pipe.png');
      execFileSync('mkfifo', [fifo]);
      await refused({ path: fifo, prompt: PROMPT }, /is not a regular file \(a FIFO, socket or device\)/);
    }
  });

  it('refuses unsupported extensions (.bmp, .svg, none) whatever the bytes', async () => {
    const w = await open();
    await refused({ path: await w.write('a.bmp', Buffer.from('BM')), prompt: PROMPT }, /a\.bmp is not a supported image; view_image takes PNG, JPEG, GIF or WebP/);
    await refused({ path: await w.write('a.svg', '<svg xmlns="http://www.w3.org/2000/svg"/>'), prompt: PROMPT }, /a\.svg is not a supported image/);
    await refused({ path: await w.write('png', IMAGES.png), prompt: PROMPT }, /png is not a supported image/);
  });

  it('accepts upper- and mixed-case extensions, jpg and jpeg alike', async () => {
    const w = await open();
    for (const [name, bytes, format] of [['SHOT.PNG', IMAGES.png, 'png'], ['Photo.JpEg', IMAGES.jpeg, 'jpeg'], ['x.JPG', IMAGES.jpeg, 'jpeg'], ['A.WEBP', IMAGES.webp, 'webp'], ['b.Gif', IMAGES.gif, 'gif']] as const) {
      const result = await w.run({ path: await w.write(name, bytes), prompt: PROMPT });
      assert.equal(result.status, 'success', `${name}: ${result.content}`);
      assert.equal(result.metadata.format, format);
    }
    assert.equal(vision.requests.length, 5);
  });

  it('follows a symlink to its canonical target, and judges that target with absolute_paths', async () => {
    const w = await open();
    const target = await w.write('images/real.png', IMAGES.png);
    await fsp.symlink(target, path.join(w.root, 'link.png'));
    const inside = await w.run({ path: path.join(w.root, 'link.png'), prompt: PROMPT });
    assert.equal(inside.status, 'success', inside.content);
    assert.equal(inside.metadata.path, target);
    // The target's extension is what counts: a .png link to a .txt file is refused.
    await fsp.symlink(await w.write('notes.txt', IMAGES.png), path.join(w.root, 'notes.png'));
    vision.forget();
    await refused({ path: path.join(w.root, 'notes.png'), prompt: PROMPT }, /notes\.txt is not a supported image/);
    // A link inside the root to an image outside it: allowed by default (the canonical target is outside).
    const far = await w.write('far.png', IMAGES.png, 'outside');
    await fsp.symlink(far, path.join(w.root, 'far-link.png'));
    const allowed = await w.run({ path: path.join(w.root, 'far-link.png'), prompt: PROMPT });
    assert.equal(allowed.status, 'success', allowed.content);
    assert.equal(allowed.metadata.path, far);
  });

  it('with absolute_paths false refuses an image outside the root, directly or through a symlink, and still reads inside', async () => {
    const w = await open({ absolute_paths: false });
    const far = await w.write('far.png', IMAGES.png, 'outside');
    await refused({ path: far, prompt: PROMPT }, /is outside the workspace root and the setting capabilities\.tools\.view_image\.absolute_paths is false/, 'setting_denied');
    await fsp.symlink(far, path.join(w.root, 'far-link.png'));
    await refused({ path: path.join(w.root, 'far-link.png'), prompt: PROMPT }, /absolute_paths is false/, 'setting_denied');
    await refused({ path: path.join(w.root, '..', 'outside', 'far.png'), prompt: PROMPT }, /absolute_paths is false/, 'setting_denied');
    const near = await w.run({ path: await w.write('near.png', IMAGES.png), prompt: PROMPT });
    assert.equal(near.status, 'success', near.content);
  });

  it('refuses bad arguments: unknown fields, missing or blank prompt, a prompt over 4,096 characters', async () => {
    const w = await open();
    const file = await w.write('a.png', IMAGES.png);
    await refused({ path: file, prompt: PROMPT, detail: 'high' }, /unknown field `detail`/);
    await refused({ path: file }, /field `prompt`/);
    await refused({ prompt: PROMPT }, /field `path`/);
    await refused({ path: file, prompt: '   \n' }, /`prompt` is blank; say what to inspect/);
    await refused({ path: file, prompt: 'x'.repeat(4097) }, /field `prompt`/);
    const longest = await w.run({ path: file, prompt: 'x'.repeat(4096) });
    assert.equal(longest.status, 'success', longest.content);
  });
});
