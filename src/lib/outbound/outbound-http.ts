/**
 * The one client for calls to the outside (chat webhooks, destinations, platforms): built once
 * per process in main.ts over the SSRF-guarded agent (ssrf-guard.ts), it never follows a
 * redirect, puts a timeout on every call, caps the body it reads, and never throws for what the
 * other side did: every exchange comes back as an `OutboundResponse` value.
 *
 * - answered: the server answered; `verdict` reads its status (below) and `retryAfterMs` its
 *   Retry-After header (delay-seconds or an HTTP-date, clamped to an hour);
 * - refused: the guard refused the address (not public); retrying cannot help;
 * - timeout, network: nothing usable came back; worth another try later;
 * - aborted: the caller's signal fired (the worker is stopping).
 *
 * Verdicts: 2xx `ok`; 3xx `redirect` (not followed: a permanent misconfiguration); 408,
 * 429 and 5xx `retry`; every other 4xx `rejected` (the same request cannot succeed).
 */
import { type Agent, request } from "undici";
import { excerpt } from "../excerpt.js";
import { parseRetryAfter } from "../retry-after.js";
import { readCapped } from "./read-capped.js";
import { createGuardedAgent, type Resolver, SsrfError } from "./ssrf-guard.js";

export type HttpMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

export interface OutboundRequest {
  url: string;
  method: HttpMethod;
  headers?: Record<string, string>;
  body?: string;
  /** Overrides the client's timeout for this call (the whole exchange, body included). */
  timeoutMs?: number;
  /** Overrides the client's body cap for this call. */
  maxBodyBytes?: number;
}

export type Verdict = "ok" | "redirect" | "retry" | "rejected";

export type OutboundResponse =
  | {
      kind: "answered";
      status: number;
      verdict: Verdict;
      headers: Record<string, string | string[] | undefined>;
      body: string;
      /** The body was longer than the cap and was cut. */
      truncated: boolean;
      retryAfterMs?: number;
    }
  | { kind: "refused"; error: string }
  | { kind: "timeout"; error: string }
  | { kind: "network"; error: string }
  | { kind: "aborted"; error: string };

export interface OutboundHttp {
  send(req: OutboundRequest, signal: AbortSignal): Promise<OutboundResponse>;
  close(): Promise<void>;
}

export interface OutboundHttpOptions {
  /** WEBHOOKS_ALLOW_PRIVATE: private addresses and loopback allowed (tests, private networks). */
  allowPrivate: boolean;
  timeoutMs: number;
  maxBodyBytes: number;
  userAgent: string;
  /** Replaces DNS (tests). */
  resolve?: Resolver;
  /** The clock Retry-After dates are read against. */
  now?: () => number;
}

export function createOutboundHttp(options: OutboundHttpOptions): OutboundHttp {
  const agent: Agent = createGuardedAgent({
    allowPrivate: options.allowPrivate,
    connectTimeoutMs: options.timeoutMs,
    resolve: options.resolve,
  });
  const now = options.now ?? Date.now;

  async function send(req: OutboundRequest, signal: AbortSignal): Promise<OutboundResponse> {
    const timeoutMs = req.timeoutMs ?? options.timeoutMs;
    const timeout = AbortSignal.timeout(timeoutMs);
    try {
      const res = await request(req.url, {
        method: req.method,
        dispatcher: agent,
        signal: AbortSignal.any([signal, timeout]),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        headers: { "user-agent": options.userAgent, ...req.headers },
        body: req.body,
      });
      const body = await readCapped(res.body, req.maxBodyBytes ?? options.maxBodyBytes);
      const header = res.headers["retry-after"];
      const retryAfterMs = parseRetryAfter(Array.isArray(header) ? header[0] : header, now(), 1000);
      return {
        kind: "answered",
        status: res.statusCode,
        verdict: verdictOf(res.statusCode),
        headers: res.headers,
        body: body.text,
        truncated: body.truncated,
        ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
      };
    } catch (error) {
      if (signal.aborted) return { kind: "aborted", error: "aborted: the worker is stopping" };
      if (timeout.aborted) return { kind: "timeout", error: `timed out after ${timeoutMs} ms` };
      return classifyError(error);
    }
  }

  return { send, close: () => agent.close() };
}

export function verdictOf(status: number): Verdict {
  if (status >= 200 && status < 300) return "ok";
  if (status >= 300 && status < 400) return "redirect";
  if (status === 408 || status === 429 || status >= 500) return "retry";
  return "rejected";
}

/** A connection error as a value: the guard's refusal, or a network failure with its code. */
export function classifyError(error: unknown): OutboundResponse {
  for (let e: unknown = error, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    if (e instanceof SsrfError) return { kind: "refused", error: e.message };
  }
  const err = error as { code?: unknown; message?: unknown };
  const code = typeof err.code === "string" ? err.code : null;
  const message = typeof err.message === "string" ? err.message : String(error);
  const text = code !== null && !message.includes(code) ? `${code}: ${message}` : message;
  return { kind: "network", error: excerpt(text) };
}
