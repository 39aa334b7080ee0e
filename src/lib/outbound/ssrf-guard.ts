/**
 * SSRF protection for outgoing webhooks, enforced when the connection is made: an undici Agent
 * whose connector checks the address it is about to connect to. A host name is resolved by our
 * own `lookup`, which refuses the connection if ANY of its addresses is not public (so a name
 * that resolves to 127.0.0.1 today, or is rebound to 169.254.169.254 between save and send, is
 * refused); an IP literal, which Node connects to without a lookup, is checked directly.
 * Only the standard ports are used (443, or 80 for plain http): a public address's other ports are
 * not what a webhook or a store lives on, and an open one is not for us to probe.
 * With `allowPrivate` (WEBHOOKS_ALLOW_PRIVATE=true) the address and port checks are off.
 */

import type { LookupAddress, LookupOptions } from "node:dns";
import dns from "node:dns";
import { isIP } from "node:net";
import { Agent, buildConnector } from "undici";
import { isPublicAddress } from "./ip-address.js";

/** Resolves a host name to all its addresses (dns.lookup by default; replaceable in tests). */
export type Resolver = (hostname: string) => Promise<LookupAddress[]>;

export class SsrfError extends Error {
  override name = "SsrfError";
  readonly code = "ERR_SSRF_REFUSED";
}

export interface GuardOptions {
  allowPrivate: boolean;
  /** Connect timeout (TCP and TLS handshake). */
  connectTimeoutMs: number;
  resolve?: Resolver;
}

const systemResolver: Resolver = (hostname) => dns.promises.lookup(hostname, { all: true });

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** A `lookup` for net/tls.connect that refuses host names resolving to non-public addresses. */
export function guardedLookup(resolve: Resolver = systemResolver) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    resolve(hostname).then(
      (found) => {
        const wanted = options.family === 4 || options.family === 6 ? options.family : 0;
        const addresses = found.filter((a) => wanted === 0 || a.family === wanted);
        const refused = found.find((a) => !isPublicAddress(a.address));
        if (refused) {
          callback(refusal(hostname, refused.address), []);
        } else if (addresses.length === 0) {
          const error: NodeJS.ErrnoException = new Error(`no address found for ${hostname}`);
          error.code = "ENOTFOUND";
          callback(error, []);
        } else if (options.all) {
          callback(null, addresses);
        } else {
          const first = addresses[0] as LookupAddress;
          callback(null, first.address, first.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}

/** An undici connector that applies the guard to IP literals and, through lookup, to names. */
export function guardedConnector(options: GuardOptions): buildConnector.connector {
  if (options.allowPrivate) return buildConnector({ timeout: options.connectTimeoutMs });
  const lookup = guardedLookup(options.resolve);
  const connect = buildConnector({ timeout: options.connectTimeoutMs, lookup });
  return (opts, callback) => {
    const standard = isStandardPort(opts.protocol, opts.port);
    // undici hands IPv6 literals over without brackets; strip them anyway to be sure.
    const host = opts.hostname.replace(/^\[(.*)\]$/, "$1");
    if (isIP(host) !== 0) {
      if (!isPublicAddress(host)) callback(refusal(host, host), null);
      else if (!standard) callback(portRefusal(host, opts.port), null);
      else connect(opts, callback);
      return;
    }
    if (standard) {
      connect(opts, callback);
      return;
    }
    // A name on another port is refused without connecting; what its addresses are still comes
    // first, so the log says the more serious of the two.
    lookup(host, { all: true }, (error) => callback(error ?? portRefusal(host, opts.port), null));
  };
}

/** An Agent for webhook calls: guarded connections, nothing else (it never follows redirects). */
export function createGuardedAgent(options: GuardOptions): Agent {
  return new Agent({ connect: guardedConnector(options) });
}

/**
 * The ports outgoing calls may use without WEBHOOKS_ALLOW_PRIVATE: 443 for https, 80 for http
 * (where a caller allows http at all). `port` as URL and undici give it: "" for the default.
 */
export function isStandardPort(protocol: string, port: string | number): boolean {
  const p = String(port);
  if (protocol === "https:") return p === "" || p === "443";
  if (protocol === "http:") return p === "" || p === "80";
  return false;
}

function portRefusal(host: string, port: string | number): SsrfError {
  return new SsrfError(
    `refused to connect: ${host} port ${String(port)}; outgoing calls use port 443 (80 for http)`,
  );
}

function refusal(host: string, address: string): SsrfError {
  const which = host === address ? address : `${host} resolves to ${address}`;
  return new SsrfError(`refused to connect: ${which}, which is not a public address`);
}
