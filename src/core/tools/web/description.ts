import { MAX_DOMAINS, MAX_QUERY_CHARS, MAX_RESULTS } from './args';

export const WEB_DESCRIPTION = `The outside web, one operation per call; omit unused fields or set them to null.

{"operation": "search", "query": "Rust official release notes", "limit": 5, "domainFilter": ["rust-lang.org", "-old.rust-lang.org"], "recencyFilter": "month"}
{"operation": "open", "url": "https://www.rust-lang.org/"}
{"operation": "open", "reference": "web:<reference from a result>"}

search (Exa; needs EXA_API_KEY in the environment): query 1–${MAX_QUERY_CHARS} characters, limit 1–${MAX_RESULTS} (default 5), domainFilter up to ${MAX_DOMAINS} bare domains (- to exclude), recencyFilter day/week/month/year (publication date). Results show title, URL, a reference and a bounded excerpt.
open: a public http(s) URL — no credentials, no secrets in the query, no private, local or metadata addresses (checked after DNS, and the connection goes to exactly the checked address), redirects not followed; at most 512 KiB downloaded, 5 s to connect, 15 s in all; readable text (articles extracted, short pages as Markdown), about 5,000 tokens. Or a reference: the stored snapshot, without network (the last 64 pages of this session).
Output at most 48 KiB; check truncated. web_search and code_search are retired: use web.`;
