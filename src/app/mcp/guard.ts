/**
 * Who may talk to the MCP server over HTTP, decided from a request's headers before anything is
 * read (the rules of the dashboard, see the README's security notes):
 * - `Host` must be one of the server's own addresses ({@link ownHosts}): a web page whose DNS
 *   name was rebound to 127.0.0.1 reaches the port, but its `Host` is its own name (DNS rebinding);
 * - `Origin`, when a request carries one (browsers always send it across sites), must be one of
 *   the server's own origins or one allowed on purpose (`--allow-origin`): the MCP
 *   specification's security warning for Streamable HTTP ("Servers MUST validate the Origin
 *   header on all incoming connections"). Clients that are not browsers send none;
 * - with a token (required for any address beyond loopback), `Authorization: Bearer <token>`,
 *   compared in constant time.
 */
import { timingSafeEqual } from 'node:crypto';
import { hostname, networkInterfaces } from 'node:os';

/** Host names only this machine reaches, as `URL.hostname` writes them. */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** True for an address only this machine reaches (`127.x.x.x`, `::1`, `localhost`). */
export function isLoopback(host: string): boolean {
  return /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost)$/i.test(host);
}

/** A host name as `URL.hostname` writes it (IPv6 in brackets, lower case). */
function hostnameOf(host: string): string {
  const h = host.toLowerCase();
  return h.includes(':') && !h.startsWith('[') ? `[${h}]` : h;
}

/**
 * The `Host` values (`name:port`, lower case) of a server bound to `bindHost` on `port`: the
 * bound host and the loopback names; for a wildcard bind (`0.0.0.0`, `::`) every address of this
 * machine and its host name too.
 */
export function ownHosts(bindHost: string, port: number): Set<string> {
  const names = new Set<string>([...LOOPBACK_NAMES, hostnameOf(bindHost)]);
  if (bindHost === '0.0.0.0' || bindHost === '::' || bindHost === '') {
    for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) names.add(hostnameOf(a.address));
    names.add(hostname().toLowerCase());
  }
  return new Set([...names].map((n) => `${n}:${port}`));
}

/** What {@link refusal} checks a request against. */
export interface GuardRules {
  /** The server's own `Host` values (see {@link ownHosts}). */
  hosts: ReadonlySet<string>;
  /** Origins allowed besides the server's own (`http://host:port` of {@link hosts}), as written: `https://inspector.example`. */
  origins: ReadonlySet<string>;
  /** The bearer token; '' or undefined: none asked for (loopback only). */
  token?: string;
}

/** The request headers {@link refusal} reads. */
export interface GuardHeaders {
  host?: string | string[] | undefined;
  origin?: string | string[] | undefined;
  authorization?: string | string[] | undefined;
}

function one(value: string | string[] | undefined): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Whether `given` is `token`, in constant time. */
export function tokenMatches(token: string, given: string | undefined): boolean {
  if (given === undefined) return false;
  const a = Buffer.from(token);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Why a request is refused, with its HTTP status, or undefined when it may go on.
 *
 * @example refusal({ host: '127.0.0.1:8931', origin: 'https://evil.example' }, rules)
 *   // { status: 403, why: 'Origin https://evil.example is not allowed (...)' }
 */
export function refusal(headers: GuardHeaders, rules: GuardRules): { status: 401 | 403; why: string } | undefined {
  const host = one(headers.host)?.toLowerCase();
  if (!host || !rules.hosts.has(host)) return { status: 403, why: `Host ${host ?? '(none)'} is not this server's address` };
  const origin = one(headers.origin);
  if (origin !== undefined && !rules.origins.has(origin)) {
    let own = false;
    try {
      const url = new URL(origin);
      own = (url.protocol === 'http:' || url.protocol === 'https:') && rules.hosts.has(url.host.toLowerCase());
    } catch {
      own = false;
    }
    if (!own)
      return {
        status: 403,
        why: `Origin ${origin.slice(0, 200)} is not allowed (start the server with --allow-origin ${origin.slice(0, 200)} to let that page in)`,
      };
  }
  if (rules.token) {
    const [scheme, given] = (one(headers.authorization) ?? '').split(' ');
    if (scheme?.toLowerCase() !== 'bearer' || !tokenMatches(rules.token, given))
      return { status: 401, why: 'a bearer token is required (Authorization: Bearer <the token the server was started with>)' };
  }
  return undefined;
}
