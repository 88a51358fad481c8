/** Every limit of `grep`, in one place; the description and README quote them. */

/** At most this many patterns per call (OR semantics). */
export const MAX_PATTERNS = 8;
/** At most this many UTF-16 characters per pattern. */
export const MAX_PATTERN_CHARS = 1_000;
/** Primary matching lines shown by default, and the most a call may ask for (more is rejected, not clamped). */
export const DEFAULT_LIMIT = 100;
export const MAX_LIMIT = 1_000;
/** Context lines on either side of a primary line: default and maximum. */
export const DEFAULT_CONTEXT = 0;
export const MAX_CONTEXT = 20;
/** Ranked mode shows at most this many primary lines per file. */
export const RANKED_HITS_PER_FILE = 5;

/** Bytes read from one file: larger files are searched in their first 4 MiB only (whole lines). */
export const FILE_READ_CAP = 4 * 1024 * 1024;
/** Bytes read by one call, all files together. */
export const CALL_READ_CAP = 128 * 1024 * 1024;
/** Files searched by one call (the first ones in path order). */
export const MAX_FILES = 10_000;
/** Wall-clock deadline of one call, walk included; matching workers are terminated when it passes. */
export const DEADLINE_MS = 10_000;
/** Provider-visible output, UTF-8 bytes, notes included. */
export const OUTPUT_CAP = 64 * 1024;
/** A shown line longer than this (UTF-16 units) is clipped to a window around its first match. */
export const MAX_LINE_CHARS = 1_000;
/** Lines listed in metadata arrays such as `prefix_only_paths` and `per_file`. */
export const MAX_LISTED_PATHS = 20;
