/**
 * The chat's view model: the main agent's conversation folded from activity entries. Subagents'
 * own steps are left out (their `subagents` card shows the aggregate summary). The model keeps the
 * newest MAX_ITEMS items, so a session of hundreds of turns keeps a bounded DOM and state.
 */
import type { ActivityEntry, ActivityEvent } from '../protocol';
import type { Reducer } from '../shared/store';
import { endFacts, toolTitle } from '../shared/format';

export const MAX_ITEMS = 200;

export type ToolStatus = 'running' | 'success' | 'error' | 'cancelled';

interface ItemBase {
  /** Stable identity for the view's keyed DOM. */
  id: number;
  /** Bumped on every change, so the view re-renders only what changed. */
  version: number;
}

export type ChatItem = ItemBase &
  (
    | { kind: 'user'; text: string }
    | { kind: 'assistant'; runId: string; turn: number; text: string; streaming: boolean }
    | { kind: 'tool'; runId: string; callId: string; tool: string; title: string; status: ToolStatus; facts: string; progress: string; durationMs: number | null }
    | { kind: 'notice'; level: 'info' | 'error'; text: string }
  );

export interface ChatModel {
  items: ChatItem[];
  /** Items dropped from the front to keep the bound. */
  hidden: number;
  nextId: number;
}

type Body<T extends ChatItem['kind']> = Omit<Extract<ChatItem, { kind: T }>, 'id' | 'version'>;

function add<T extends ChatItem['kind']>(model: ChatModel, body: Body<T>): void {
  model.items.push({ ...body, id: model.nextId++, version: 0 } as unknown as ChatItem);
  if (model.items.length > MAX_ITEMS) {
    model.items.shift();
    model.hidden += 1;
  }
}

function findLast<T extends ChatItem['kind']>(model: ChatModel, kind: T, match: (item: Extract<ChatItem, { kind: T }>) => boolean): Extract<ChatItem, { kind: T }> | undefined {
  for (let i = model.items.length - 1; i >= 0; i--) {
    const item = model.items[i] as ChatItem;
    if (item.kind === kind && match(item as Extract<ChatItem, { kind: T }>)) return item as Extract<ChatItem, { kind: T }>;
  }
  return undefined;
}

function assistant(model: ChatModel, event: ActivityEvent & { turn: number }): Extract<ChatItem, { kind: 'assistant' }> {
  const found = findLast(model, 'assistant', (a) => a.runId === event.runId && a.turn === event.turn && a.streaming);
  if (found) return found;
  add<'assistant'>(model, { kind: 'assistant', runId: event.runId, turn: event.turn, text: '', streaming: true });
  return model.items[model.items.length - 1] as Extract<ChatItem, { kind: 'assistant' }>;
}

const OUTCOME_TEXT = { failed: 'The task failed', cancelled: 'Cancelled', turn_limit: 'Stopped at the turn limit' } as const;

export function applyToChat(model: ChatModel, { event, source }: ActivityEntry): void {
  // Run Task's runs belong to Mission Control; subagents' own steps to their summary card.
  if (event.agent !== 'main' || source === 'task') return;
  switch (event.type) {
    case 'run_start':
      add<'user'>(model, { kind: 'user', text: event.task });
      break;
    case 'message_start':
      assistant(model, event);
      break;
    case 'text_delta': {
      const item = assistant(model, event);
      item.text += event.text;
      item.version++;
      break;
    }
    case 'message_end': {
      const item = assistant(model, event);
      if (event.text) item.text = event.text;
      item.streaming = false;
      item.version++;
      // A turn that only called tools leaves no answer to show.
      if (!item.text.trim()) model.items.splice(model.items.indexOf(item), 1);
      break;
    }
    case 'tool_start':
      add<'tool'>(model, {
        kind: 'tool',
        runId: event.runId,
        callId: event.callId,
        tool: event.tool,
        title: toolTitle(event.tool, event.summary),
        status: 'running',
        facts: '',
        progress: '',
        durationMs: null,
      });
      break;
    case 'tool_update': {
      const card = findLast(model, 'tool', (t) => t.runId === event.runId && t.callId === event.callId);
      if (!card) break;
      card.progress = event.message;
      card.version++;
      break;
    }
    case 'tool_end': {
      const card = findLast(model, 'tool', (t) => t.runId === event.runId && t.callId === event.callId);
      if (!card) break;
      card.status = event.status;
      card.durationMs = event.durationMs;
      card.progress = '';
      // Subagents: the task count stays the title, the aggregate summary's first line follows.
      card.facts = event.tool === 'subagents' ? (event.output.split('\n', 1)[0] ?? '') : endFacts(event.tool, event.metadata);
      card.version++;
      break;
    }
    case 'error':
      add<'notice'>(model, { kind: 'notice', level: 'error', text: event.message });
      break;
    case 'cancelled':
      for (const item of model.items) {
        if (item.kind === 'tool' && item.runId === event.runId && item.status === 'running') {
          item.status = 'cancelled';
          item.version++;
        }
      }
      break;
    case 'run_end':
      for (const item of model.items) {
        if (item.kind === 'assistant' && item.runId === event.runId && item.streaming) {
          item.streaming = false;
          item.version++;
        }
      }
      if (event.outcome !== 'completed') add<'notice'>(model, { kind: 'notice', level: event.outcome === 'cancelled' ? 'info' : 'error', text: event.error ? `${OUTCOME_TEXT[event.outcome]}: ${event.error}` : OUTCOME_TEXT[event.outcome] });
      break;
    case 'retry':
      add<'notice'>(model, { kind: 'notice', level: 'info', text: `Retrying (attempt ${event.attempt}): ${event.reason}` });
      break;
    case 'turn_start':
    case 'reminder':
    case 'usage':
      break;
    default: {
      // A newer host may send event types this script does not know: they are skipped.
      const unknown: never = event;
      void unknown;
    }
  }
}

export const chatReducer: Reducer<ChatModel> = {
  initial: () => ({ items: [], hidden: 0, nextId: 1 }),
  apply: applyToChat,
  accepts: (value): value is ChatModel =>
    typeof value === 'object' && value !== null && Array.isArray((value as ChatModel).items) && typeof (value as ChatModel).nextId === 'number',
};
