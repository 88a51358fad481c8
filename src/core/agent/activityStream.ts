import { randomUUID } from 'node:crypto';
import type { ActivityBody, ActivityEvent, ActivityListener } from '../activity';

/**
 * Numbers and timestamps the events of one run and hands them to its listeners. A subagent's
 * events go through the same stream under their own `agent` name, so `seq` stays gapless for the
 * whole run. A listener that throws is removed and reported once through the remaining ones as an
 * `error` event, so a broken consumer cannot stop the agent.
 */
export class ActivityStream {
  private seq = 0;
  private readonly listeners = new Set<ActivityListener>();

  constructor(readonly runId: string = randomUUID()) {}

  subscribe(listener: ActivityListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Emits on behalf of `agent`; returns the numbered event. */
  emit(agent: string, body: ActivityBody): ActivityEvent {
    const event = { runId: this.runId, seq: ++this.seq, at: Date.now(), agent, ...body } as ActivityEvent;
    for (const listener of [...this.listeners]) {
      try {
        listener(event);
      } catch (err) {
        this.listeners.delete(listener);
        this.emit(agent, { type: 'error', turn: null, kind: 'listener', message: `an activity listener failed and was removed: ${err instanceof Error ? err.message : String(err)}` });
      }
    }
    return event;
  }

  /** A function that emits as one agent. */
  forAgent(agent: string): (body: ActivityBody) => ActivityEvent {
    return (body) => this.emit(agent, body);
  }
}
