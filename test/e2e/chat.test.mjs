// The chat side panel against the fake host.
// Functions passed to page.evaluate run in the browser, where these globals exist.
/* global window, document, Event */
import assert from 'node:assert/strict';
import { EntryLog, endOf, manyCalls } from './activity.mjs';
import { openView, persistedLastN, posted, reloadAndReplay, send, settle, waitPersisted } from './harness.mjs';

const EVIL = [
  'Here is **bold** and `code`.\n\n',
  '<script>window.__pwned = 1</script>\n\n',
  '<img src=x onerror="window.__pwned = 2">\n\n',
  '[evil](javascript:window.__pwned=3) and [ok](https://example.com/docs) and [mail](mailto:a@b.c)',
].join('');

/** A run whose answer streams in as many small deltas, then tool calls of each kind. */
function streamedRun(log, runId = 'run-a') {
  log.push(runId, { type: 'run_start', task: 'Explain the parser', cwd: '/w', provider: 'fake', model: 'm', sessionFile: null, resumed: false });
  log.push(runId, { type: 'message_start', turn: 1 });
  for (let i = 0; i < EVIL.length; i += 7) log.push(runId, { type: 'text_delta', turn: 1, text: EVIL.slice(i, i + 7) });
  return log;
}

const snapshot = (p) => p.evaluate(() => document.querySelector('[data-testid="chat-messages"]').innerHTML);

export const chatTests = [
  ['chat: deltas stream into one assistant message rendered as sanitized markdown', async ({ browser, origin, artifacts }) => {
    const { page, context, errors } = await openView(browser, origin, 'chat');
    const log = streamedRun(new EntryLog());
    // Deltas arrive as separate messages, as the host sends them.
    for (const entry of log.entries) await send(page, { type: 'activity', entries: [entry] });
    await settle(page);
    const r = await page.evaluate(() => {
      const messages = document.querySelectorAll('[data-testid="assistant-message"]');
      const m = messages[0];
      return {
        count: messages.length,
        users: [...document.querySelectorAll('[data-testid="user-message"]')].map((u) => u.textContent),
        strong: m.querySelector('strong')?.textContent,
        text: m.textContent,
        scripts: document.querySelectorAll('[data-testid="chat-messages"] script, [data-testid="chat-messages"] img').length,
        hrefs: [...m.querySelectorAll('a')].map((a) => a.getAttribute('href')),
        pwned: window.__pwned,
      };
    });
    assert.equal(r.count, 1);
    assert.deepEqual(r.users, ['Explain the parser']);
    assert.equal(r.strong, 'bold');
    assert.equal(r.scripts, 0);
    assert.ok(r.text.includes('<script>window.__pwned = 1</script>'), 'raw HTML shows as text');
    assert.deepEqual(r.hrefs, ['https://example.com/docs', 'mailto:a@b.c']);
    assert.equal(r.pwned, undefined);
    await page.screenshot({ path: `${artifacts}/chat.png` });
    assert.deepEqual(errors, []);
    await context.close();
  }],

  ['chat: a streaming answer never splits a code fence, and the finished message is rendered whole', async ({ browser, origin }) => {
    const { page, context, errors } = await openView(browser, origin, 'chat');
    const log = new EntryLog();
    const text = 'Intro paragraph.\n\n```js\nconst a = 1;\n\nconst b = 2;\n```\n\n1. one\n\n2. two\n';
    log.push('r', { type: 'run_start', task: 'Show code', cwd: '/w', provider: 'fake', model: 'm', sessionFile: null, resumed: false });
    log.push('r', { type: 'message_start', turn: 1 });
    await send(page, { type: 'activity', entries: log.entries });
    for (let i = 0; i < text.length; i += 3) {
      log.push('r', { type: 'text_delta', turn: 1, text: text.slice(i, i + 3) });
      await send(page, { type: 'activity', entries: log.after(log.entries.length - 1) });
      if (i % 15 === 0) await settle(page);
    }
    await settle(page);
    const code = () => page.$$eval('[data-testid="assistant-message"] pre code', (cs) => cs.map((c) => c.textContent));
    assert.deepEqual(await code(), ['const a = 1;\n\nconst b = 2;\n']);
    log.push('r', { type: 'message_end', turn: 1, text, toolCalls: 0 });
    await send(page, { type: 'activity', entries: log.after(log.entries.length - 1) });
    await settle(page);
    assert.deepEqual(await code(), ['const a = 1;\n\nconst b = 2;\n']);
    // Whole: the loose list is one <ol> again, and the streaming cursor is gone.
    assert.equal(await page.$$eval('[data-testid="assistant-message"] ol', (os) => os.length), 1);
    assert.equal(await page.$$eval('.assistant.streaming', (ms) => ms.length), 0);
    assert.deepEqual(errors, []);
    await context.close();
  }],

  ['chat: tool cards are titled from the safe summary and follow their status', async ({ browser, origin, artifacts }) => {
    const { page, context, errors } = await openView(browser, origin, 'chat');
    const log = new EntryLog();
    log.push('r', { type: 'run_start', task: 'Fix it', cwd: '/w', provider: 'fake', model: 'm', sessionFile: null, resumed: false });
    const starts = [
      ['c1', 'bash', { intent: 'Run the unit tests', cwd: 'pkg' }],
      ['c2', 'read', { paths: ['src/a.ts', 'src/b.ts'] }],
      ['c3', 'write', { path: 'out/new.txt', bytes: 2048 }],
      ['c4', 'hash_edit', { input_bytes: 300, paths: ['src/a.ts'] }],
      ['c5', 'grep', { patterns: ['TODO', 'FIXME'], path: 'src' }],
      ['c6', 'subagents', { tasks: 3 }],
    ];
    for (const [callId, tool, summary] of starts) log.push('r', { type: 'tool_start', turn: 1, callId, tool, summary, mutates: false });
    log.push('r', endOf('bash', 'c1', 1, 'error'));
    log.push('r', { ...endOf('grep', 'c5', 5, 'success') });
    log.push('r', { ...endOf('subagents', 'c6', 6, 'success'), metadata: { total: 3, completed: 3, failed: 0 }, output: '3 of 3 tasks completed\n- task 1 …' });
    log.push('r', { type: 'tool_update', callId: 'c2', tool: 'read', message: 'reading…' });
    await send(page, { type: 'activity', entries: log.entries });
    await settle(page);
    const cards = await page.$$eval('[data-testid="tool-card"]', (cs) => cs.map((c) => ({ tool: c.dataset.tool, status: c.dataset.status, text: c.textContent })));
    assert.deepEqual(cards.map((c) => [c.tool, c.status]), [
      ['bash', 'error'], ['read', 'running'], ['write', 'running'], ['hash_edit', 'running'], ['grep', 'success'], ['subagents', 'success'],
    ]);
    assert.match(cards[0].text, /Run the unit tests/);
    assert.match(cards[1].text, /src\/a\.ts, src\/b\.ts/);
    assert.match(cards[1].text, /reading…/);
    assert.match(cards[2].text, /out\/new\.txt · 2\.0 KiB/);
    assert.match(cards[3].text, /src\/a\.ts · 300 B input/);
    assert.match(cards[4].text, /TODO \| FIXME.*3 matches in 2 files/);
    assert.match(cards[5].text, /3 tasks.*3 of 3 tasks completed/);
    assert.ok(!cards[5].text.includes('task 1'), 'subagents show only the summary line');
    const icons = await page.$$eval('[data-testid="tool-card"] .codicon', (is) => is.map((i) => i.className));
    assert.ok(icons[0].includes('codicon-error') && icons[1].includes('codicon-loading') && icons[4].includes('codicon-check'));
    await page.screenshot({ path: `${artifacts}/chat-tools.png` });
    assert.deepEqual(errors, []);
    await context.close();
  }],

  ['chat: Enter sends, Shift+Enter adds a line; cancel, new chat and reopen post their messages', async ({ browser, origin }) => {
    const { page, context, errors } = await openView(browser, origin, 'chat');
    await send(page, { type: 'chat_state', chatId: 'c1', running: true, sessions: [{ file: '/w/.magi/sessions/s1.jsonl', title: 'Earlier task', createdAt: 1 }] });
    const box = page.locator('[data-testid="chat-input"] textarea');
    await box.click();
    await page.keyboard.type('hello');
    await page.keyboard.press('Shift+Enter');
    await page.keyboard.type('world');
    assert.equal(await box.inputValue(), 'hello\nworld');
    await page.keyboard.press('Enter');
    await settle(page);
    assert.equal(await box.inputValue(), '');
    await page.click('[data-testid="chat-cancel"]');
    await page.click('[data-testid="chat-new"]');
    await page.$eval('[data-testid="chat-sessions"]', (el) => {
      el.value = '/w/.magi/sessions/s1.jsonl';
      el.dispatchEvent(new Event('change'));
    });
    const sent = (await posted(page)).filter((m) => m.type !== 'ready');
    assert.deepEqual(sent, [
      { type: 'send', text: 'hello\nworld' },
      { type: 'cancel' },
      { type: 'new_chat' },
      { type: 'open_session', file: '/w/.magi/sessions/s1.jsonl' },
    ]);
    assert.deepEqual(errors, []);
    await context.close();
  }],

  ['chat: hundreds of turns keep a bounded DOM', async ({ browser, origin }) => {
    const { page, context, errors } = await openView(browser, origin, 'chat');
    const log = new EntryLog();
    manyCalls(log, 600);
    for (let i = 0; i < log.entries.length; i += 100) await send(page, { type: 'activity', entries: log.entries.slice(i, i + 100) });
    await settle(page);
    const r = await page.evaluate(() => {
      const box = document.querySelector('[data-testid="chat-messages"]');
      return { children: box.children.length, earlier: box.querySelector('.earlier')?.textContent, last: box.lastElementChild?.textContent };
    });
    assert.ok(r.children <= 201, `${r.children} elements`);
    assert.equal(r.earlier, '401 earlier items not shown');
    assert.match(r.last, /q599/);
    assert.deepEqual(errors, []);
    await context.close();
  }],

  ['chat: unknown and malformed messages are ignored', async ({ browser, origin }) => {
    const { page, context, errors } = await openView(browser, origin, 'chat');
    const log = streamedRun(new EntryLog());
    await send(page, { type: 'activity', entries: log.entries });
    await settle(page);
    const before = await snapshot(page);
    await send(page, { type: 'bogus', entries: [] }, null, 'text', 42, { type: 'activity' }, { type: 'activity', entries: [null, { n: 'x' }, { n: 99, event: 3 }] },
      { type: 'replay' }, { type: 'chat_state', chatId: 'x', running: 'yes', sessions: [] }, { type: 'notice', level: 'loud', message: 1 },
      { type: 'activity', entries: [log.push('run-a', { type: 'future_event', detail: '<b>x</b>' })] });
    await settle(page);
    assert.equal(await snapshot(page), before);
    // A Magi: Run Task run (source "task") belongs to Mission Control: the chat counts it but shows nothing of it.
    const task = [
      log.push('run-task', { type: 'run_start', task: 'palette task', cwd: '/w', provider: 'f', model: 'm', sessionFile: null, resumed: false }),
      log.push('run-task', { type: 'tool_start', turn: 1, callId: 't1', tool: 'read', summary: { paths: ['x.txt'] }, mutates: false }),
    ].map((entry) => ({ ...entry, source: 'task' }));
    await send(page, { type: 'activity', entries: task });
    await settle(page);
    assert.equal(await snapshot(page), before);
    // Still alive: the next entry renders.
    log.push('run-a', { type: 'message_end', turn: 1, text: 'Final *answer*', toolCalls: 0 });
    await send(page, { type: 'activity', entries: log.after(log.entries.length - 1) });
    await settle(page);
    assert.equal(await page.$eval('[data-testid="assistant-message"] em', (e) => e.textContent), 'answer');
    assert.deepEqual(errors, []);
    await context.close();
  }],

  ['chat: a reload asks for a replay from its last n and redraws exactly', async ({ browser, origin }) => {
    const { page, context, errors } = await openView(browser, origin, 'chat');
    const log = streamedRun(new EntryLog());
    manyCalls(log, 30, 'run-b');
    const k = log.entries.length;
    await send(page, { type: 'replay', afterN: 0, entries: log.entries });
    await waitPersisted(page, k);
    const before = await snapshot(page);
    // Duplicates are dropped.
    await send(page, { type: 'activity', entries: log.entries.slice(-5) });
    await settle(page);
    assert.equal(await snapshot(page), before);

    assert.deepEqual(await reloadAndReplay(page, k, []), [{ type: 'ready', lastN: k }]);
    assert.equal(await snapshot(page), before);

    // While it was gone the host went on: after the next reload it catches up to what a fresh view shows.
    log.push('run-b', { type: 'message_start', turn: 9 });
    log.push('run-b', { type: 'text_delta', turn: 9, text: 'All **done**' });
    log.push('run-b', { type: 'message_end', turn: 9, text: 'All **done**', toolCalls: 0 });
    log.push('run-b', { type: 'run_end', outcome: 'failed', turns: 9, durationMs: 5, finalText: '', error: 'provider said no' });
    assert.deepEqual(await reloadAndReplay(page, k, log.after(k)), [{ type: 'ready', lastN: k }]);
    const caughtUp = await snapshot(page);

    const fresh = await openView(browser, origin, 'chat');
    assert.deepEqual(await posted(fresh.page), [{ type: 'ready', lastN: 0 }]);
    await send(fresh.page, { type: 'replay', afterN: 0, entries: log.entries });
    await settle(fresh.page);
    assert.equal(caughtUp, await snapshot(fresh.page));
    assert.ok(caughtUp.includes('provider said no'));
    assert.equal(await persistedLastN(fresh.page) <= log.entries.length, true);

    // A gap (entries after ones it never got) makes it ask again from what it holds.
    log.push('run-b', { type: 'run_start', task: 'next', cwd: '/w', provider: 'f', model: 'm', sessionFile: null, resumed: false });
    log.push('run-b', { type: 'message_start', turn: 1 });
    await send(page, { type: 'activity', entries: log.after(log.entries.length - 1) });
    await settle(page);
    assert.deepEqual((await posted(page)).at(-1), { type: 'ready', lastN: log.entries.length - 2 });
    // When the host's bounded store no longer has the missing entries, its replay starts later: the
    // view carries on from there instead of asking again (which would loop).
    const asked = (await posted(page)).length;
    await send(page, { type: 'replay', afterN: log.entries.length - 1, entries: log.after(log.entries.length - 1) });
    await settle(page);
    assert.equal((await posted(page)).length, asked, 'a replay that starts later is accepted, not asked for again');
    await waitPersisted(page, log.entries.length);
    assert.deepEqual([...errors, ...fresh.errors], []);
    await fresh.context.close();
    await context.close();
  }],
];
