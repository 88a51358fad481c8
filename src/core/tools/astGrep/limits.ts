/** Every limit of `ast_grep` (search and outline), in one place; the description and README quote them. */

/** UTF-8 bytes of `pattern` and of `rewrite`. */
export const MAX_PATTERN_BYTES = 4 * 1024;
/** A file larger than this (bytes) is skipped whole, never searched in part. */
export const MAX_FILE_BYTES = 256 * 1024;
/** Files visited by one call. */
export const MAX_FILES = 10_000;
/** Bytes read by one call, all files together. */
export const CALL_READ_CAP = 128 * 1024 * 1024;
/** Syntax nodes of one file's tree, and its depth. */
export const MAX_TREE_NODES = 16_384;
export const MAX_TREE_DEPTH = 64;
/** Nodes of a compiled pattern. */
export const MAX_PATTERN_NODES = 256;
/** Estimated bytes of one replacement before it is expanded. */
export const MAX_REPLACEMENT_BYTES = 1024 * 1024;
/** Returned lines (search) or top-level entries (outline): default and maximum. */
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 500;
/** Provider-visible output, UTF-8 bytes. */
export const OUTPUT_CAP = 64 * 1024;
/** Cooperative deadline of one call, walk included. */
export const DEADLINE_MS = 30_000;
/** UTF-8 bytes of the outline's `name` and `symbol_type` filters. */
export const MAX_FILTER_BYTES = 512;
