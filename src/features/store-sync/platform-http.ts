/**
 * Outgoing calls to a store platform, through the one outbound client (lib/outbound): the
 * SSRF-guarded agent, a timeout on every call, no redirect followed, no private address
 * unless WEBHOOKS_ALLOW_PRIVATE=true. Every answer that is not a success becomes a
 * PlatformError saying what the sync should do about it:
 * - `broken`: the credentials were refused or the store is gone (401, 403, 404), the request was
 *   refused as it is (another 4xx but 408 and 429), or the address is refused; retrying cannot
 *   help until someone fixes the connection.
 * - `wait`: the platform asked us to slow down (429 with Retry-After, Shopify's THROTTLED).
 * - `transient`: anything else (5xx, a timeout, a network error, an unreadable answer).
 */
import type { Config } from "../../config.js";
import { excerpt } from "../../lib/excerpt.js";
import { createOutboundHttp, type OutboundHttp } from "../../lib/outbound/outbound-http.js";
import { parseRetryAfter } from "../../lib/retry-after.js";

/**
 * `message` is what people see (the Stores page, the CLI); `detail`, when there is one, is what
 * only the log gets. A failure before any store answered says only "not a public address" or
 * "could not be reached": how names resolve and which connections fail inside our network is not
 * for whoever types a store address.
 */
export type PlatformFailure =
  /**
   * status: the HTTP status that said so, when one did; body: what it answered, for the
   * platform's own client to read its error code (WordPress's `{code, message}`).
   */
  | {
      kind: "broken";
      message: string;
      status?: number;
      body?: string;
      detail?: string;
      notPublic?: boolean;
    }
  | { kind: "wait"; delayMs: number; message: string }
  | { kind: "transient"; message: string; status?: number; detail?: string; unreachable?: boolean };

export const NOT_PUBLIC_MESSAGE = "the store's address is not a public address";
export const UNREACHABLE_MESSAGE = "the store could not be reached";

export class PlatformError extends Error {
  override name = "PlatformError";
  constructor(readonly failure: PlatformFailure) {
    super(failure.message);
  }
}

export interface PlatformResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

export type PlatformMethod = "GET" | "POST" | "PUT" | "DELETE";

export interface PlatformHttp {
  call(
    url: string,
    init: { method: PlatformMethod; headers: Record<string, string>; body?: string },
    signal: AbortSignal,
  ): Promise<PlatformResponse>;
  close(): Promise<void>;
}

export interface PlatformHttpOptions {
  allowPrivate: boolean;
  timeoutMs: number;
}

/** A page of 50–100 orders is a few hundred kB; anything far larger is not an orders page. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * The platform calls over the one outbound client (lib/outbound): its value read as what the
 * sync should do. `outbound` is the process's client when there is one; otherwise one of its own.
 */
/**
 * The platform client as this process's settings make it: private addresses only with
 * WEBHOOKS_ALLOW_PRIVATE, every call bounded by PROVIDER_TIMEOUT_MS; `outbound`, when given, is
 * the process's shared client (a worker's), else one of its own.
 */
export function platformHttpFor(
  config: Pick<Config, "alerts" | "enrichment">,
  outbound?: OutboundHttp,
): PlatformHttp {
  return createPlatformHttp(
    { allowPrivate: config.alerts.allowPrivateWebhooks, timeoutMs: config.enrichment.timeoutMs },
    outbound,
  );
}

export function createPlatformHttp(
  options: PlatformHttpOptions,
  outbound?: OutboundHttp,
): PlatformHttp {
  const http =
    outbound ??
    createOutboundHttp({
      allowPrivate: options.allowPrivate,
      timeoutMs: options.timeoutMs,
      maxBodyBytes: MAX_BODY_BYTES,
      userAgent: "Velvet-StoreSync/1",
    });

  async function call(
    url: string,
    init: { method: PlatformMethod; headers: Record<string, string>; body?: string },
    signal: AbortSignal,
  ): Promise<PlatformResponse> {
    const res = await http.send(
      { url, ...init, timeoutMs: options.timeoutMs, maxBodyBytes: MAX_BODY_BYTES },
      signal,
    );
    switch (res.kind) {
      case "answered": {
        if (res.truncated) throw transient(`the answer is larger than ${MAX_BODY_BYTES} bytes`);
        const response = { status: res.status, headers: res.headers, body: res.body };
        const failure = classifyStatus(response);
        if (failure !== null) throw new PlatformError(failure);
        return response;
      }
      case "refused":
        throw new PlatformError({
          kind: "broken",
          message: NOT_PUBLIC_MESSAGE,
          detail: res.error,
          notPublic: true,
        });
      case "aborted":
        throw new PlatformError({ kind: "transient", message: res.error });
      default:
        throw unreachable(res.error);
    }
  }

  return { call, close: () => (outbound === undefined ? http.close() : Promise.resolve()) };
}

export function classifyStatus(res: PlatformResponse): PlatformFailure | null {
  const { status } = res;
  if (status >= 200 && status < 300) return null;
  const answer = `${status} ${excerpt(res.body)}`.trim();
  const body = res.body;
  if (status === 401 || status === 403)
    return {
      kind: "broken",
      status,
      body,
      message: `the store refused the credentials (${answer})`,
    };
  if (status === 404 || status === 410)
    return { kind: "broken", status, body, message: `the store was not found (${answer})` };
  if (status >= 300 && status < 400)
    return {
      kind: "broken",
      message: `${status}: the store's address redirects; redirects are not followed, check the address`,
    };
  if (status >= 400 && status < 500 && status !== 408 && status !== 429)
    return { kind: "broken", status, body, message: `the store refused the request (${answer})` };
  if (status === 429) {
    const header = res.headers["retry-after"];
    const delayMs = parseRetryAfter(Array.isArray(header) ? header[0] : header, Date.now(), 1000);
    return { kind: "wait", delayMs: delayMs ?? 2000, message: `rate limited (${answer})` };
  }
  return { kind: "transient", status, message: answer };
}

function unreachable(detail: string): PlatformError {
  return new PlatformError({
    kind: "transient",
    message: UNREACHABLE_MESSAGE,
    detail,
    unreachable: true,
  });
}

export function transient(message: string): PlatformError {
  return new PlatformError({ kind: "transient", message });
}
