/**
 * Where the service may listen, and which Host and Origin headers it answers. Bound to
 * loopback, only loopback names are valid hosts, so a web page that rebinds its own DNS name
 * to 127.0.0.1 is refused; browser pages (any Origin header) are refused unless the operator
 * lists their origin. Any other address needs the host names it will be called by.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { DeckhandError, ErrorCode } from '../protocol/errors';
import { HttpError } from '../sessions/http-error';

export interface HostPolicy {
  /** The address the service listens on. */
  bindHost: string;
  /** Host names (optionally with :port) accepted besides the loopback names. */
  allowedHosts?: string[];
  /** Exact origins (scheme://host[:port]) whose pages may call the service. */
  allowedOrigins?: string[];
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

/**
 * Refuses to listen beyond loopback unless the operator named the host names clients will
 * use: opening the service to other machines (all of them that can route to it, for 0.0.0.0
 * or ::) has to be a decision, and the list keeps the Host check on there.
 */
export function checkBindHost(policy: HostPolicy, flag = '--allowed-hosts'): void {
  if (isLoopback(policy.bindHost) || (policy.allowedHosts ?? []).length > 0) return;
  const what = ['0.0.0.0', '::', '[::]'].includes(policy.bindHost) ? `${policy.bindHost} (every network interface)` : policy.bindHost;
  throw new DeckhandError(
    ErrorCode.HostNotAllowed,
    `refusing to listen on ${what}: it is not a loopback address, so the service would be open to other machines. ` +
      `Name the host names clients will call it by with ${flag} (or DECKHAND_ALLOWED_HOSTS; allowedHosts in startService's options), ` +
      `e.g. ${flag} deckhand.example.com ('*' answers any Host), or listen on 127.0.0.1 behind a reverse proxy`,
    { host: policy.bindHost },
  );
}

/** A comma-separated list (from a flag or an environment variable) as trimmed, non-empty items. */
export function listOf(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((v) => v.trim())
    .filter(Boolean);
}

export class HostCheck {
  private readonly origins: Set<string>;
  private readonly extraHosts: Set<string>;
  private readonly checkHost: boolean;
  private port = 0;

  constructor(policy: HostPolicy) {
    this.origins = new Set((policy.allowedOrigins ?? []).map((o) => o.toLowerCase().replace(/\/+$/, '')));
    this.extraHosts = new Set((policy.allowedHosts ?? []).map((h) => h.toLowerCase()));
    // Every bind checks Host (checkBindHost sees to a list beyond loopback), unless the
    // operator answers any Host with '*', where something in front checks it.
    this.checkHost = !this.extraHosts.has('*') && (isLoopback(policy.bindHost) || this.extraHosts.size > 0);
  }

  /** The port is known once the server listens. */
  listening(port: number): void {
    this.port = port;
  }

  private hostAllowed(raw: string | undefined): boolean {
    if (!raw) return false;
    const host = raw.toLowerCase();
    if (this.extraHosts.has(host)) return true;
    const m = /^(\[[^\]]+\]|[^:]+)(?::(\d+))?$/.exec(host);
    if (!m) return false;
    if (this.extraHosts.has(m[1])) return true;
    return LOOPBACK_NAMES.includes(m[1]) || (isIP(m[1]) === 4 && m[1].startsWith('127.')) ? !m[2] || Number(m[2]) === this.port : false;
  }

  /**
   * The service's own loopback origin (http://localhost:PORT and the like): only a page this
   * server served could carry it, and it serves none, while MCP clients and tools send it.
   * A rebound DNS name (evil.test resolving to 127.0.0.1) is not a loopback name, so it stays refused.
   */
  private ownOrigin(origin: string): boolean {
    let u: URL;
    try {
      u = new URL(origin);
    } catch {
      return false;
    }
    return u.protocol === 'http:' && this.checkHost && LOOPBACK_NAMES.includes(u.hostname.toLowerCase()) && Number(u.port || 80) === this.port;
  }

  /** Throws a 403 naming the header that was refused. */
  check(req: IncomingMessage): void {
    if (this.checkHost && !this.hostAllowed(req.headers.host)) {
      throw new HttpError(
        'HOST_NOT_ALLOWED',
        `this service answers requests for its own address only, not for host ${JSON.stringify(req.headers.host ?? '')} ` +
          '(the operator can allow more with --allowed-hosts)',
      );
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !this.origins.has(origin.toLowerCase()) && !this.ownOrigin(origin)) {
      throw new HttpError(
        'ORIGIN_NOT_ALLOWED',
        `requests from web pages are refused (origin ${JSON.stringify(origin)}); the operator can allow an origin with --allowed-origins`,
      );
    }
  }
}
