/**
 * The Selected Activity Detail: the call's facts, its bounded output, and for a successful edit
 * the diff (display-only) with Open Diff and Revert. Everything goes in as text, never as HTML.
 */
import { post } from '../shared/vscodeApi';
import { button } from '../shared/toolkit';
import { formatBytes, formatDuration } from '../shared/format';
import type { CallRow } from './model';

function line(className: string, text: string): HTMLElement {
  const element = document.createElement('div');
  element.className = className;
  element.textContent = text;
  return element;
}

function diffBlock(diff: string): HTMLElement {
  const pre = document.createElement('pre');
  pre.className = 'diff';
  for (const text of diff.split('\n')) {
    const kind = text.startsWith('+') && !text.startsWith('+++') ? 'add' : text.startsWith('-') && !text.startsWith('---') ? 'del' : text.startsWith('@@') ? 'hunk' : 'ctx';
    const span = document.createElement('span');
    span.className = kind;
    span.textContent = `${text}\n`;
    pre.append(span);
  }
  return pre;
}

export function drawDetail(container: HTMLElement, row: CallRow | undefined, task: string | undefined): void {
  container.dataset.testid = 'activity-detail';
  if (!row) {
    container.replaceChildren(line('empty', 'Select a tool call to see its output.'));
    return;
  }
  const facts = [
    row.status,
    row.durationMs === null ? '' : formatDuration(row.durationMs),
    row.bytesIn === null ? '' : `${formatBytes(row.bytesIn)} in, ${formatBytes(row.bytesOut ?? 0)} out`,
    row.tokens === null ? '' : `~${row.tokens} tokens added`,
    ...row.badges,
  ].filter(Boolean);
  const parts: HTMLElement[] = [
    line('detail-title', `${row.tool} ${row.title}`),
    line('detail-facts', facts.join(' · ')),
  ];
  if (task) parts.push(line('detail-task', `Task: ${task}`));
  if (row.progress || row.facts) parts.push(line('detail-facts', row.progress || row.facts));

  const output = document.createElement('pre');
  output.className = 'output';
  output.dataset.testid = 'detail-output';
  output.textContent = row.output ?? (row.outputDropped ? '(output not kept: only the newest calls keep theirs)' : row.status === 'running' ? '(running…)' : '');
  parts.push(output);

  if (row.status === 'success' && row.diffs.length > 0) {
    const diff = document.createElement('div');
    diff.dataset.testid = 'detail-diff';
    for (const d of row.diffs) diff.append(line('diff-path', d.path), diffBlock(d.diff));
    const actions = document.createElement('div');
    actions.className = 'actions';
    const open = button('Open Diff', { secondary: true, testId: 'open-diff' });
    open.addEventListener('click', () => post({ type: 'open_diff', runId: row.runId, callId: row.callId }));
    const revert = button('Revert', { secondary: true, testId: 'revert' });
    revert.addEventListener('click', () => post({ type: 'revert', runId: row.runId, callId: row.callId }));
    actions.append(open, revert);
    parts.push(actions, diff);
  }
  container.replaceChildren(...parts);
}
