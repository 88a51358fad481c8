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

BODY: ops ending in ':' take the rows directly below them, each written +TEXT; the '+' is stripped and the rest is the line exactly (indentation included). ++x is the line +x, +- item is the line - item, a bare + is an empty line. Every body op needs at least one row; to remove lines use DEL / DEL.BLK, not an empty SWAP. A body ends at the first row not starting with '+'. Blank lines between ops are ignored, but a blank line inside a body ends it, so write + for empty lines. Any other row is an error naming its input line. Write the text only, never the LINE: prefix of read's rows: when every row of a body starts with a line number and ':' near the op's lines (+2:B under SWAP 2), the call is refused as a copied prefix.

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

TAGS: the tag must be one read (or hash_edit) produced for that file in this session; otherwise the call fails — read the file first. With the newest tag of an unchanged file the edit applies. With an older tag, or when the file changed since, the lines of the tagged version are found in the current file: exactly through this session's own edits, and by a line diff for changes made elsewhere. The edit applies there when every line the ops rely on (each replaced/deleted line, the anchor of INS.PRE/INS.POST, every line of a block) is unchanged, found at one certain place, and still next to its neighbours within a range (no lines added inside it); the result then says it recovered from a stale tag and shows current line numbers. A line that repeats nearby (a blank line, }) after lines were added or removed around it has no certain place. Otherwise it fails as stale, naming the line and the range to re-read (read PATH:A-B); retry with the tag and numbers of that read. MV and REM need the newest tag of the unchanged file.

CHECKS: a SWAP whose body rows, one by one, have almost nothing in common with the lines they replace but nearly match as many lines 1-5 rows away is refused as a probable miscount, naming that range (did you mean SWAP A.=B?). A copied LINE: prefix is refused too. Both refusals are made once: if the call was right, send the very same section again (same tag, ops and body) and it applies as written.

VISIBILITY: the lines an op relies on must have been shown to you under that tag (a read of the whole file or of a window containing them). INS.HEAD, INS.TAIL, MV and REM need a valid tag but no particular line. If a line was not shown, read it first (read PATH:40-60).

BLOCKS: a block is a whole statement, so an if/else, try/catch/finally or do/while is one block. For .py .pyi .pyw .yaml .yml .coffee .nim .sass .pug .haml files a block is line N plus every following line that is blank or indented deeper than line N (a tab advances to the next multiple of 8 columns), without trailing blank lines; line N must be followed by a deeper line. YAML list items written at their key's own indentation are not part of its block. In .py .pyi .pyw files a later line at line N's own indentation that starts with elif, else, except or finally (then ':', a space or '(') joins the block with its deeper lines, again and again (if/elif/else, try/except/else/finally, for/else, while/else); other indented files have no such clauses. For other files a block is bracket-balanced: { [ ( and } ] ) are counted, ignoring those inside "..." '...' \`...\` strings, // and /* */ comments (an unclosed quote on a line is a plain character; in .rs files ' only starts a char literal like 'x', so lifetimes are fine). If line N opens more brackets than it closes, they close at the first line after which they are all closed again (so in if (x) { ... } else { ... } at the last }). If line N is balanced and the next non-blank line starts with an opening bracket (Allman style), they close at that bracket's closing line. Otherwise, or when the brackets never close, the op fails: use SWAP/DEL with an explicit range. When that last bracket is a }, the block then takes in what continues the statement: the code after it on its line, or else the next line with code, starting with else, catch or finally (after a block whose line N starts with do: while, or Swift's catch). A braced clause (its { may be on the next line) runs through its closing bracket, and the check repeats (else if chains, try/catch/finally); else if (...) takes its body, braced or not, and then its own else; an unbraced else statement runs through the first line that ends with ; outside brackets, following a nested if/else, for, while, switch, try or do { } while inside it; a do-block's while (...) ends at its ) or the ; after it. An else after an if/else that is already complete belongs to an outer if and stays out. If a clause's end cannot be found (the file ends, an enclosing bracket closes, or a line no deeper than the clause's line comes before the ;, as in code without semicolons) the op fails naming the clause's line: use SWAP/DEL with an explicit range. Regex literals and # comments are not understood.

LINE ENDINGS are preserved: each existing line keeps its LF or CRLF, new lines get the file's most common ending, a BOM is kept, and a file without a final newline still ends without one (also after inserting after its last line) — except when the last line is then an empty body row: it is kept as an empty line, so the file ends with a newline, and the result says so. Text inserted into an empty file ends with a newline.

PATHS follow the same rules as read and write (a path that does not exist: use find to locate the file): relative paths stay inside the workspace (no .. escape, no symlinked parent), the file itself must not be a symlink, and absolute paths outside the workspace (also as MV destination) need capabilities.tools.hash_edit.absolute_paths (default true). The file must exist and be a regular file.

LIMITS: files up to 1 MiB before and after the edit; at most 32 sections and 2000 ops per call. Every section is validated (paths, tags, visibility, overlaps, blocks, sizes) before any file changes, so a failing call changes nothing.

RESULT: for each edited file a new header [PATH#NEWTAG] (use NEWTAG for the next edit) and the changed lines as LINE:TEXT at their new numbers, with (deleted old lines A-B) for deletions; at most 200 rows per file are shown, then a count of the rest. If the result looks wrong, re-read the file and fix it with a new edit.`;
