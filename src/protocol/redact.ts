/**
 * Credentials must never reach logs, error bodies, stream events or tool results, even
 * when a provider echoes them back in its error text. One scrubber for both sides: the
 * worker knows the key of the call that failed, the Node side knows its environment's.
 */

const MASK = '[redacted]';

/** Names a credential is given under, as key=value or "key": "value". */
const SECRET_NAMES = [
  '(?:x-)?api[-_]?key',
  'access[-_]?token',
  'secret(?:[-_]?access[-_]?key)?',
  'password',
  'authorization',
  'x-goog-api-key',
  'private[-_]?key',
];

/** Token shapes that are credentials whatever their owner. */
const SHAPES: RegExp[] = [
  // Authorization headers and their echoes.
  /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/gi,
  // key=value / "api_key": "..." / x-api-key: ...
  new RegExp(`\\b(${SECRET_NAMES.join('|')})(["']?\\s*[:=]\\s*["']?)([^\\s"',;&]{6,})`, 'gi'),
  // Well-known provider key prefixes (OpenAI, Anthropic, Google, AWS, GitHub, Deckhand's own).
  /\b(sk-(?:ant-|proj-)?[A-Za-z0-9_-]{12,}|AIza[0-9A-Za-z_-]{20,}|AKIA[0-9A-Z]{12,}|ASIA[0-9A-Z]{12,}|gh[pousr]_[A-Za-z0-9]{20,}|dh_[A-Za-z0-9_-]{16,})/g,
  // PEM private keys.
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(-----END [A-Z ]*PRIVATE KEY-----|$)/g,
];

/** Credentials carry digits or are long; words in messages ('Required', 'missing') are neither. */
const looksLikeToken = (v: string) => (/\d/.test(v) && v.length >= 8) || v.length >= 20;

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `text` with every given secret value (6+ characters) and anything shaped like a
 * credential replaced by a mask. Secrets are also matched URL-encoded.
 */
export function redactSecrets(text: string, secrets: Iterable<string | undefined> = []): string {
  let out = text;
  for (const raw of secrets) {
    const v = raw?.trim();
    if (!v || v.length < 6) continue;
    for (const form of new Set([v, encodeURIComponent(v)])) out = out.replace(new RegExp(escape(form), 'g'), MASK);
  }
  out = out.replace(SHAPES[0], (_m, scheme: string) => `${scheme} ${MASK}`);
  // Only a value that looks like a token: 'apiKey: Required' in a validation message stays readable.
  out = out.replace(SHAPES[1], (m, name: string, sep: string, value: string) => (looksLikeToken(value) ? `${name}${sep}${MASK}` : m));
  out = out.replace(SHAPES[2], MASK);
  out = out.replace(SHAPES[3], MASK);
  return out;
}
