/**
 * Which URLs Deckhand opens. One policy for every surface (client library, HTTP service,
 * MCP server, side panel, agent), enforced by the engine where every navigation lands.
 *
 * Open by default: http:, https:, data: and about:blank. Everything else is refused
 * with URL_NOT_ALLOWED. Whoever launches or connects the browser (and so owns the
 * machine) may open a few more schemes per browser handle (`allowUrlSchemes`); the
 * list travels with each navigating call, never in options a remote caller controls.
 * javascript: is refused always: page.evaluate already runs script, and a javascript:
 * URL would run it in whatever origin the page is on without going through evaluate.
 */
import { z } from 'zod';
import { DeckhandError, ErrorCode } from './errors';

/** Schemes every caller may open (about: only as about:blank). */
export const DEFAULT_URL_SCHEMES = ['http', 'https', 'data'] as const;

/** Schemes an operator may add with allowUrlSchemes. */
export const OPTIONAL_URL_SCHEMES = ['file', 'about', 'chrome', 'chrome-extension', 'devtools', 'view-source', 'blob'] as const;
export type OptionalUrlScheme = (typeof OPTIONAL_URL_SCHEMES)[number];

/** Refused whatever the operator asks. */
export const NEVER_URL_SCHEMES = ['javascript'] as const;

/** The wire form of the opt-in: scheme names without the colon, lower case. */
export const AllowSchemesSchema = z.array(z.enum(OPTIONAL_URL_SCHEMES)).max(OPTIONAL_URL_SCHEMES.length);

const OPENED_BY_DEFAULT = 'Deckhand opens http:, https:, data: and about:blank';

const shortUrl = (url: string) => (url.length > 120 ? `${url.slice(0, 117)}...` : url);

/**
 * Normalise an operator's allowUrlSchemes ('file', 'FILE:' → 'file'). Unknown names are an
 * INVALID_ARGUMENT that lists the names accepted.
 */
export function parseAllowSchemes(value: unknown, what = 'allowUrlSchemes'): OptionalUrlScheme[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    throw new DeckhandError(
      ErrorCode.InvalidArgument,
      `${what} must be an array of scheme names (${OPTIONAL_URL_SCHEMES.map((s) => `'${s}'`).join(', ')}), got ${JSON.stringify(value)}`,
    );
  }
  const out: OptionalUrlScheme[] = [];
  for (const raw of value) {
    const name = typeof raw === 'string' ? raw.trim().toLowerCase().replace(/:$/, '') : raw;
    if (typeof name === 'string' && (NEVER_URL_SCHEMES as readonly string[]).includes(name)) {
      throw new DeckhandError(ErrorCode.InvalidArgument, `${what}: javascript: URLs are never opened; run script in a page with page.evaluate`);
    }
    if (typeof name === 'string' && (DEFAULT_URL_SCHEMES as readonly string[]).includes(name)) continue; // already open
    if (typeof name !== 'string' || !(OPTIONAL_URL_SCHEMES as readonly string[]).includes(name)) {
      throw new DeckhandError(
        ErrorCode.InvalidArgument,
        `${what}: ${JSON.stringify(raw)} is not a scheme Deckhand can open; ` +
          `allowed values: ${OPTIONAL_URL_SCHEMES.map((s) => `'${s}'`).join(', ')} (${OPENED_BY_DEFAULT} already)`,
      );
    }
    if (!out.includes(name as OptionalUrlScheme)) out.push(name as OptionalUrlScheme);
  }
  return out;
}

/** The scheme of a URL without its colon, lower case ('' when it is not an absolute URL). */
export function schemeOf(url: string): string {
  try {
    return new URL(url).protocol.replace(/:$/, '').toLowerCase();
  } catch {
    return '';
  }
}

/**
 * Why `url` may not be opened under this opt-in, or null when it may. `redirectedFrom`
 * words the refusal for a navigation that ended somewhere it was not sent.
 */
export function urlRefusal(url: string, allow: readonly string[] = [], redirectedFrom?: string): DeckhandError | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    if (redirectedFrom !== undefined) {
      return new DeckhandError(
        ErrorCode.UrlNotAllowed,
        `navigation to ${shortUrl(redirectedFrom)} ended on a page Deckhand cannot read (a browser page or another extension's); ` +
          'the page was sent to about:blank',
        { url: shortUrl(redirectedFrom), redirected: true },
      );
    }
    return new DeckhandError(ErrorCode.InvalidArgument, `'${shortUrl(url)}' is not an absolute URL (include the scheme, e.g. https://)`);
  }
  const scheme = parsed.protocol.replace(/:$/, '').toLowerCase();
  if ((DEFAULT_URL_SCHEMES as readonly string[]).includes(scheme)) return null;
  const blank = scheme === 'about' && parsed.pathname === 'blank';
  if (blank || allow.includes(scheme)) {
    if (!(NEVER_URL_SCHEMES as readonly string[]).includes(scheme)) return null;
  }
  const where =
    redirectedFrom !== undefined ? `navigation to ${shortUrl(redirectedFrom)} was redirected to ${shortUrl(url)}; the page was sent to about:blank. ` : '';
  const data = { scheme, url: shortUrl(url), ...(redirectedFrom !== undefined ? { redirected: true, from: shortUrl(redirectedFrom) } : {}) };
  let why: string;
  if ((NEVER_URL_SCHEMES as readonly string[]).includes(scheme)) {
    why = `${scheme}: URLs are never opened; run script in a page with page.evaluate`;
  } else if (scheme === 'about') {
    why =
      `only about:blank is opened by default, not ${shortUrl(url)}; ` +
      "whoever launches the browser can open other about: pages with localBrowser.launch({ allowUrlSchemes: ['about'] }) (or connect/attach)";
  } else if ((OPTIONAL_URL_SCHEMES as readonly string[]).includes(scheme)) {
    why =
      `${scheme}: URLs are not allowed (${shortUrl(url)}): ${OPENED_BY_DEFAULT}. ` +
      `The operator who owns this machine can open ${scheme}: ` +
      `for a browser it launches or connects with localBrowser.launch({ allowUrlSchemes: ['${scheme}'] }) (or connect/attach); ` +
      'callers of the HTTP service and the MCP server cannot widen this';
  } else {
    why = `'${scheme}:' is not a scheme Deckhand opens (${shortUrl(url)}): ${OPENED_BY_DEFAULT}; for a web address include http:// or https://`;
  }
  return new DeckhandError(ErrorCode.UrlNotAllowed, where + why, data);
}

/** Throw URL_NOT_ALLOWED (or INVALID_ARGUMENT for a URL that does not parse) unless `url` may be opened. */
export function assertUrlAllowed(url: string, allow: readonly string[] = []): void {
  const refusal = urlRefusal(url, allow);
  if (refusal) throw refusal;
}

/** URL without fragment, with sorted query parameters and lower-case host. */
export function normalizeUrl(raw: string): string {
  try {
    const u = new URL(raw);
    u.hash = '';
    u.searchParams.sort();
    return u.href.replace(/\/$/, '');
  } catch {
    return raw;
  }
}
