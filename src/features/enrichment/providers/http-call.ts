/**
 * One HTTP exchange with a provider, turned into values. Everything an adapter shares lives here:
 * network errors and aborts become `transient`, the status table below classifies non-2xx
 * answers, and a 2xx body is parsed against the adapter's schema.
 *
 * Status table (adapters may override single codes, e.g. FullContact's 202):
 * | status                  | result                                             |
 * |-------------------------|----------------------------------------------------|
 * | 404                     | not_found (the provider knows no such person)      |
 * | 429                     | transient, retryAfterMs from Retry-After/Reset     |
 * | 408, 5xx                | transient (Retry-After honoured when sent)         |
 * | 400, 422                | permanent: bad_request                             |
 * | 401, 403                | permanent: auth (EnrichLayer's 403 is credits)     |
 * | 402                     | permanent: credits                                 |
 * | any other (3xx, 4xx)    | permanent: unexpected_status                       |
 * | 2xx, body not JSON or failing the schema | permanent: malformed_response     |
 *
 * A malformed 2xx is permanent because asking again returns the same body; the caller scores
 * the customer on the other providers and the raw text is kept for the audit trail.
 */
import type { z } from "zod";
import { createOutboundHttp, type OutboundHttp } from "../../../lib/outbound/outbound-http.js";
import type { PermanentCause, ProviderName, ProviderResult } from "./provider.js";
import { retryAfterFromHeaders } from "./retry-after.js";

export interface HttpRequest {
  url: string;
  method?: "GET" | "POST";
  headers: Record<string, string>;
  json?: unknown;
}

export interface HttpAnswer {
  status: number;
  headers: Headers;
  /** The parsed JSON body, or the text when it is not JSON (kept as `raw`). */
  body: unknown;
  isJson: boolean;
}

export type FetchLike = typeof fetch;

const MAX_ERROR_TEXT = 300;

/**
 * The outbound client providers share (lib/outbound/outbound-http.ts), one per provider thread
 * (createProviders builds it): no redirect followed (a provider never redirects an API call, and
 * following one could leak the key), the body capped, every failure a value. Provider addresses
 * are the operator's configuration, not users' input, so private addresses are allowed (a proxy,
 * the test fakes); the deadline that counts is the resilience layer's signal.
 */
export function createProviderHttp(): OutboundHttp {
  return createOutboundHttp({
    allowPrivate: true,
    timeoutMs: PROVIDER_HTTP_TIMEOUT_MS,
    maxBodyBytes: MAX_PROVIDER_BODY_BYTES,
    userAgent: "Velvet/1",
  });
}

/** Far above any provider's answer (a few kB): a body cut here is malformed, not parsed. */
const MAX_PROVIDER_BODY_BYTES = 4 * 1024 * 1024;
const PROVIDER_HTTP_TIMEOUT_MS = 60_000;

/** How a provider's requests go out: the shared client, or a fetch (tests of the adapters). */
export interface ProviderTransport {
  http?: OutboundHttp;
  fetch?: FetchLike;
}

/** Sends the request; a network failure, timeout or abort comes back as a `transient` result. */
export async function send(
  provider: ProviderName,
  request: HttpRequest,
  signal: AbortSignal,
  via: ProviderTransport & { http: OutboundHttp },
): Promise<HttpAnswer | ProviderResult> {
  const headers = {
    accept: "application/json",
    ...(request.json === undefined ? {} : { "content-type": "application/json" }),
    ...request.headers,
  };
  const method = request.method ?? "GET";
  const body = request.json === undefined ? undefined : JSON.stringify(request.json);
  if (via.fetch === undefined) {
    const res = await via.http.send({ url: request.url, method, headers, body }, signal);
    if (res.kind !== "answered") return failedExchange(provider, new Error(res.error), signal);
    const parsed = parseJson(res.body);
    return {
      status: res.status,
      headers: toHeaders(res.headers),
      body: parsed.body,
      isJson: parsed.isJson,
    };
  }
  try {
    const response = await via.fetch(request.url, {
      method,
      headers,
      body,
      redirect: "manual",
      signal,
    });
    const parsed = parseJson(await response.text());
    return {
      status: response.status,
      headers: response.headers,
      body: parsed.body,
      isJson: parsed.isJson,
    };
  } catch (error) {
    return failedExchange(provider, error, signal);
  }
}

function toHeaders(raw: Record<string, string | string[] | undefined>): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(raw)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.append(name, value);
  }
  return headers;
}

export function isAnswer(value: HttpAnswer | ProviderResult): value is HttpAnswer {
  return "status" in value && "headers" in value;
}

/**
 * The standard reading of a non-2xx status (see the table above). The attempt log carries the
 * provider's own words: `said` reads them from an error body whose shape the common reading
 * (errorMessage: `error.message`, `message`, `description`, `error`) does not know.
 */
export function classifyStatus(
  provider: ProviderName,
  answer: HttpAnswer,
  now: number,
  said?: (body: unknown) => string | undefined,
): ProviderResult {
  const { status, body } = answer;
  const raw = body;
  if (status === 404) return { kind: "not_found", provider, httpStatus: status, raw };
  const own = said?.(body)?.trim();
  const message = `HTTP ${status}${own ? `: ${preview(own)}` : errorMessage(body)}`;
  if (status === 429) {
    const retryAfterMs = retryAfterFromHeaders(answer.headers, now) ?? DEFAULT_429_RETRY_MS;
    return {
      kind: "transient",
      provider,
      httpStatus: status,
      error: message,
      retryAfterMs,
      cause: "rate_limited",
      raw,
    };
  }
  if (status === 408 || status >= 500) {
    const retryAfterMs = retryAfterFromHeaders(answer.headers, now);
    const cause = status === 408 ? "timeout" : "server_error";
    return {
      kind: "transient",
      provider,
      httpStatus: status,
      error: message,
      cause,
      raw,
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    };
  }
  return {
    kind: "permanent",
    provider,
    httpStatus: status,
    error: message,
    cause: permanentCause(status),
    raw,
  };
}

/** Without a Retry-After a 429 still waits a little, so a burst does not come straight back. */
export const DEFAULT_429_RETRY_MS = 5_000;

/** Validates a 2xx body; a body that is not JSON or misses the fields we read is permanent. */
export function parseBody<S extends z.ZodType>(
  provider: ProviderName,
  answer: HttpAnswer,
  schema: S,
): { ok: true; data: z.output<S> } | { ok: false; result: ProviderResult } {
  if (!answer.isJson) {
    const error = `HTTP ${answer.status} with a body that is not JSON: ${preview(answer.body)}`;
    return { ok: false, result: malformed(provider, answer, error) };
  }
  const parsed = schema.safeParse(answer.body);
  if (parsed.success) return { ok: true, data: parsed.data };
  const where = parsed.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`)
    .join("; ");
  return { ok: false, result: malformed(provider, answer, `unexpected response shape (${where})`) };
}

function malformed(provider: ProviderName, answer: HttpAnswer, error: string): ProviderResult {
  const raw = answer.body;
  return {
    kind: "permanent",
    provider,
    httpStatus: answer.status,
    error,
    cause: "malformed_response",
    raw,
  };
}

function failedExchange(
  provider: ProviderName,
  error: unknown,
  signal: AbortSignal,
): ProviderResult {
  if (signal.aborted) {
    const reason: unknown = signal.reason;
    const timedOut = reason instanceof Error && reason.name === "TimeoutError";
    const text = timedOut ? "timed out" : "aborted by the caller";
    return {
      kind: "transient",
      provider,
      httpStatus: null,
      error: text,
      cause: timedOut ? "timeout" : "aborted",
    };
  }
  return {
    kind: "transient",
    provider,
    httpStatus: null,
    error: `network error: ${describe(error)}`,
    cause: "network",
  };
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // fetch wraps the socket's error as its cause; undici's request throws it as it is.
  const cause: unknown = error.cause;
  const inner = cause instanceof Error ? cause : error;
  const code = (inner as NodeJS.ErrnoException).code;
  return code === undefined ? inner.message : `${code} (${inner.message})`;
}

function permanentCause(status: number): PermanentCause {
  if (status === 400 || status === 422) return "bad_request";
  if (status === 401 || status === 403) return "auth";
  if (status === 402) return "credits";
  return "unexpected_status";
}

/** The provider's own words, from the error shapes most providers use. */
function errorMessage(body: unknown): string {
  if (typeof body === "string") return body.trim() === "" ? "" : `: ${preview(body)}`;
  if (body === null || typeof body !== "object") return "";
  const b = body as Record<string, unknown>;
  const nested =
    b.error !== null && typeof b.error === "object" ? (b.error as Record<string, unknown>) : {};
  const text = [nested.message, b.message, b.description, b.error].find(
    (v): v is string => typeof v === "string" && v.trim() !== "",
  );
  return text === undefined ? "" : `: ${preview(text)}`;
}

function preview(value: unknown): string {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > MAX_ERROR_TEXT ? `${flat.slice(0, MAX_ERROR_TEXT)}…` : flat;
}

function parseJson(text: string): { body: unknown; isJson: boolean } {
  try {
    return { body: JSON.parse(text), isJson: true };
  } catch {
    return { body: text, isJson: false };
  }
}
