/** What the model reads about `read`; states every limit. */
export const READ_DESCRIPTION = `Read 1 to 8 known local UTF-8 text files or skill:// targets. Output is hashline text: a header [path#TAG] then one LINE:TEXT row per line (1-based). Use the TAG and the line numbers you were shown to edit with hash_edit.

Arguments: {"paths": ["src/app.ts", "README.md:1-200"]}
Selectors, per path: :N (400 lines from line N), :N-M (lines N to M), :-M (lines 1 to M), :N+ (line N to the end), :N+K (K lines from line N), :raw (plain text without line numbers; not editable by tag), compounds like :raw:50-100.
Limits: without a selector the first 400 lines are shown; at most 2,000 lines per file; each file at most 1 MiB; the whole output at most 1 MiB. A start line past the end of the file is an error. When output is cut, a [... ] note says which selector reads the rest.
Several paths give --- FILE: <path> --- sections; a file that fails gives an ERROR: section and the others still show.
Skills: skill://<name> reads a discovered skill's SKILL.md and skill://<name>/<relative/path> one of its reference files (only skills listed in the system prompt; no .., no absolute paths, no symlinks or folders; 1 MiB, UTF-8). Their sections look like file sections and take the same selectors, but skill files cannot be edited with hash_edit.
read does not search, expand globs or list folders: use find to discover paths and grep to search contents. URLs are not files: use web with operation "open". Other schemes are unsupported.`;
