/** What one `read` (or successful `hash_edit`) showed of a file: its tag, its text, the lines seen. */
export interface ReadSnapshot {
  tag: string;
  text: string;
  /** 1-based line numbers the model was shown under this tag. */
  visible: Set<number>;
  /** For content a `hash_edit` wrote: the tag it edited from, and where each of that version's lines went. */
  parent?: Lineage;
}

/** `map[k]` is the line of this version that line k of the parent became, 0 when it was replaced. */
export interface Lineage {
  tag: string;
  map: Int32Array;
}

interface PathHistory {
  /** Tags this session created for the path, oldest first; the last is the newest. */
  tags: string[];
  snapshots: Map<string, ReadSnapshot>;
  /** Keys of sections `hash_edit` refused as suspicious, newest last. */
  warnings: string[];
  /** When a snapshot of the path was last recorded, in the store's own count of records. */
  recorded: number;
}

/** Snapshots kept per path; older ones are dropped but their tags still count as "created here". */
const SNAPSHOTS_PER_PATH = 8;
/** Suspicious sections remembered per path, so the same section sent again is taken as meant. */
const WARNINGS_PER_PATH = 16;

/**
 * The session's read snapshots, keyed by canonical path. `hash_edit` accepts a tag only when this
 * session created it for that path, and treats it as current only when it is the newest.
 */
export class SnapshotStore {
  private readonly byPath = new Map<string, PathHistory>();
  private records = 0;

  /**
   * Records what was shown; the same content read again merges the visible lines and becomes newest.
   * `parent` (from `hash_edit`) lets an older tag be mapped onto this content exactly, without a diff.
   */
  record(canonical: string, tag: string, text: string, visibleLines: Iterable<number>, parent?: Lineage): ReadSnapshot {
    let history = this.byPath.get(canonical);
    if (!history) {
      history = { tags: [], snapshots: new Map(), warnings: [], recorded: 0 };
      this.byPath.set(canonical, history);
    }
    let snapshot = history.snapshots.get(tag);
    if (!snapshot) {
      snapshot = { tag, text, visible: new Set() };
      history.snapshots.set(tag, snapshot);
    }
    history.recorded = ++this.records;
    if (parent && parent.tag !== tag) snapshot.parent = parent;
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

  /**
   * The `hash_edit` steps from `tag` to the newest snapshot, oldest first, or undefined when the
   * newest content was not reached from `tag` by edits of this session (a read of outside changes).
   */
  lineageTo(canonical: string, tag: string): Int32Array[] | undefined {
    const steps: Int32Array[] = [];
    let node = this.newest(canonical);
    for (let hops = 0; node && hops <= SNAPSHOTS_PER_PATH; hops++) {
      if (node.tag === tag) return steps.reverse();
      if (!node.parent) return undefined;
      steps.push(node.parent.map);
      node = this.find(canonical, node.parent.tag);
    }
    return undefined;
  }

  /** Remembers that `hash_edit` refused this section (`key`) as suspicious. */
  warn(canonical: string, key: string): void {
    const history = this.byPath.get(canonical);
    if (!history) return;
    history.warnings = [...history.warnings.filter((k) => k !== key), key].slice(-WARNINGS_PER_PATH);
  }

  /** Whether this exact section was refused as suspicious before: sending it again confirms it. */
  wasWarned(canonical: string, key: string): boolean {
    return this.byPath.get(canonical)?.warnings.includes(key) ?? false;
  }

  /** The paths this session created `tag` for, most recently read first (a header that names the wrong file). */
  pathsWithTag(tag: string): string[] {
    return [...this.byPath]
      .filter(([, history]) => history.tags.includes(tag))
      .sort(([, a], [, b]) => b.recorded - a.recorded)
      .map(([canonical]) => canonical);
  }

  /** The file is gone (REM): its tags no longer apply. */
  forget(canonical: string): void {
    this.byPath.delete(canonical);
  }
}
