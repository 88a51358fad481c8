/**
 * Mission Control: every tool call of the running and earlier tasks as it starts, runs and ends,
 * in a virtualized list with filters by tool and status, and the Selected Activity Detail.
 */
import './missionControl.css';
import type { HostMessage } from '../protocol';
import { FrameScheduler } from '../shared/frame';
import { ActivityStore } from '../shared/store';
import { badge, dropdown, registerComponents } from '../shared/toolkit';
import { drawDetail } from './detail';
import { VirtualList } from './list';
import { onHostMessage } from '../shared/vscodeApi';
import { CALL_STATUSES, missionReducer, type CallRow } from './model';

registerComponents();

const header = document.createElement('header');
const toolFilter = dropdown([{ value: '', label: 'All tools' }], 'filter-tool');
const statusFilter = dropdown(
  [{ value: '', label: 'All statuses' }, ...CALL_STATUSES.map((s) => ({ value: s, label: s }))],
  'filter-status',
);
const total = badge('0', 'tool calls');
const running = badge('0', 'running');
header.append(toolFilter.element, statusFilter.element, total, running);

const listElement = document.createElement('div');
listElement.className = 'list';
const detailElement = document.createElement('section');
detailElement.className = 'detail';
document.body.append(header, listElement, detailElement);

let selected: CallRow | undefined;
let selectedKey: string | undefined;
const list = new VirtualList(listElement, (row) => {
  selected = row;
  selectedKey = `${row.runId} ${row.callId}`;
  frame.request();
});

function render(): void {
  const model = store.model;
  toolFilter.setChoices([{ value: '', label: 'All tools' }, ...model.tools.map((t) => ({ value: t, label: t }))]);
  const tool = toolFilter.value;
  const status = statusFilter.value;
  const shown = tool || status ? model.rows.filter((r) => (!tool || r.tool === tool) && (!status || r.status === status)) : model.rows;
  // Rows are replaced by the restored state after a reset; find the selection again by its key.
  const at = selectedKey === undefined ? undefined : model.index[selectedKey];
  selected = at === undefined ? undefined : model.rows[at];
  list.show(shown, selected);
  total.textContent = String(model.rows.length);
  running.textContent = String(model.rows.reduce((count, r) => count + (r.status === 'running' ? 1 : 0), 0));
  drawDetail(detailElement, selected, selected && model.tasks[selected.runId]);
}

const frame = new FrameScheduler(render);
const store = new ActivityStore(missionReducer, () => frame.request());
toolFilter.onChange(() => frame.request());
statusFilter.onChange(() => frame.request());

function handle(message: HostMessage): void {
  switch (message.type) {
    case 'activity':
      store.receive(message.entries);
      break;
    case 'replay':
      store.replay(message.afterN, message.entries);
      break;
    case 'chat_state':
    case 'chat_reset':
    case 'notice':
      // The chat's business: Mission Control lists every task's calls, whichever chat ran them.
      break;
    default: {
      const unknown: never = message;
      void unknown;
    }
  }
}

onHostMessage(handle);
render();
store.ready();
