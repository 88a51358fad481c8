// Mission Control against the fake host.
// Functions passed to page.evaluate run in the browser, where these globals exist.
/* global document, Event */
import assert from 'node:assert/strict';
import { EntryLog, failsAt, manyCalls, toolAt } from './activity.mjs';
import { openView, posted, reloadAndReplay, send, settle, waitPersisted } from './harness.mjs';

const CALLS = 10_000;
const ROW_HEIGHT = 24;

async function filterBy(page, testId, value) {
  await page.$eval(`[data-testid="${testId}"]`, (el, v) => {
    el.value = v;
    el.dispatchEvent(new Event('change'));
  }, value);
  await settle(page);
}

const listState = (page) => page.$eval('[data-testid="activity-list"]', (l) => ({
  rowCount: Number(l.dataset.rowCount),
  scrollHeight: l.scrollHeight,
  domRows: l.querySelectorAll('[data-testid="activity-row"]').length,
}));

const snapshot = (page) => page.evaluate(() => ['activity-list', 'activity-detail'].map((id) => {
  const el = document.querySelector(`[data-testid="${id}"]`);
  return `${el.dataset.rowCount ?? ''}|${el.innerHTML}`;
}).join('\n'));

export const missionControlTests = [
  ['mission control: 10,000 calls render in a virtualized list; filters; a hash_edit shows its diff', async ({ browser, origin, artifacts }) => {
    const { page, context, errors } = await openView(browser, origin, 'missionControl');
    const log = new EntryLog();
    manyCalls(log, CALLS);
    for (let i = 0; i < log.entries.length; i += 500) await send(page, { type: 'activity', entries: log.entries.slice(i, i + 500) });
    await settle(page);
    const all = await listState(page);
    assert.equal(all.rowCount, CALLS);
    assert.equal(all.scrollHeight, CALLS * ROW_HEIGHT);
    assert.ok(all.domRows > 0 && all.domRows < 80, `${all.domRows} rows in the DOM`);
    // It follows the end while entries stream in.
    assert.ok(await page.$(`[data-testid="activity-row"][data-call-id="call-${CALLS - 1}"]`), JSON.stringify(await page.$eval('[data-testid="activity-list"]', (l) => [l.scrollTop, l.clientHeight, l.scrollHeight, l.lastElementChild.dataset.callId])));

    const expectedGrep = Array.from({ length: CALLS }, (_, i) => i).filter((i) => toolAt(i) === 'grep');
    await filterBy(page, 'filter-tool', 'grep');
    const grep = await listState(page);
    assert.equal(grep.rowCount, expectedGrep.length);
    assert.deepEqual([...new Set(await page.$$eval('[data-testid="activity-row"]', (rs) => rs.map((r) => r.dataset.tool)))], ['grep']);
    await filterBy(page, 'filter-status', 'error');
    assert.equal((await listState(page)).rowCount, expectedGrep.filter(failsAt).length);
    await filterBy(page, 'filter-tool', '');
    assert.equal((await listState(page)).rowCount, Array.from({ length: CALLS }, (_, i) => i).filter(failsAt).length);
    await filterBy(page, 'filter-status', '');
    await filterBy(page, 'filter-tool', 'hash_edit');

    // The newest successful hash_edit (older ones no longer hold their output and diff).
    const last = [...Array(CALLS).keys()].reverse().find((i) => toolAt(i) === 'hash_edit' && !failsAt(i));
    await page.click(`[data-testid="activity-row"][data-call-id="call-${last}"]`);
    await settle(page);
    const detail = await page.$eval('[data-testid="activity-detail"]', (d) => ({
      output: d.querySelector('[data-testid="detail-output"]')?.textContent,
      diff: d.querySelector('[data-testid="detail-diff"]')?.textContent,
      selected: document.querySelectorAll('.row.selected').length,
    }));
    assert.equal(detail.output, `output of call ${last}`);
    assert.match(detail.diff, new RegExp(`-const old${last} = 1;\\n\\+const new${last} = 2;`));
    assert.equal(detail.selected, 1);
    await page.click('[data-testid="open-diff"]');
    await page.click('[data-testid="revert"]');
    assert.deepEqual((await posted(page)).slice(-2), [
      { type: 'open_diff', runId: 'run-1', callId: `call-${last}` },
      { type: 'revert', runId: 'run-1', callId: `call-${last}` },
    ]);
    await page.screenshot({ path: `${artifacts}/missionControl.png` });
    assert.deepEqual(errors, []);
    await context.close();
  }],

  ['mission control: a reload asks for a replay from its last n and redraws exactly; unknown messages are ignored', async ({ browser, origin }) => {
    const { page, context, errors } = await openView(browser, origin, 'missionControl');
    const log = new EntryLog();
    manyCalls(log, 400);
    const k = log.entries.length;
    await send(page, { type: 'replay', afterN: 0, entries: log.entries });
    await waitPersisted(page, k);
    const before = await snapshot(page);
    await send(page, { type: 'nope' }, { type: 'replay', afterN: 'x', entries: 1 }, { type: 'activity', entries: [{ n: k + 1, event: null }] }, undefined);
    await settle(page);
    assert.equal(await snapshot(page), before);

    assert.deepEqual(await reloadAndReplay(page, k, []), [{ type: 'ready', lastN: k }]);
    assert.equal(await snapshot(page), before);

    manyCalls(log, 50, 'run-2');
    await reloadAndReplay(page, k, log.after(k));
    const fresh = await openView(browser, origin, 'missionControl');
    await send(fresh.page, { type: 'replay', afterN: 0, entries: log.entries });
    await settle(fresh.page);
    assert.equal(await snapshot(page), await snapshot(fresh.page));
    assert.equal((await listState(page)).rowCount, 450);
    assert.deepEqual([...errors, ...fresh.errors], []);
    await fresh.context.close();
    await context.close();
  }],
];
