import { MAX_TREE_DEPTH, MAX_TREE_NODES } from '../astGrep/limits';
import * as L from './limits';

const n = (value: number): string => value.toLocaleString('en-US');

/** What the model reads about `repo_map`; states every limit and how ranking and tokens work. */
export const REPO_MAP_DESCRIPTION = `Return a compact, ranked structural map of the Rust, Python, TypeScript, TSX and Go symbols of the workspace (or of one folder or file), to see where things are before reading code. Read-only: mutates nothing, runs in process (embedded parsers, no CLI).

Arguments: {"path": "src", "query": "session replay", "maxTokens": 4096} — all optional; null means omitted.
- path: folder or file to map (default the workspace root), under the same path rules as read.
- query: up to ${L.MAX_QUERY_CHARS} characters of words; files and symbols whose path or name contains a query word (case-insensitive, camelCase and snake_case split) rank higher.
- maxTokens: ${n(L.MIN_TOKENS)} to ${n(L.MAX_TOKENS)} (default ${n(L.DEFAULT_TOKENS)}). Tokens are estimated as ceil(UTF-8 bytes / 4) of the whole output; the map never exceeds the budget.

Output: a header line with counts, then files best first, each as "path:" followed by its symbols as "  LINE: signature" rows (1-based lines; members of a type indented under it when the budget allows), then notes. Ranking is approximate. A reference is an identifier token of a file (comments and strings included) naming an exported symbol another file of the same language family defines — from another folder only where the file also names the defining module, as an import does. A file's rank is PageRank over those references, leaning towards files that match the query or were recently touched; a symbol scores ln(1 + distinct other files naming it) + ln(1 + its file's rank), ×${L.QUERY_SYMBOL_BOOST} when its name matches the query, ×${L.QUERY_FILE_BOOST} when its file's path does, ×${L.RECENT_BOOST} when its file is recently touched (among the ${L.RECENT_FILES} newest files, modified in the last 7 days and newer than most of the repository), halved when not exported. Files are ordered by their best symbol. Symbols are taken best first until the next row would pass the budget (then truncated is true).
Skipped: ignored files (.gitignore, .ignore), hidden folders, folders named ${[...L.SKIPPED_DIRS].join(', ')} below the requested path, declaration and generated files (*.d.ts, *.min.js, *_pb2.py, *.pb.go, *_gen.go, *.gen.ts, *.generated.ts, zz_generated*, or "Code generated … DO NOT EDIT" / "@generated" near the top).
Limits: ${n(L.MAX_FILES)} files parsed (when there are more: those whose path matches the query first, then the shallowest), ${L.MAX_FILE_BYTES / 1024} KiB per file, ${L.MAX_TOTAL_BYTES / (1024 * 1024)} MiB read per call, syntax trees of ${n(MAX_TREE_NODES)} nodes and depth ${MAX_TREE_DEPTH}, ${n(L.MAX_SYMBOLS)} symbols, ${n(L.MAX_REFERENCE_TOKENS)} identifier tokens scanned for references, ${L.DEADLINE_MS / 1000} seconds (cooperative; a later result is partial). Check truncated, partial, files_skipped and skip_reasons.`;
