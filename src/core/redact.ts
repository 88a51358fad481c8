/**
 * Credential-shaped text out of anything a person or a model will read: provider error excerpts,
 * language-service messages, later web results.
 */
/** Shorter values are not redacted: a 1–3 character "secret" (a placeholder key for a local server) would mangle every message. */
const MIN_SECRET_CHARS = 4;
const KEY_PATTERNS = [
  /\bBearer\s+\S+/gi,
  /\b(?:sk|pk|rk|key|api[-_]?key)[-_][A-Za-z0-9_-]{8,}/gi,
  // Long unbroken tokens look like keys; losing a request id to this is the cheaper mistake.
  /[A-Za-z0-9_-]{32,}/g,
];

/** Removes the configured secrets and anything shaped like a key or bearer token. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret.length >= MIN_SECRET_CHARS) out = out.split(secret).join('[redacted]');
  for (const pattern of KEY_PATTERNS) out = out.replace(pattern, '[redacted]');
  return out;
}
