/**
 * Which requests the dashboard (and its 3D views) takes: those addressed to its own address and,
 * from a browser, sent by its own page. A request whose `Host` header names another host is
 * refused (DNS rebinding: a name of the attacker's resolving to 127.0.0.1 reaches the port, but
 * its `Host` is the attacker's name); so is one whose `Origin` is another site (a page elsewhere
 * opening the WebSocket or posting to a route: browsers always send `Origin` with a WebSocket and
 * with cross-site requests). Requests without `Origin` (curl, the page's own navigations) are
 * judged by their `Host` alone.
 *
 * The dashboard's own addresses: the bound host with its port; the loopback names
 * (`127.0.0.1`, `localhost`, `[::1]`) with its port; for a wildcard bind (`0.0.0.0`, `::`) also
 * every address of this machine's interfaces and its host name; and the `dashboard_allowed_hosts`
 * setting's entries as written (`name` or `name:port`: a DNS name, a reverse proxy's address).
 */
import { hostname, networkInterfaces } from 'node:os';

/** Host names only this machine reaches (as `URL.hostname` writes them). */
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/** A host name as `URL.hostname` writes it (IPv6 in brackets, lower case). */
function hostnameOf(host: string): string {
  const h = host.toLowerCase();
  return h.includes(':') && !h.startsWith('[') ? `[${h}]` : h;
}

/**
 * The `Host` values (`name:port`, lower case) under which a server bound to `bindHost` on `port`
 * is its own: see the module comment.
 *
 * @param extra `dashboard_allowed_hosts` entries (`name` or `name:port`), taken as written.
 */
export function ownHosts(bindHost: string, port: number, extra: readonly string[] = []): Set<string> {
  const names = new Set<string>([...LOOPBACK_NAMES, hostnameOf(bindHost)]);
  if (bindHost === '0.0.0.0' || bindHost === '::' || bindHost === '') {
    for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) names.add(hostnameOf(a.address));
    names.add(hostname().toLowerCase());
  }
  const hosts = new Set([...names].map((n) => `${n}:${port}`));
  for (const entry of extra) hosts.add(entry.trim().toLowerCase());
  return hosts;
}

/** The request headers {@link refusal} reads. */
export interface RequestHeaders {
  host?: string | string[] | undefined;
  origin?: string | string[] | undefined;
}

/**
 * Why a request is not the dashboard's own, or undefined when it is: its `Host` must be one of
 * `hosts`, and its `Origin`, when there is one, an `http(s)` origin whose host is one of them.
 *
 * @example refusal({ host: '127.0.0.1:8080', origin: 'https://evil.example' }, ownHosts('127.0.0.1', 8080))
 *   // 'Origin https://evil.example is not this dashboard's page'
 */
export function refusal(headers: RequestHeaders, hosts: ReadonlySet<string>): string | undefined {
  const host = typeof headers.host === 'string' ? headers.host.toLowerCase() : undefined;
  if (!host || !hosts.has(host)) return `Host ${host ?? '(none)'} is not this dashboard's address`;
  if (headers.origin === undefined) return undefined;
  const origin = typeof headers.origin === 'string' ? headers.origin : String(headers.origin);
  let parsed: URL | undefined;
  try {
    parsed = new URL(origin);
  } catch {
    parsed = undefined;
  }
  const originHost = parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:') ? parsed.host.toLowerCase() : undefined;
  // URL drops a default port (80, 443): the host as the browser reached it then has none.
  const withPort = originHost && parsed && !parsed.port ? `${originHost}:${parsed.protocol === 'https:' ? 443 : 80}` : originHost;
  if (!originHost || !(hosts.has(originHost) || (withPort !== undefined && hosts.has(withPort))))
    return `Origin ${origin} is not this dashboard's page`;
  return undefined;
}
