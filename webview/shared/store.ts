/**
 * The webview's copy of the host's activity store: entries applied in `n` order exactly once, a
 * gap answered by asking the host for a replay, and the derived view model persisted with
 * `vscode.setState` so a reloaded webview redraws at once and asks only for what it missed.
 */
import type { ActivityEntry } from '../protocol';
import { throttle } from './frame';
import { post, vscode } from './vscodeApi';

/** Folds entries into a JSON-serialisable view model. */
export interface Reducer<M> {
  initial(): M;
  /** Applies one entry in place. */
  apply(model: M, entry: ActivityEntry): void;
  /** Whether a restored state is this reducer's model (from this version of the script). */
  accepts(value: unknown): value is M;
}

interface PersistedState<M> {
  version: typeof STATE_VERSION;
  lastN: number;
  model: M;
}

const STATE_VERSION = 1;
/**
 * setState serialises the whole model (megabytes at 10,000 calls), so it runs at most this often
 * while entries stream in; a reload within that window asks for a few entries more.
 */
const PERSIST_EVERY_MS = 1000;

export class ActivityStore<M> {
  /** The highest `n` applied; 0 when none. */
  lastN = 0;
  model: M;
  private awaitingReplay = false;
  private readonly persistSoon = throttle(PERSIST_EVERY_MS, () => this.persist());

  constructor(
    private readonly reducer: Reducer<M>,
    /** Called after a batch changed the model (the view schedules a frame). */
    private readonly changed: () => void,
  ) {
    this.model = reducer.initial();
    const state = vscode.getState() as Partial<PersistedState<unknown>> | undefined | null;
    if (state && state.version === STATE_VERSION && typeof state.lastN === 'number' && reducer.accepts(state.model)) {
      this.lastN = state.lastN;
      this.model = state.model;
    }
  }

  /** Tells the host the script is up and which entries it already holds. */
  ready(): void {
    this.awaitingReplay = true;
    post({ type: 'ready', lastN: this.lastN });
  }

  /** A live `activity` batch. */
  receive(entries: readonly ActivityEntry[]): void {
    this.applyAll(entries);
  }

  /** The answer to `ready`. */
  replay(afterN: number, entries: readonly ActivityEntry[]): void {
    this.awaitingReplay = false;
    // A later start means the host's bounded store no longer has the entries in between (it says
    // so in a notice); asking again would get the same answer forever, so carry on from there.
    if (afterN > this.lastN) this.lastN = afterN;
    this.applyAll(entries);
  }

  /** Starts the model afresh (a new chat, a reopened session); entries already seen stay seen. */
  reset(): void {
    this.model = this.reducer.initial();
    this.persistSoon();
    this.changed();
  }

  private applyAll(entries: readonly ActivityEntry[]): void {
    let applied = false;
    for (const entry of entries) {
      if (!isEntry(entry) || entry.n <= this.lastN) continue;
      if (entry.n !== this.lastN + 1) {
        if (!this.awaitingReplay) this.ready();
        break;
      }
      this.reducer.apply(this.model, entry);
      this.lastN = entry.n;
      applied = true;
    }
    if (!applied) return;
    this.persistSoon();
    this.changed();
  }

  private persist(): void {
    const state: PersistedState<M> = { version: STATE_VERSION, lastN: this.lastN, model: this.model };
    vscode.setState(state);
  }
}

function isEntry(value: unknown): value is ActivityEntry {
  if (typeof value !== 'object' || value === null) return false;
  const { n, event } = value as { n?: unknown; event?: unknown };
  return Number.isInteger(n) && typeof event === 'object' && event !== null && typeof (event as { type?: unknown }).type === 'string';
}
