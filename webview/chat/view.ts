/**
 * Draws the chat model into a keyed list: each item's element is rebuilt only when its version
 * changed, and at most once per animation frame (the caller schedules `render`), so a stream of
 * text deltas costs one markdown render per frame, not one per delta.
 */
import { renderMarkdown } from '../shared/markdown';
import { formatDuration } from '../shared/format';
import type { ChatItem, ChatModel, ToolStatus } from './model';
import { StreamingMarkdown } from './streamingMarkdown';

const STATUS_ICON: Record<ToolStatus, string> = {
  running: 'loading codicon-modifier-spin',
  success: 'check',
  error: 'error',
  cancelled: 'circle-slash',
};

function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text?: string): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  element.className = className;
  if (text !== undefined) element.textContent = text;
  return element;
}

function assistantShell(streaming: boolean): HTMLElement {
  const element = el('div', streaming ? 'message assistant streaming' : 'message assistant');
  element.dataset.testid = 'assistant-message';
  return element;
}

function draw(item: ChatItem): HTMLElement {
  switch (item.kind) {
    case 'user': {
      const element = el('div', 'message user', item.text);
      element.dataset.testid = 'user-message';
      return element;
    }
    case 'assistant': {
      const element = assistantShell(item.streaming);
      // renderMarkdown escapes raw HTML and drops unsafe links: its output is safe to parse.
      element.innerHTML = renderMarkdown(item.text);
      return element;
    }
    case 'tool': {
      const card = el('div', `tool-card ${item.status}`);
      card.dataset.testid = 'tool-card';
      card.dataset.tool = item.tool;
      card.dataset.status = item.status;
      const head = el('div', 'tool-head');
      head.append(el('span', `codicon codicon-${STATUS_ICON[item.status]}`), el('span', 'tool-name', item.tool), el('span', 'tool-title', item.title));
      if (item.durationMs !== null) head.append(el('span', 'tool-duration', formatDuration(item.durationMs)));
      card.append(head);
      const facts = item.progress || item.facts;
      if (facts) card.append(el('div', 'tool-facts', facts));
      return card;
    }
    case 'notice':
      return el('div', `notice ${item.level}`, item.text);
    default: {
      const unknown: never = item;
      throw new Error(`unknown chat item ${JSON.stringify(unknown)}`);
    }
  }
}

export class ChatView {
  private readonly drawn = new Map<number, { element: HTMLElement; version: number; stream?: StreamingMarkdown }>();
  private readonly earlier = el('div', 'earlier');

  constructor(private readonly container: HTMLElement) {
    container.dataset.testid = 'chat-messages';
  }

  render(model: ChatModel): void {
    const stick = this.container.scrollHeight - this.container.scrollTop - this.container.clientHeight < 40;
    this.earlier.textContent = model.hidden ? `${model.hidden} earlier item${model.hidden === 1 ? '' : 's'} not shown` : '';
    if (model.hidden && !this.earlier.isConnected) this.container.prepend(this.earlier);
    if (!model.hidden) this.earlier.remove();

    const live = new Set<number>();
    let previous: HTMLElement | null = model.hidden ? this.earlier : null;
    for (const item of model.items) {
      live.add(item.id);
      const known = this.drawn.get(item.id);
      let element: HTMLElement;
      if (known && known.version === item.version) element = known.element;
      else if (item.kind === 'assistant' && item.streaming) {
        // A streaming answer grows in place: only its unsettled tail is rendered again.
        const stream = known?.stream ?? new StreamingMarkdown(assistantShell(true));
        stream.update(item.text);
        element = stream.element;
        if (known && known.element !== element) known.element.replaceWith(element);
        this.drawn.set(item.id, { element, version: item.version, stream });
      } else {
        element = draw(item);
        known?.element.replaceWith(element);
        this.drawn.set(item.id, { element, version: item.version });
      }
      if (element.previousElementSibling !== previous || !element.isConnected) {
        if (previous) previous.after(element);
        else this.container.prepend(element);
      }
      previous = element;
    }
    for (const [id, { element }] of this.drawn) {
      if (live.has(id)) continue;
      element.remove();
      this.drawn.delete(id);
    }
    if (stick) this.container.scrollTop = this.container.scrollHeight;
  }

  clear(): void {
    this.container.replaceChildren();
    this.drawn.clear();
  }
}
