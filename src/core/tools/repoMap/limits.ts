/** Every limit and ranking constant of `repo_map`, in one place; the description quotes them. */

/** The token budget of the map: minimum, default and maximum. */
export const MIN_TOKENS = 512;
export const DEFAULT_TOKENS = 4096;
export const MAX_TOKENS = 20_000;
/** Characters of `query`. */
export const MAX_QUERY_CHARS = 512;

/** Files read and parsed by one call (the first ones in path order after skipping). */
export const MAX_FILES = 2000;
/** A larger file (bytes) is skipped whole. */
export const MAX_FILE_BYTES = 256 * 1024;
/** Bytes read by one call, all files together. */
export const MAX_TOTAL_BYTES = 32 * 1024 * 1024;
/** Symbols (top-level and members) kept from all files; later files are skipped once reached. */
export const MAX_SYMBOLS = 50_000;
/** Identifier tokens scanned for references, all files together; the rest are not scanned. */
export const MAX_REFERENCE_TOKENS = 2_000_000;
/** Cooperative deadline of one call, walk included; a call past it returns a partial map. */
export const DEADLINE_MS = 30_000;

/** Characters of one rendered signature; longer ones end in "…". */
export const MAX_SIGNATURE_CHARS = 160;

/** Folder names never mapped below the requested folder: dependencies, build output, generated code. */
export const SKIPPED_DIRS: ReadonlySet<string> = new Set([
  'node_modules', 'bower_components', 'jspm_packages', 'vendor', 'third_party', 'third-party', 'thirdparty',
  'dist', 'build', 'out', 'target', 'coverage', 'site-packages', 'venv', '__pycache__',
  'generated', 'gen', '__generated__', '_generated',
]);

/** File names that are generated or declarations of other code (TypeScript's .d.ts). */
export const SKIPPED_FILE = /(\.d\.[cm]?ts|\.min\.[cm]?[jt]s|_pb2(_grpc)?\.pyi?|\.pb(\.gw)?\.go|_gen\.go|\.gen\.tsx?|\.generated\.tsx?|_generated\.(go|rs|py))$|^zz_generated/;

/** A generated-file marker (Go's "Code generated … DO NOT EDIT.", "@generated") in the first bytes. */
export const GENERATED_MARKER = /Code generated .*DO NOT EDIT|@generated\b/;
export const GENERATED_MARKER_SCAN = 1024;

/** PageRank over the file reference graph. */
export const PAGERANK_DAMPING = 0.85;
export const PAGERANK_ITERATIONS = 20;

/** Recently touched: at most this many newest files, modified within RECENT_WINDOW_MS of now. */
export const RECENT_FILES = 16;
export const RECENT_WINDOW_MS = 7 * 24 * 60 * 60 * 1000;

/** Multipliers (and teleport weights) for a file or symbol matching `query`, and for a recent file. */
export const QUERY_FILE_BOOST = 4;
export const QUERY_SYMBOL_BOOST = 8;
export const RECENT_BOOST = 2;
