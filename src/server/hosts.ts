/**
 * Which Host and Origin headers the service answers. Bound to loopback, only loopback
 * names are valid hosts, so a web page that rebinds its own DNS name to 127.0.0.1 is
 * refused; browser pages (any Origin header) are refused unless the operator lists their
 * origin. Other setups (a proxy, another interface) list their host names.
 */
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
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

/** A comma-separated list (from a flag or an environment variable) as trimmed, non-empty items. */
export function listOf(value: string | undefined): string[] {
  return (value ?? '').split(',').map((v) => v.trim()).filter(Boolean);
}

export class HostCheck {
  private readonly origins: Set<string>;
  private readonly extraHosts: Set<string>;
  private readonly checkHost: boolean;
  private port = 0;

  constructor(policy: HostPolicy) {
    this.origins = new Set((policy.allowedOrigins ?? []).map((o) => o.toLowerCase().replace(/\/+$/, '')));
    this.extraHosts = new Set((policy.allowedHosts ?? []).map((h) => h.toLowerCase()));
    // Loopback binds always check Host; other binds only once the operator lists hosts.
    this.checkHost = isLoopback(policy.bindHost) || this.extraHosts.size > 0;
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
      throw new HttpError('HOST_NOT_ALLOWED', `this service answers requests for its own address only, not for host ${JSON.stringify(req.headers.host ?? '')} (the operator can allow more with --allowed-hosts)`);
    }
    const origin = req.headers.origin;
    if (origin !== undefined && !this.origins.has(origin.toLowerCase()) && !this.ownOrigin(origin)) {
      throw new HttpError('ORIGIN_NOT_ALLOWED', `requests from web pages are refused (origin ${JSON.stringify(origin)}); the operator can allow an origin with --allowed-origins`);
    }
  }
}
