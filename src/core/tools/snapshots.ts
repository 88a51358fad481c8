/** What one `read` (or successful `hash_edit`) showed of a file: its tag, its text, the lines seen. */
export interface ReadSnapshot {
  tag: string;
  text: string;
  /** 1-based line numbers the model was shown under this tag. */
  visible: Set<number>;
}

interface PathHistory {
  /** Tags this session created for the path, oldest first; the last is the newest. */
  tags: string[];
  snapshots: Map<string, ReadSnapshot>;
}

/** Snapshots kept per path; older ones are dropped but their tags still count as "created here". */
const SNAPSHOTS_PER_PATH = 8;

/**
 * The session's read snapshots, keyed by canonical path. `hash_edit` accepts a tag only when this
 * session created it for that path, and treats it as current only when it is the newest.
 */
export class SnapshotStore {
  private readonly byPath = new Map<string, PathHistory>();

  /** Records what was shown; the same content read again merges the visible lines and becomes newest. */
  record(canonical: string, tag: string, text: string, visibleLines: Iterable<number>): ReadSnapshot {
    let history = this.byPath.get(canonical);
    if (!history) {
      history = { tags: [], snapshots: new Map() };
      this.byPath.set(canonical, history);
    }
    let snapshot = history.snapshots.get(tag);
    if (!snapshot) {
      snapshot = { tag, text, visible: new Set() };
      history.snapshots.set(tag, snapshot);
    }
    for (const line of visibleLines) snapshot.visible.add(line);
    history.tags = [...history.tags.filter((t) => t !== tag), tag];
    for (const old of history.tags.slice(0, -SNAPSHOTS_PER_PATH)) history.snapshots.delete(old);
    return snapshot;
  }

  newest(canonical: string): ReadSnapshot | undefined {
    const history = this.byPath.get(canonical);
    const tag = history?.tags[history.tags.length - 1];
    return tag === undefined ? undefined : history?.snapshots.get(tag);
  }

  /** Whether this session ever created `tag` for the path (even if its snapshot was since dropped). */
  created(canonical: string, tag: string): boolean {
    return this.byPath.get(canonical)?.tags.includes(tag) ?? false;
  }

  find(canonical: string, tag: string): ReadSnapshot | undefined {
    return this.byPath.get(canonical)?.snapshots.get(tag);
  }

  /** The file is gone (REM): its tags no longer apply. */
  forget(canonical: string): void {
    this.byPath.delete(canonical);
  }
}
