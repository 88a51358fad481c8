import { strict as assert } from 'node:assert';
import type { ActivityEvent } from '../../../../src/core/activity';
import { ActivityFeed, MESSAGE_BYTES } from '../../../../src/host/webviews/activityFeed';
import { ActivityStore } from '../../../../src/host/webviews/activityStore';
import type { HostMessage } from '../../../../webview/protocol';

function delta(runId: string, seq: number, text = 'x'): ActivityEvent {
  return { runId, seq, at: 0, agent: 'main', type: 'text_delta', turn: 1, text };
}

/** A manual clock for the feed's ticks. */
function manualSchedule(): { schedule: (run: () => void) => { cancel(): void }; pending: () => number; fire: () => void } {
  let queue: (() => void)[] = [];
  return {
    schedule: (run) => {
      queue.push(run);
      return { cancel: () => (queue = queue.filter((r) => r !== run)) };
    },
    pending: () => queue.length,
    fire: () => {
      const due = queue;
      queue = [];
      for (const run of due) run();
    },
  };
}

describe('ActivityStore', () => {
  it('numbers entries from 1 without gaps across runs, and after(n) returns exactly the later ones', () => {
    const store = new ActivityStore();
    for (let i = 1; i <= 3; i++) store.append(delta('a', i));
    for (let i = 1; i <= 2; i++) store.append(delta('b', i));
    assert.equal(store.lastN, 5);
    assert.deepEqual(store.after(0).entries.map((e) => e.n), [1, 2, 3, 4, 5]);
    assert.deepEqual(store.after(3).entries.map((e) => [e.n, e.event.runId, e.event.seq]), [[4, 'b', 1], [5, 'b', 2]]);
    assert.deepEqual(store.after(5).entries, []);
    assert.equal(store.after(3).dropped, 0);
  });

  it("marks Run Task's entries with their source, and only those", () => {
    const store = new ActivityStore();
    store.append(delta('chat', 1));
    store.append(delta('task', 1), 'task');
    assert.deepEqual(store.after(0).entries.map((e) => e.source), [undefined, 'task']);
  });

  it('keeps the newest entries only, and a replay from before the oldest starts there and counts the dropped', () => {
    const store = new ActivityStore(3);
    for (let i = 1; i <= 5; i++) store.append(delta('a', i));
    assert.equal(store.firstN, 3);
    assert.deepEqual(store.after(0), { entries: store.after(2).entries, dropped: 2 });
    assert.deepEqual(store.after(1).entries.map((e) => e.n), [3, 4, 5]);
    assert.equal(store.after(1).dropped, 1);
    assert.equal(store.after(4).dropped, 0);
  });

  it('drops the oldest entries beyond its byte budget and cuts a slice at maxBytes (at least one entry)', () => {
    const store = new ActivityStore(100, 1000);
    for (let i = 1; i <= 10; i++) store.append(delta('a', i, 'y'.repeat(200)));
    assert.ok(store.after(0).entries.length < 10);
    assert.equal(store.after(0).entries.at(-1)?.n, 10);
    assert.deepEqual(store.after(9, 10).entries.map((e) => e.n), [10]);
    assert.equal(store.after(0, 10).entries.length, 1);
  });

  it('finds the newest matching event, and a throwing listener is removed without breaking append', () => {
    const store = new ActivityStore();
    const seen: number[] = [];
    store.onAppend(() => {
      throw new Error('broken webview');
    });
    store.onAppend((entry) => seen.push(entry.n));
    const error = console.error;
    console.error = () => {};
    try {
      store.append(delta('a', 1));
      store.append(delta('a', 2, 'last'));
    } finally {
      console.error = error;
    }
    assert.deepEqual(seen, [1, 2]);
    assert.equal(store.findLast((e) => e.type === 'text_delta')?.seq, 2);
    assert.equal(store.findLast((e) => e.type === 'run_end'), undefined);
  });
});

describe('ActivityFeed', () => {
  it('sends nothing before ready, replays after lastN, then batches new entries per tick, each once and in order', () => {
    const store = new ActivityStore();
    const clock = manualSchedule();
    const sent: HostMessage[] = [];
    const feed = new ActivityFeed(store, (m) => sent.push(m), clock.schedule);
    for (let i = 1; i <= 4; i++) store.append(delta('a', i));
    assert.deepEqual(sent, []);
    assert.equal(clock.pending(), 0);
    feed.ready(2);
    assert.deepEqual(sent, [{ type: 'replay', afterN: 2, entries: store.after(2).entries }]);
    for (let i = 5; i <= 50; i++) store.append(delta('a', i));
    assert.equal(clock.pending(), 1, 'one tick for many deltas');
    clock.fire();
    assert.equal(sent.length, 2);
    assert.deepEqual(sent[1], { type: 'activity', entries: store.after(4).entries });
    clock.fire();
    assert.equal(sent.length, 2, 'nothing twice');
    feed.dispose();
  });

  it('pauses while the webview is gone and catches up from its lastN on the next ready', () => {
    const store = new ActivityStore();
    const clock = manualSchedule();
    const sent: HostMessage[] = [];
    const feed = new ActivityFeed(store, (m) => sent.push(m), clock.schedule);
    feed.ready(0);
    store.append(delta('a', 1));
    clock.fire();
    feed.pause();
    store.append(delta('a', 2));
    store.append(delta('a', 3));
    clock.fire();
    assert.equal(sent.length, 2);
    feed.ready(1);
    assert.deepEqual(sent[2], { type: 'replay', afterN: 1, entries: store.after(1).entries });
    feed.dispose();
  });

  it('splits a long replay into bounded messages and says when older entries are gone', () => {
    const store = new ActivityStore(80);
    const clock = manualSchedule();
    const sent: HostMessage[] = [];
    const feed = new ActivityFeed(store, (m) => sent.push(m), clock.schedule);
    const big = 'z'.repeat(16 * 1024);
    for (let i = 1; i <= 100; i++) store.append(delta('a', i, big));
    feed.ready(0);
    assert.equal(sent[0]?.type, 'notice');
    assert.match(sent[0]?.type === 'notice' ? sent[0].message : '', /^20 older activity entries are no longer kept/);
    assert.ok(sent[1]?.type === 'replay' && sent[1].afterN === 20, 'the replay says where it starts');
    while (clock.pending() > 0) clock.fire();
    const ns = sent.flatMap((m) => (m.type === 'replay' || m.type === 'activity' ? m.entries.map((e) => e.n) : []));
    assert.deepEqual(ns, Array.from({ length: 80 }, (_, i) => i + 21));
    for (const m of sent) assert.ok(JSON.stringify(m).length <= MESSAGE_BYTES + 1024, `${m.type} is bounded`);
    assert.ok(sent.length > 2);
    feed.dispose();
  });
});
