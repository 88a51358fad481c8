// The end-to-end UI test: the real workbench (code-server + headless Chromium) with Magi loaded,
// against the scripted model provider. Opens the Magi view, sends a task, sees the streamed answer
// and the tool cards, accepts the proposed hash_edit from the diff editor and checks the file's
// bytes, then opens Mission Control and the hash_edit's detail with its diff. Screenshots of each
// view go to test/ui/.artifacts/.
// Usage: node test/ui/run.mjs        (npm run test:ui; needs `npm run build` first)
// Env: MAGI_UI_KEEP=1 keeps the temp state dir (workspace, code-server log).
// Exit code: 0 when every step passed, 1 otherwise.
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tsImport } from 'tsx/esm/api';
import { chromiumOptions, ensureHarness, playwright, startCodeServer, workbenchUrl } from '../host/codeServer.mjs';
import { BYTES_AFTER, BYTES_BEFORE, EDITED_FILE, FINAL_ANSWER, FIRST_ANSWER, TASK, modelScript } from './script.mjs';
import { frameWith, runCommand, screenshots, until } from './workbench.mjs';

const UI_DIR = fileURLToPath(new URL('.', import.meta.url));
const REPO = resolve(UI_DIR, '../..');
const ARTIFACTS = join(UI_DIR, '.artifacts');
const t0 = Date.now();
const elapsed = () => `${((Date.now() - t0) / 1000).toFixed(1)}s`;
const step = (text) => console.log(`ui: ${elapsed()} ${text}`);

if (!existsSync(join(REPO, 'dist/extension.js'))) {
  console.error('dist/extension.js is missing: run `npm run build` first.');
  process.exit(1);
}
ensureHarness();
rmSync(ARTIFACTS, { recursive: true, force: true });

const { startScriptedProvider } = await tsImport('../unit/helpers/scriptedProvider.ts', import.meta.url);
const stateDir = mkdtempSync(join(tmpdir(), 'magi-ui-'));
const workspace = join(stateDir, 'workspace');
cpSync(join(UI_DIR, 'fixtures/workspace'), workspace, { recursive: true });
const editedPath = join(workspace, EDITED_FILE);

let model;
let server;
let browser;
let cleaning;
/** Closes the browser, ends code-server's process group and the scripted provider, removes the state; once. */
const cleanup = () => (cleaning ??= (async () => {
  await browser?.close().catch((err) => console.error(`ui: closing the browser failed: ${err.message}`));
  await server?.stop();
  await model?.close().catch((err) => console.error(`ui: closing the scripted provider failed: ${err.message}`));
  if (!process.env.MAGI_UI_KEEP) rmSync(stateDir, { recursive: true, force: true, maxRetries: 5 });
})());
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    console.error(`\nui: ${signal}, stopping code-server`);
    cleanup().finally(() => process.exit(130));
  });
}

let code = 1;
let shots;
let page;
try {
  model = await startScriptedProvider(modelScript());
  server = await startCodeServer({
    stateDir,
    userSettings: {
      'magi.provider': 'openai',
      'magi.baseUrl': model.baseUrl,
      'magi.model': 'scripted',
      'magi.edits.review': 'before',
      'files.autoSave': 'off',
    },
  });
  step(`code-server up at ${server.url}`);
  browser = await playwright().chromium.launch(chromiumOptions(stateDir));
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  page.setDefaultTimeout(20_000);
  page.on('pageerror', (err) => console.log(`[workbench error] ${err.message}`));
  shots = screenshots(page, ARTIFACTS);

  await page.goto(workbenchUrl(server, { folder: workspace, extensionDevelopmentPath: REPO }));
  await page.locator('.monaco-workbench .explorer-folders-view').waitFor({ timeout: 60_000 });
  step('workbench ready');
  await shots.take('workbench');

  // The Magi view: its activity-bar item.
  const magiItem = page.locator('.part.activitybar .action-item a.action-label[aria-label^="Magi"]').first();
  await magiItem.click({ timeout: 30_000 });
  const chat = await frameWith(page, '[data-testid=chat-input]', 'the chat view shows its input');
  step('chat view open');
  await shots.take('chat-view');

  // Send the task with Enter (chat-input is a <vscode-text-area>: the textarea sits in its shadow root).
  const input = chat.locator('[data-testid=chat-input] textarea');
  await input.fill(TASK);
  await input.press('Enter');
  await chat.locator('[data-testid=user-message]', { hasText: TASK }).waitFor();
  await chat.locator('[data-testid=assistant-message]', { hasText: FIRST_ANSWER }).waitFor();
  await chat.locator('[data-testid=tool-card][data-tool=read]').first().waitFor();
  const editCard = chat.locator('[data-testid=tool-card][data-tool=hash_edit]').first();
  await editCard.waitFor();
  step(`chat shows the answer and the read and hash_edit cards (hash_edit ${await editCard.getAttribute('data-status')})`);

  // The review of the hash_edit: VS Code's diff editor against the proposed text.
  const diffEditor = page.locator('.editor-instance .monaco-diff-editor').first();
  await diffEditor.waitFor({ timeout: 20_000 });
  await page.locator('.tabs-container .tab.active', { hasText: EDITED_FILE }).waitFor();
  const editStatus = await editCard.getAttribute('data-status');
  if (editStatus === 'success') throw new Error('the hash_edit card says success while its review is still open');
  if (readFileSync(editedPath, 'utf8') !== BYTES_BEFORE) throw new Error(`${EDITED_FILE} changed before the edit was accepted`);
  await until('the diff editor shows the proposed line BETA', () => diffEditor.innerText().then((text) => text.includes('BETA')));
  await shots.take('chat-tool-cards-and-diff-review');

  // Accept from the diff editor's title.
  await page.locator('.editor-actions a.action-label[aria-label="Accept Edit"]').first().click();
  await until(`${EDITED_FILE} holds the accepted edit on disk`, () => readFileSync(editedPath, 'utf8') === BYTES_AFTER, { timeoutMs: 15_000 });
  step('accepted: the file changed on disk');

  // The final answer streams in: seen growing, then complete.
  const answers = chat.locator('[data-testid=assistant-message]');
  let partialSeen = false;
  await until('the final answer is shown in full', async () => {
    const texts = (await answers.allInnerTexts()).map((t) => t.trim());
    if (texts.some((t) => t.length > 0 && t.length < FINAL_ANSWER.length && FINAL_ANSWER.startsWith(t))) partialSeen = true;
    return texts.some((t) => t.includes(FINAL_ANSWER));
  }, { everyMs: 40 });
  if (!partialSeen) throw new Error('the final answer appeared whole: no partial text was seen while it streamed');
  await until('the hash_edit card says success', async () => (await editCard.getAttribute('data-status')) === 'success');
  await until('the review diff closed', async () => (await page.locator('.editor-instance .monaco-diff-editor').count()) === 0);
  step('final answer streamed');
  await shots.take('chat-final-answer');

  // Mission Control and the hash_edit's detail.
  await runCommand(page, 'Magi: Open Mission Control');
  const mission = await frameWith(page, '[data-testid=activity-list]', 'Mission Control shows its activity list');
  const editRow = mission.locator('[data-testid=activity-row][data-tool=hash_edit]').first();
  await editRow.waitFor();
  await shots.take('mission-control');
  await editRow.click();
  const diff = mission.locator('[data-testid=activity-detail] [data-testid=detail-diff]').first();
  await diff.waitFor();
  await until('the detail diff removes beta and adds BETA', async () => {
    const text = await diff.innerText();
    return /^-beta$/m.test(text) && /^\+BETA$/m.test(text);
  });
  step('Mission Control shows the hash_edit diff');
  await shots.take('mission-control-hash-edit-detail');

  if (model.remaining() !== 0) throw new Error(`${model.remaining()} scripted model step(s) were never asked for`);
  const models = model.requests.map((r) => r.body?.model);
  if (models.length !== 3 || models.some((m) => m !== 'scripted')) throw new Error(`expected 3 requests for model "scripted", got ${JSON.stringify(models)}`);
  const firstUser = model.requests[0].body.messages.find((m) => m.role === 'user');
  if (!JSON.stringify(firstUser?.content ?? '').includes(TASK)) throw new Error(`the model was not sent the typed task: ${JSON.stringify(firstUser)}`);
  code = 0;
} catch (err) {
  console.error(`ui: FAILED after ${elapsed()}: ${err.stack ?? err}`);
  if (page && shots) console.error(`ui: screenshot of the failure: ${await shots.take('failure').catch((e) => `none (${e.message})`)}`);
  if (model) console.error(`ui: the scripted model got ${model.requests.length} request(s), ${model.remaining()} step(s) left`);
  if (server) console.error(`---- code-server log (tail) ----\n${server.logTail(40)}`);
} finally {
  await cleanup();
}
if (shots) console.log(`ui: screenshots:\n${shots.saved.map((f) => `  ${f}`).join('\n')}`);
console.log(`ui tests: exit ${code} after ${elapsed()}`);
process.exit(code);
