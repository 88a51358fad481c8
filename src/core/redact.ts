/**
 * Credential-shaped text out of anything a person or a model will read: provider error excerpts,
 * language-service messages, later web results.
 */
/** Shorter values are not redacted: a 1–3 character "secret" (a placeholder key for a local server) would mangle every message. */
const MIN_SECRET_CHARS = 4;
const KEY_PATTERNS = [
  /\bBearer\s+\S+/gi,
  /\b(?:sk|pk|rk|key|api[-_]?key)[-_][A-Za-z0-9_-]{8,}/gi,
];
const LONG_TOKEN = /[A-Za-z0-9_-]{32,}/g;
/** A run of 20 letters and digits mixing both, as keys and hashes have and hyphenated words do not. */
const RANDOM_RUN = /(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])[A-Za-z0-9]{20,}/;

/**
 * Removes the configured secrets and anything shaped like a key or bearer token. Long unbroken
 * tokens look like keys when they hold a long run mixing letters and digits (losing a request id
 * to this is the cheaper mistake); a URL slug of words (`how-to-configure-the-typescript-compiler`)
 * stays readable.
 */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= MIN_SECRET_CHARS) out = out.split(secret).join('[redacted]');
  for (const pattern of KEY_PATTERNS) out = out.replace(pattern, '[redacted]');
  return out.replace(LONG_TOKEN, (token) => (token.split(/[-_]/).some((segment) => RANDOM_RUN.test(segment)) ? '[redacted]' : token));
}
