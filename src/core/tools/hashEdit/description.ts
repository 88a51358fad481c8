/** What the model reads about `hash_edit`: the whole grammar and every limit it can run into. */
export const HASH_EDIT_DESCRIPTION = `Edit existing UTF-8 text files by line number, anchored to the tag of your latest read. Use it for every change to an existing file; create new files with write. Use read first: hash_edit only accepts tags and line numbers this session has shown you.

INPUT: one or more file sections in the \`input\` string.
A section starts with a header line [PATH#TAG]: PATH as read showed it, TAG the hex tag from the read header [path#TAG] (or from a previous successful hash_edit result). Op lines follow:
  SWAP A.=B:      replace lines A..B (inclusive) with the body. SWAP N: is SWAP N.=N:
  DEL A.=B        delete lines A..B. DEL N deletes one line. No body.
  INS.PRE N:      insert the body before line N
  INS.POST N:     insert the body after line N
  INS.HEAD:       insert the body at the start of the file
  INS.TAIL:       insert the body at the end of the file
  SWAP.BLK N:     replace the block that starts at line N (see BLOCKS)
  DEL.BLK N       delete the block that starts at line N. No body.
  INS.BLK.POST N: insert the body after the last line of the block that starts at line N
  MV DEST         move the file to DEST (must not exist; missing parent folders are created). Only op of its section.
  REM             remove the file (regular files only). Only op of its section.

BODY: ops ending in ':' take the rows directly below them, each written +TEXT; the '+' is stripped and the rest is the line exactly (indentation included). ++x is the line +x, +- item is the line - item, a bare + is an empty line. Every body op needs at least one row; to remove lines use DEL / DEL.BLK, not an empty SWAP. A body ends at the first row not starting with '+'. Blank lines between ops are ignored, but a blank line inside a body ends it, so write + for empty lines. Any other row is an error naming its input line.

LINE NUMBERS are 1-based and all refer to the tagged version of the file: they do not shift within a call, so give every op the numbers you read. In one section, ops must not overlap: replaced/deleted ranges must not share a line; two inserts must not land at the same position (INS.POST 4 and INS.PRE 5 are the same position; INS.HEAD and INS.PRE 1 too) — put those lines in one body; an insert's anchor line must not be replaced by another op. Several sections may edit different files; two sections for one file are an error.

EXAMPLE:
[src/app.ts#3FA9C1]
SWAP 12.=14:
+  const total = items.length;
+  return total;
DEL 20
INS.POST 31:
+// end of handlers
+

TAGS: the tag must be one read (or hash_edit) produced for that file in this session; otherwise the call fails — read the file first. With the newest tag of an unchanged file the edit applies. With an older tag, or when the file changed since, the edit still applies if every line the ops rely on (each replaced/deleted line, the anchor of INS.PRE/INS.POST, every line of a block) reads the same at the same number in the current file; the result then says it recovered from a stale tag. Otherwise it fails as stale: re-read and retry with the new tag. MV and REM need the newest tag of the unchanged file.

VISIBILITY: the lines an op relies on must have been shown to you under that tag (a read of the whole file or of a window containing them). INS.HEAD, INS.TAIL, MV and REM need a valid tag but no particular line. If a line was not shown, read it first (read PATH:40-60).

BLOCKS: for .py .pyi .pyw .yaml .yml .coffee .nim .sass .pug .haml files a block is line N plus every following line that is blank or indented deeper than line N (a tab advances to the next multiple of 8 columns), without trailing blank lines; line N must be followed by a deeper line. YAML list items written at their key's own indentation are not part of its block. For other files a block is bracket-balanced: { [ ( and } ] ) are counted, ignoring those inside "..." '...' \`...\` strings, // and /* */ comments (an unclosed quote on a line is a plain character; in .rs files ' only starts a char literal like 'x', so lifetimes are fine). If line N opens more brackets than it closes, the block ends at the first line after which they are all closed again (so if (x) { ... } else { ... } is one block). If line N is balanced and the next non-blank line starts with an opening bracket (Allman style), the block runs through that bracket's closing line. Otherwise, or when the brackets never close, the op fails: use SWAP/DEL with an explicit range. Regex literals and # comments are not understood.

LINE ENDINGS are preserved: each existing line keeps its LF or CRLF, new lines get the file's most common ending, a BOM is kept, and a file without a final newline still ends without one (also after inserting after its last line). Text inserted into an empty file ends with a newline.

PATHS follow the same rules as read and write: relative paths stay inside the workspace (no .. escape, no symlinked parent), the file itself must not be a symlink, and absolute paths outside the workspace (also as MV destination) need capabilities.tools.hash_edit.absolute_paths (default true). The file must exist and be a regular file.

LIMITS: files up to 1 MiB before and after the edit; at most 32 sections and 2000 ops per call. Every section is validated (paths, tags, visibility, overlaps, blocks, sizes) before any file changes, so a failing call changes nothing.

RESULT: for each edited file a new header [PATH#NEWTAG] (use NEWTAG for the next edit) and the changed lines as LINE:TEXT at their new numbers, with (deleted old lines A-B) for deletions; at most 200 rows per file are shown, then a count of the rest. If the result looks wrong, re-read the file and fix it with a new edit.`;
