/**
 * The chat side panel: ask (Enter sends, Shift+Enter is a new line), watch the answer stream in as
 * markdown with a card per tool call, cancel, start a new chat, reopen an earlier session.
 */
import './chat.css';
import type { HostMessage, SessionSummary } from '../protocol';
import { FrameScheduler } from '../shared/frame';
import { ActivityStore } from '../shared/store';
import { badge, button, dropdown, progressRing, registerComponents, setDisabled, textArea } from '../shared/toolkit';
import { onHostMessage, post } from '../shared/vscodeApi';
import { chatReducer } from './model';
import { ChatView } from './view';

registerComponents();

const header = document.createElement('header');
const sessions = dropdown([{ value: '', label: 'Earlier sessions…' }], 'chat-sessions');
const newChat = button('New Chat', { icon: 'add', testId: 'chat-new' });
const busy = progressRing();
busy.hidden = true;
header.append(sessions.element, busy, newChat);

const notice = document.createElement('div');
notice.className = 'banner';
notice.hidden = true;

const messages = document.createElement('main');
const view = new ChatView(messages);

const footer = document.createElement('footer');
const input = textArea('Ask Magi… (Enter sends, Shift+Enter for a new line)', 3, 'chat-input');
const send = button('Send', { icon: 'send', testId: 'chat-send' });
const cancel = button('Cancel', { icon: 'debug-stop', testId: 'chat-cancel' });
setDisabled(cancel, true);
footer.append(input.element, send, cancel);
document.body.append(header, notice, messages, footer);

const frame = new FrameScheduler(() => view.render(store.model));
const store = new ActivityStore(chatReducer, () => frame.request());

function submit(): void {
  const text = input.value.trim();
  if (!text) return;
  post({ type: 'send', text });
  input.value = '';
}

input.element.addEventListener('keydown', (event) => {
  if (event.key !== 'Enter' || event.shiftKey || event.isComposing) return;
  event.preventDefault();
  submit();
});
send.addEventListener('click', submit);
cancel.addEventListener('click', () => post({ type: 'cancel' }));
newChat.addEventListener('click', () => post({ type: 'new_chat' }));
sessions.onChange((file) => {
  if (file) post({ type: 'open_session', file });
});

function showSessions(list: readonly SessionSummary[]): void {
  sessions.setChoices([
    { value: '', label: list.length ? 'Earlier sessions…' : 'No earlier sessions' },
    ...list.map((s) => ({ value: s.file, label: `${new Date(s.createdAt).toLocaleString()} · ${s.title}` })),
  ]);
}

function handle(message: HostMessage): void {
  switch (message.type) {
    case 'activity':
      store.receive(message.entries);
      break;
    case 'replay':
      store.replay(message.afterN, message.entries);
      break;
    case 'chat_state':
      busy.hidden = !message.running;
      setDisabled(cancel, !message.running);
      setDisabled(send, message.running);
      showSessions(message.sessions);
      break;
    case 'chat_reset':
      view.clear();
      store.reset();
      break;
    case 'notice':
      notice.className = `banner ${message.level}`;
      notice.replaceChildren(badge(message.level), document.createTextNode(` ${message.message}`));
      notice.hidden = false;
      break;
    default: {
      const unknown: never = message;
      void unknown;
    }
  }
}

onHostMessage(handle);
view.render(store.model);
store.ready();
