/** What the model reads about `find`; states every limit. */
export const FIND_DESCRIPTION = `Find files or folders by fuzzy path match, ranked as an editor's quick-open ranks them. Never reads file contents: use grep to search contents, then read the paths you found.

Arguments: {"query": "lib", "kind": "mixed", "path": "src", "limit": 20, "offset": 0}
- query (required, 1 to 512 characters after trimming): part of a name or path, letters in order, case-insensitive. Space-separated words must all match, in any order. A word containing / is matched against the whole path ("tools/read").
- kind: files (default), directories, or mixed; directories end with / in the output.
- path: an existing folder to search in (default: the workspace root); relative paths stay inside the root.
- limit: default 50, at most 200 (larger values are capped to 200); offset: skip that many ranked results, to page.
Ranking: the exact name first, then the name without its extension, name prefix, name substring, scattered letters in the name, and last matches in the folder part only; shorter paths win ties.
Output: one path per line, relative to the workspace root (absolute for a folder outside it). Hidden and .git entries are never listed, ignored ones (.gitignore, .ignore) only when git tracks them.
Each call scans at most 100,000 entries for at most 10 seconds. A partial scan (scan_complete false) ranks only the entries it saw and total_matched is then a lower bound: narrow path. On a complete scan, has_more says whether offset+limit reaches further.`;
