/**
 * A virtualized list of call rows: fixed row height, a spacer as tall as all rows, and only the
 * rows in view (plus a few either side) in the DOM, so 10,000 calls scroll like 30.
 */
import { formatBytes, formatDuration } from '../shared/format';
import type { CallRow, CallStatus } from './model';

export const ROW_HEIGHT = 24;
const OVERSCAN = 6;

const STATUS_ICON: Record<CallStatus, string> = {
  running: 'loading codicon-modifier-spin',
  success: 'check',
  error: 'error',
  cancelled: 'circle-slash',
};

function span(className: string, text: string): HTMLSpanElement {
  const element = document.createElement('span');
  element.className = className;
  element.textContent = text;
  return element;
}

function drawRow(row: CallRow, selected: boolean): HTMLElement {
  const element = document.createElement('div');
  element.className = `row ${row.status}${selected ? ' selected' : ''}`;
  element.setAttribute('role', 'option');
  element.setAttribute('aria-selected', String(selected));
  element.dataset.testid = 'activity-row';
  element.dataset.callId = row.callId;
  element.dataset.runId = row.runId;
  element.dataset.tool = row.tool;
  element.dataset.status = row.status;
  const icon = span(`codicon codicon-${STATUS_ICON[row.status]}`, '');
  icon.title = row.status;
  const badges = span('badges', '');
  badges.append(...row.badges.map((b) => span('cut', b)));
  const title = span('title', [row.title, row.progress || row.facts].filter(Boolean).join(' — '));
  title.title = title.textContent ?? '';
  element.append(
    icon,
    span('tool', row.tool),
    title,
    span('num', row.durationMs === null ? '' : formatDuration(row.durationMs)),
    span('num', row.bytesIn === null ? '' : `${formatBytes(row.bytesIn)} → ${formatBytes(row.bytesOut ?? 0)}`),
    span('num', row.tokens === null ? '' : `${row.tokens} tok`),
    badges,
  );
  return element;
}

export class VirtualList {
  private readonly spacer = document.createElement('div');
  private readonly drawn = new Map<CallRow, { element: HTMLElement; version: number; selected: boolean; top: number }>();
  private rows: readonly CallRow[] = [];
  private selected: CallRow | undefined;
  /** Whether new rows keep the view at the end: true until the person scrolls away from it. */
  private following = true;

  constructor(
    private readonly container: HTMLElement,
    private readonly onSelect: (row: CallRow) => void,
  ) {
    container.dataset.testid = 'activity-list';
    container.setAttribute('role', 'listbox');
    this.spacer.className = 'spacer';
    container.append(this.spacer);
    container.addEventListener('scroll', () => {
      this.following = this.atEnd();
      this.draw();
    }, { passive: true });
    container.addEventListener('click', (event) => {
      const element = (event.target as HTMLElement).closest<HTMLElement>('[data-testid="activity-row"]');
      const hit = [...this.drawn].find(([, d]) => d.element === element);
      if (hit) this.onSelect(hit[0]);
    });
  }

  /** Shows these rows (already filtered) and draws the visible window, at the end while following. */
  show(rows: readonly CallRow[], selected: CallRow | undefined): void {
    this.rows = rows;
    this.selected = selected;
    this.container.dataset.rowCount = String(rows.length);
    this.spacer.style.height = `${rows.length * ROW_HEIGHT}px`;
    if (this.following) this.scrollToEnd();
    else this.draw();
  }

  private draw(): void {
    const { scrollTop, clientHeight } = this.container;
    const first = Math.max(0, Math.floor(scrollTop / ROW_HEIGHT) - OVERSCAN);
    const last = Math.min(this.rows.length, Math.ceil((scrollTop + clientHeight) / ROW_HEIGHT) + OVERSCAN);
    const visible = new Set<CallRow>();
    for (let i = first; i < last; i++) {
      const row = this.rows[i] as CallRow;
      visible.add(row);
      const top = i * ROW_HEIGHT;
      const selected = row === this.selected;
      const known = this.drawn.get(row);
      if (known && known.version === row.version && known.selected === selected) {
        if (known.top !== top) {
          known.element.style.transform = `translateY(${top}px)`;
          known.top = top;
        }
        continue;
      }
      const element = drawRow(row, selected);
      element.style.transform = `translateY(${top}px)`;
      if (known) known.element.replaceWith(element);
      else this.container.append(element);
      this.drawn.set(row, { element, version: row.version, selected, top });
    }
    for (const [row, { element }] of this.drawn) {
      if (visible.has(row)) continue;
      element.remove();
      this.drawn.delete(row);
    }
  }

  private atEnd(): boolean {
    const c = this.container;
    return c.scrollHeight - c.scrollTop - c.clientHeight < ROW_HEIGHT * 2;
  }

  /** Scrolls to the last row, computing the offset from the row count rather than reading layout. */
  scrollToEnd(): void {
    this.container.scrollTop = Math.max(0, this.rows.length * ROW_HEIGHT - this.container.clientHeight);
    this.draw();
  }
}
