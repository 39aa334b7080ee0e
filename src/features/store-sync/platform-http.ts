/**
 * Outgoing calls to a store platform, through the same SSRF-guarded agent as the chat webhooks
 * (alerts/ssrf-guard.ts): a timeout on every call, no redirect followed, no private address
 * unless WEBHOOKS_ALLOW_PRIVATE=true. Every answer that is not a success becomes a
 * PlatformError saying what the sync should do about it:
 * - `broken`: the credentials were refused or the store is gone (401, 403, 404), or the address
 *   is refused; retrying cannot help until someone fixes the connection.
 * - `wait`: the platform asked us to slow down (429 with Retry-After, Shopify's THROTTLED).
 * - `transient`: anything else (5xx, a timeout, a network error, an unreadable answer).
 */
import { type Agent, request } from "undici";
import { parseRetryAfter } from "../../lib/retry-after.js";
import { excerpt } from "../alerts/delivery-result.js";
import { createGuardedAgent, SsrfError } from "../alerts/ssrf-guard.js";

export type PlatformFailure =
  | { kind: "broken"; message: string }
  | { kind: "wait"; delayMs: number; message: string }
  | { kind: "transient"; message: string };

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

export interface PlatformHttp {
  call(
    url: string,
    init: { method: "GET" | "POST"; headers: Record<string, string>; body?: string },
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

export function createPlatformHttp(options: PlatformHttpOptions): PlatformHttp {
  const agent: Agent = createGuardedAgent({
    allowPrivate: options.allowPrivate,
    connectTimeoutMs: options.timeoutMs,
  });

  async function call(
    url: string,
    init: { method: "GET" | "POST"; headers: Record<string, string>; body?: string },
    signal: AbortSignal,
  ): Promise<PlatformResponse> {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    try {
      const res = await request(url, {
        method: init.method,
        dispatcher: agent,
        signal: AbortSignal.any([signal, timeout]),
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
        headers: { "user-agent": "Velvet-StoreSync/1", ...init.headers },
        body: init.body,
      });
      const body = await readCapped(res.body);
      const response = { status: res.statusCode, headers: res.headers, body };
      const failure = classifyStatus(response);
      if (failure !== null) throw new PlatformError(failure);
      return response;
    } catch (error) {
      if (error instanceof PlatformError) throw error;
      if (signal.aborted) throw error;
      if (timeout.aborted) {
        throw transient(`timed out after ${options.timeoutMs} ms`);
      }
      throw classifyNetworkError(error);
    }
  }

  return { call, close: () => agent.close() };
}

export function classifyStatus(res: PlatformResponse): PlatformFailure | null {
  const { status } = res;
  if (status >= 200 && status < 300) return null;
  const answer = `${status} ${excerpt(res.body)}`.trim();
  if (status === 401 || status === 403)
    return { kind: "broken", message: `the store refused the credentials (${answer})` };
  if (status === 404 || status === 410)
    return { kind: "broken", message: `the store was not found (${answer})` };
  if (status >= 300 && status < 400)
    return {
      kind: "broken",
      message: `${status}: the store's address redirects; redirects are not followed, check the address`,
    };
  if (status === 429) {
    const header = res.headers["retry-after"];
    const delayMs = parseRetryAfter(Array.isArray(header) ? header[0] : header, Date.now(), 1000);
    return { kind: "wait", delayMs: delayMs ?? 2000, message: `rate limited (${answer})` };
  }
  return { kind: "transient", message: answer };
}

/** Network failures as a merchant reads them (the codes stay in the server log). */
const PLAIN_NETWORK_ERRORS: Record<string, string> = {
  ENOTFOUND: "no site was found at that address",
  EAI_AGAIN: "the address could not be looked up just now",
  ECONNREFUSED: "the site refused the connection",
  ECONNRESET: "the connection was cut off",
  ETIMEDOUT: "the site did not answer in time",
  UND_ERR_CONNECT_TIMEOUT: "the site did not answer in time",
  CERT_HAS_EXPIRED: "the site's HTTPS certificate has expired",
  DEPTH_ZERO_SELF_SIGNED_CERT: "the site's HTTPS certificate is not trusted",
  SELF_SIGNED_CERT_IN_CHAIN: "the site's HTTPS certificate is not trusted",
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: "the site's HTTPS certificate is not trusted",
  ERR_TLS_CERT_ALTNAME_INVALID: "the site's HTTPS certificate is for another address",
};

function networkCode(error: unknown): string | null {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && code in PLAIN_NETWORK_ERRORS) return code;
  }
  return null;
}

function classifyNetworkError(error: unknown): PlatformError {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof SsrfError) return new PlatformError({ kind: "broken", message: e.message });
  }
  const known = networkCode(error);
  if (known !== null) return transient(PLAIN_NETWORK_ERRORS[known] as string);
  const err = error as { code?: unknown; message?: unknown };
  const code = typeof err.code === "string" ? err.code : null;
  const message = typeof err.message === "string" ? err.message : String(error);
  return transient(
    excerpt(code !== null && !message.includes(code) ? `${code}: ${message}` : message),
  );
}

export function transient(message: string): PlatformError {
  return new PlatformError({ kind: "transient", message });
}

async function readCapped(body: AsyncIterable<Buffer> & { destroy(): unknown }): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    chunks.push(chunk);
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      body.destroy();
      throw transient(`the answer is larger than ${MAX_BODY_BYTES} bytes`);
    }
  }
  return Buffer.concat(chunks).toString("utf8");
}
