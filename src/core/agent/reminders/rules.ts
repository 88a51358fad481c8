/**
 * Token-triggered reminder rules and the built-in set. A rule is advisory: on a match the loop aborts
 * the stream, injects the reminder and retries the turn; the rule then stays quiet for the rest of
 * the turn, so a model that still means it (because the user asked for exactly this) can proceed.
 *
 * The built-ins inspect tool-call arguments only, never prose: a model explaining why `rm -rf /` is
 * dangerous must not lose a retry, and every tool call is checked before it executes. They are written
 * for the decoded command text and stay inside one shell command segment (`[^;&|\n]`) of at most
 * 1,000 characters, which keeps their backtracking linear in the input rather than quadratic.
 * Decisions the tests pin:
 * - `rm -rf` fires on `/`, `~`, `$HOME`, `.`, `..`, `*` and system directories, not on paths such as
 *   `node_modules` or `/tmp/x`.
 * - `git push --force`/`-f`/`+ref`/`--mirror` fire for any branch (they overwrite remote history
 *   unconditionally); `--force-with-lease` fires only when the refspec names main or master, because
 *   on a feature branch it is the safe way to publish a rebase (a bare `git push --force-with-lease`
 *   names no branch and stays quiet).
 * - Absolute paths fire only for system directories (`/etc`, `/usr`, …), not for every path outside
 *   the workspace, which the core cannot know from a regex.
 */

export type ReminderScope = 'text' | 'tool_arguments' | 'both';

export interface ReminderRule {
  /** Unique; recorded in `ttsr_injection` events and `reminder` activity. */
  name: string;
  /** The rule matches when any pattern matches. Never `g`/`y`: `test` must be stateless. */
  patterns: readonly RegExp[];
  /** The system reminder injected on a match. */
  reminder: string;
  scope: ReminderScope;
  builtin: boolean;
}

/** Hosts whose credentials are expected to go to them, plus the loopback addresses. */
const OFFICIAL_HOSTS = String.raw`(?:[\w-]+\.)*(?:openai\.com|anthropic\.com|googleapis\.com|github\.com|githubusercontent\.com|exa\.ai)`;
const LOOPBACK = String.raw`(?:localhost|127\.0\.0\.1|\[::1\])`;
/** `https://` followed by a host that is neither official nor loopback. */
const FOREIGN_URL = String.raw`https?://(?!(?:${OFFICIAL_HOSTS}|${LOOPBACK})(?::\d+)?(?:[/"'\s?#]|$))[\w-]`;
/** End of a shell word. */
const WORD_END = String.raw`(?=$|[\s;&|)"'])`;
const SYSTEM_DIRS = String.raw`(?:etc|usr|bin|sbin|boot|var|lib|lib64|opt|root|sys|proc|srv)`;
/** Files whose contents are credentials; public keys (`.pub`) and `.env.example`-style templates are not. */
const SECRET_FILES = String.raw`(?:id_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub)|/etc/shadow|\.aws/credentials|\.netrc\b|\.git-credentials|\.pypirc|\.docker/config\.json|\.kube/config|\.env\b(?!\.(?:example|sample|template|dist)))`;
/**
 * Commands that send bytes to another host. scp/rsync/ssh are left out: they name key files to
 * authenticate (`-i ~/.ssh/id_rsa`) and exclude secrets (`--exclude .env`) far more often than they leak.
 */
const SENDERS = String.raw`(?:curl|wget|nc|ncat|netcat|socat)`;
/** `$GITHUB_TOKEN`, `${OPENAI_API_KEY}`, `$AWS_SECRET_ACCESS_KEY`; not `$MAX_TOKENS` nor `${#VAR}` (a length). */
const SECRET_VAR = String.raw`\$\{?[A-Za-z0-9_]*(?:API_?KEY|TOKEN|SECRET|PASSWORD|PASSWD)(?![A-Za-z0-9])`;
/** curl/wget options whose value is the request body. */
const DATA_OPTION = String.raw`(?:-d|--data(?:-\w+)?|-F|--form|--json|--post-data|--body-data)`;

function rx(source: string, flags = ''): RegExp {
  return new RegExp(source, flags);
}

export const BUILTIN_RULES: readonly ReminderRule[] = [
  {
    name: 'destructive-command',
    builtin: true,
    scope: 'tool_arguments',
    reminder:
      'This command can destroy data beyond what the task needs: a recursive delete of /, ~, the whole workspace or a system directory, formatting a disk, writing to a raw device, discarding uncommitted work (git reset --hard, git clean -f), or dropping a database. Do not run it unless the user explicitly asked for exactly this. Otherwise use a narrow target inside the workspace and say first what it will remove.',
    patterns: [
      rx(String.raw`\brm\s(?=(?:[^;&|\n]{0,1000}\s)?(?:-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)(?:\s|$))(?:[^\s;&|]+\s+)*?["']?(?:/\*?|~/?\*?|\$\{?HOME\}?/?\*?|\.\.?/?\*?|\*|/${SYSTEM_DIRS}/?\*?|/home/?\*?)["']?${WORD_END}`),
      rx(String.raw`\bmkfs(?:\.\w+)?\s`),
      rx(String.raw`\bdd\s[^;&|\n]{0,1000}\bof=/dev/(?!null\b|zero\b|stdout\b|stderr\b)`),
      rx(String.raw`>\s*/dev/(?:sd[a-z]|nvme\d|hd[a-z]|xvd[a-z]|vd[a-z]|disk\d|mmcblk\d)`),
      rx(String.raw`\bgit\s(?:[^;&|\n]{0,1000}\s)?reset\s(?:[^;&|\n]{0,1000}\s)?--hard\b`),
      rx(String.raw`\bgit\s(?:[^;&|\n]{0,1000}\s)?clean\s(?:[^;&|\n]{0,1000}\s)?(?:-[a-zA-Z]*f[a-zA-Z]*|--force)${WORD_END}`),
      rx(String.raw`\bch(?:mod|own)\s(?=(?:[^;&|\n]{0,1000}\s)?(?:-[a-zA-Z]*R[a-zA-Z]*|--recursive)(?:\s|$))[^;&|\n]{0,1000}\s["']?(?:/|~|\$\{?HOME\}?)/?["']?${WORD_END}`),
      rx(String.raw`\bdrop\s+(?:database|schema)\b|\bdropdb\s`, 'i'),
    ],
  },
  {
    name: 'secret-exfiltration',
    builtin: true,
    scope: 'tool_arguments',
    reminder:
      'This command would send or print secrets: environment variables, SSH keys, .env files, cloud credentials or password files. Their contents would leave this machine or land in the transcript and session file. Do not do this. If the task needs a credential, check that it is set (for example `test -n "$VAR"`) without printing it.',
    patterns: [
      rx(String.raw`\b${SENDERS}\b[^;&|\n]{0,1000}${SECRET_FILES}`),
      rx(String.raw`${SECRET_FILES}[^;&\n]{0,1000}\|\s*${SENDERS}\b`),
      rx(String.raw`\b(?:env|printenv)\s*\|[^;&\n]{0,1000}\b${SENDERS}\b`),
      rx(String.raw`\b${SENDERS}\b[^;&|\n]{0,1000}\$\((?:env|printenv)\b`),
      rx(String.raw`\b(?:curl|wget)\s(?:[^;&|\n]{0,1000}\s)?${DATA_OPTION}(?:=|\s+)(?:"[^"\n]*|'[^'\n]*|[^\s;&|]*)${SECRET_VAR}`),
      rx(String.raw`\b(?:echo|printf)\s[^;&|\n]{0,1000}${SECRET_VAR}`),
      rx(String.raw`\bprintenv\s+[A-Za-z0-9_]*(?:API_?KEY|TOKEN|SECRET|PASSWORD)`),
      rx(String.raw`\b(?:env|printenv)\s*\|\s*grep\s[^;&|\n]{0,1000}(?:key|token|secret|pass)`, 'i'),
      rx(String.raw`\b(?:cat|less|more|head|tail|base64|xxd|strings)\s[^;&|\n]{0,1000}${SECRET_FILES}`),
    ],
  },
  {
    name: 'credential-routing',
    builtin: true,
    scope: 'tool_arguments',
    reminder:
      'This routes a credential somewhere it does not belong: an API key or Authorization header sent to a host other than its provider, a key in a URL or in a committed file, or a provider base URL (OPENAI_BASE_URL, ANTHROPIC_BASE_URL) pointed at a non-official host. Keys must only go to their official endpoint and only through environment variables. Do not do this unless the user explicitly named this host.',
    patterns: [
      rx(String.raw`\b(?:curl|wget|http|xh)\s(?=[^;&|\n]{0,1000}(?:authorization|x-api-key|api-key|x-goog-api-key)\s*:)[^;&|\n]{0,1000}${FOREIGN_URL}`, 'i'),
      rx(String.raw`[?&](?:api[_-]?key|apikey|access[_-]?token|auth[_-]?token|token|secret|client[_-]?secret|password|key)=(?:\$|sk-|ghp_|github_pat_|glpat-|xox[abp]-|AKIA)`, 'i'),
      rx(String.raw`https?://[^\s/@:"']+:(?:\$\{?\w+|ghp_|github_pat_|glpat-)[^\s/@"']*@`),
      rx(String.raw`\b(?:sk-ant-[A-Za-z0-9_-]{20,}|sk-(?:proj-)?[A-Za-z0-9]{32,}|ghp_[A-Za-z0-9]{36}|github_pat_\w{40,}|AKIA[0-9A-Z]{16})\b`),
      rx(String.raw`\b(?:OPENAI|ANTHROPIC|AZURE_OPENAI)_(?:API_)?BASE(?:_URL)?["']?\s*[=:]\s*["']?${FOREIGN_URL}`),
      rx(String.raw`\bgit\s+add\s(?:[^;&|\n]{0,1000}[\s/])?(?:\.env\b(?!\.(?:example|sample|template|dist))|id_rsa|id_ed25519|\.netrc)`),
    ],
  },
  {
    name: 'cwd-widening',
    builtin: true,
    scope: 'tool_arguments',
    reminder:
      'This widens the working directory beyond the workspace: changing to /, ~, a system directory or several levels up, or pointing a path or cwd at / or a system directory such as /etc or /usr. Stay inside the workspace and use paths relative to it unless the user explicitly asked you to work elsewhere.',
    patterns: [
      rx(String.raw`(?:^|[\s;&|(])cd(?:\s+["']?(?:/|~|\$\{?HOME\}?|/${SYSTEM_DIRS}\b[^\s;&|"']*)/?["']?)?\s*(?:&&|\|\||;|\n)\s*\S`),
      rx(String.raw`(?:^|[\s;&|(])cd\s+["']?(?:\.\./)+\.\.(?:/|${WORD_END})`),
      rx(String.raw`\b(?:os\.|process\.)?chdir\s*\(\s*["'](?:/|~|(?:\.\./)+\.\.)/?["']`),
      rx(String.raw`(?:--cwd|--dir|--directory|-C)(?:=|\s+)["']?(?:/|~|\$\{?HOME\}?)/?["']?${WORD_END}`),
      rx(String.raw`"(?:cwd|path|paths|file|file_path|directory|dir)"\s*:\s*\[?(?:\s*"[^"\n]*"\s*,)*?\s*"(?:/|~|\$HOME|/${SYSTEM_DIRS}(?:/[^"]*)?|/dev/(?!null|zero|stdout|stderr)[^"]*)"`),
      rx(String.raw`(?:>>?|\btee\s+(?:-a\s+)?)\s*["']?/(?:etc|usr|bin|sbin|boot|lib|opt|root)/`),
    ],
  },
  {
    name: 'force-push',
    builtin: true,
    scope: 'tool_arguments',
    reminder:
      'This force-pushes: it overwrites history on the remote that others may have built on (and --mirror can delete remote branches). Do not force-push unless the user explicitly asked for it. For your own feature branch use --force-with-lease; never force-push main or master.',
    patterns: [
      rx(String.raw`\bgit\s(?:[^;&|\n]{0,1000}\s)?push\s(?:[^;&|\n]{0,1000}\s)?(?:--force(?![-\w])|--mirror\b|-[a-zA-Z]*f[a-zA-Z]*${WORD_END}|\+[\w/.:-]+)`),
      rx(String.raw`\bgit\s(?:[^;&|\n]{0,1000}\s)?push\s(?=[^;&|\n]{0,1000}--force-with-lease)[^;&|\n]{0,1000}[\s:=](?:refs/heads/)?(?:main|master)${WORD_END}`),
    ],
  },
];
