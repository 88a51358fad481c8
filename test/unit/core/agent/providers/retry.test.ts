import { strict as assert } from 'node:assert';
import { parseRetryAfter, retryDelayMs, sleep } from '../../../../../src/core/agent/providers/retry';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads seconds, fractional seconds and retry-after-ms (which wins)', () => {
    assert.equal(parseRetryAfter({ 'retry-after': '3' }, now), 3000);
    assert.equal(parseRetryAfter({ 'retry-after': ' 1.5 ' }, now), 1500);
    assert.equal(parseRetryAfter({ 'retry-after': '3', 'retry-after-ms': '250' }, now), 250);
  });

  it('reads an HTTP date, and a date in the past as no wait', () => {
    assert.equal(parseRetryAfter({ 'retry-after': 'Thu, 01 Jan 2026 00:00:07 GMT' }, now), 7000);
    assert.equal(parseRetryAfter({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }, now), 0);
  });

  it('ignores absent and unreadable values', () => {
    assert.equal(parseRetryAfter({}, now), undefined);
    assert.equal(parseRetryAfter({ 'retry-after': 'soon' }, now), undefined);
    assert.equal(parseRetryAfter({ 'retry-after': '-5' }, now), undefined);
  });
});

describe('retryDelayMs', () => {
  const timing = { baseRetryDelayMs: 100, maxRetryDelayMs: 1000 };

  it('doubles per retry with half of it jittered, up to the cap', () => {
    assert.equal(retryDelayMs(0, timing, undefined, () => 0), 50);
    assert.equal(retryDelayMs(0, timing, undefined, () => 1), 100);
    assert.equal(retryDelayMs(2, timing, undefined, () => 0.5), 300);
    assert.equal(retryDelayMs(10, timing, undefined, () => 1), 1000);
  });

  it('honours retry-after as given, capped by maxRetryDelayMs', () => {
    assert.equal(retryDelayMs(3, timing, 250, () => 0), 250);
    assert.equal(retryDelayMs(0, timing, 60_000), 1000);
  });
});

describe('sleep', () => {
  it('ends early when the signal aborts, and at once when it already has', async () => {
    const controller = new AbortController();
    const started = Date.now();
    setTimeout(() => controller.abort(), 20);
    await sleep(10_000, controller.signal);
    await sleep(10_000, controller.signal);
    assert.ok(Date.now() - started < 1000);
  });
});
