/**
 * The engine shared by the provider fakes: a real HTTP server on 127.0.0.1 (random port) that
 * checks each request the way the provider does (path, query, auth), then answers with a
 * behaviour scripted per e-mail or per call, in that provider's wire format, and logs it.
 *
 * Scripting: `setBehaviour(email, b)` for one e-mail, `setDefaultBehaviour(b)` for all others
 * (default: a match). An array is a per-call sequence: each call takes the next behaviour and
 * the last one repeats, e.g. `[{kind:"error",status:503}, {kind:"match"}]` = fail once, then match.
 */
import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { type FakePerson, fakePerson } from "./person.js";

/** A fixed delay in ms, or a uniform random one (the benchmark uses 2–5 s). */
export type Delay = number | { minMs: number; maxMs: number };

export type Behaviour = { delay?: Delay } & (
  | { kind: "match"; person?: Partial<FakePerson> }
  | { kind: "not_found" }
  /** The provider's own error body with this status (400, 401, 402, 403, 500, 503, …). */
  | { kind: "error"; status: number; retryAfter?: string }
  /** 429; `retryAfter` sets Retry-After, `rateLimitReset` sets X-RateLimit-Reset. */
  | { kind: "rate_limited"; retryAfter?: string; rateLimitReset?: string }
  /** A 200 whose body is this text (default: an HTML error page, not JSON). */
  | { kind: "malformed"; body?: string }
  /** Any answer, for shapes the other kinds do not cover (FullContact's 202, an empty 200). */
  | { kind: "raw"; status: number; body?: unknown; headers?: Record<string, string> }
  /** Never answers; the client must give up (timeouts). */
  | { kind: "hang" }
);

export interface LoggedRequest {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** The e-mail asked about (for Gravatar, when the hash belongs to a scripted e-mail). */
  email: string | null;
  at: number;
}

export interface Answer {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

/** How one provider speaks: request checks and body formats. */
export interface Protocol {
  /** The lookup key for an e-mail (the e-mail itself, or Gravatar's hash). */
  keyFor(email: string): string;
  /** Checks path, query, auth and body; answers an error itself when the request is wrong. */
  route(
    request: LoggedRequest,
    apiKey: string | null,
  ): { key: string; email: string | null } | { answer: Answer };
  match(person: FakePerson, email: string, request: LoggedRequest): unknown;
  /**
   * The answer to a request whose person exists, when the provider's own rules may turn it into
   * something else (PDL's `min_likelihood`); without it, a 200 with `match`.
   */
  matchAnswer?(person: FakePerson, email: string, request: LoggedRequest): Answer;
  /** Whether the provider bills this answer (PDL: a 200, a match); without it nothing is counted. */
  bills?(answer: Answer): boolean;
  /** Forgets the protocol's own state (Gravatar's hourly counts) on the fake's `reset()`. */
  reset?(): void;
  error(status: number): unknown;
}

export interface FakeProviderOptions {
  /** The key the fake accepts (Gravatar: null = no key required, a wrong one is still refused). */
  apiKey?: string | null;
  defaultBehaviour?: Behaviour | Behaviour[];
  /** Keep at most this many logged requests (default 10,000; the benchmark sends many). */
  maxLog?: number;
}

export interface FakeProvider {
  url: string;
  apiKey: string | null;
  requests: LoggedRequest[];
  /** All requests received, including those dropped from the log. */
  requestCount(): number;
  /** Answers the provider would bill, by its protocol's rule (0 for a fake without one). */
  billedCount(): number;
  setBehaviour(email: string, behaviour: Behaviour | Behaviour[]): void;
  setDefaultBehaviour(behaviour: Behaviour | Behaviour[]): void;
  /** Back to the state at start: scripts, default behaviour, request log and count. */
  reset(): void;
  close(): Promise<void>;
}

export async function startFakeProvider(
  protocol: Protocol,
  defaultKey: string | null,
  options: FakeProviderOptions,
): Promise<FakeProvider> {
  const apiKey = options.apiKey === undefined ? defaultKey : options.apiKey;
  const maxLog = options.maxLog ?? 10_000;
  const scripts = new Map<string, Behaviour[]>();
  const emails = new Map<string, string>();
  let fallback = asList(options.defaultBehaviour ?? { kind: "match" });
  const requests: LoggedRequest[] = [];
  let count = 0;
  let billed = 0;
  const reply = (res: http.ServerResponse, answer: Answer) => {
    if (res.destroyed) return;
    if (protocol.bills?.(answer)) billed += 1;
    send(res, answer);
  };

  const server = http.createServer(async (req, res) => {
    const logged = await readRequest(req);
    const routed = protocol.route(logged, apiKey);
    if ("key" in routed) logged.email = routed.email ?? emails.get(routed.key) ?? null;
    count += 1;
    requests.push(logged);
    if (requests.length > maxLog) requests.shift();
    if ("answer" in routed) return reply(res, routed.answer);
    const behaviour = next(scripts.get(routed.key) ?? fallback);
    if (behaviour.kind === "hang") return;
    const answer = answerFor(protocol, behaviour, logged, routed.key);
    const ms = delayMs(behaviour.delay);
    if (ms === 0) return reply(res, answer);
    const timer = setTimeout(() => reply(res, answer), ms);
    res.on("close", () => clearTimeout(timer));
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    apiKey,
    requests,
    requestCount: () => count,
    billedCount: () => billed,
    setBehaviour(email, behaviour) {
      const key = protocol.keyFor(email);
      emails.set(key, email.trim().toLowerCase());
      scripts.set(key, asList(behaviour));
    },
    setDefaultBehaviour(behaviour) {
      fallback = asList(behaviour);
    },
    reset() {
      scripts.clear();
      emails.clear();
      fallback = asList(options.defaultBehaviour ?? { kind: "match" });
      requests.length = 0;
      count = 0;
      billed = 0;
      protocol.reset?.();
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

function answerFor(
  protocol: Protocol,
  behaviour: Behaviour,
  request: LoggedRequest,
  key: string,
): Answer {
  const email = request.email ?? key;
  switch (behaviour.kind) {
    case "match": {
      const person = fakePerson(email, behaviour.person);
      if (protocol.matchAnswer !== undefined) return protocol.matchAnswer(person, email, request);
      return { status: 200, body: protocol.match(person, email, request) };
    }
    case "not_found":
      return { status: 404, body: protocol.error(404) };
    case "error": {
      const headers =
        behaviour.retryAfter === undefined ? undefined : { "retry-after": behaviour.retryAfter };
      return { status: behaviour.status, body: protocol.error(behaviour.status), headers };
    }
    case "rate_limited": {
      const headers: Record<string, string> = {};
      if (behaviour.retryAfter !== undefined) headers["retry-after"] = behaviour.retryAfter;
      if (behaviour.rateLimitReset !== undefined)
        headers["x-ratelimit-reset"] = behaviour.rateLimitReset;
      return { status: 429, body: protocol.error(429), headers };
    }
    case "malformed":
      return {
        status: 200,
        body: behaviour.body ?? "<html><body><h1>502 Bad Gateway</h1></body></html>",
      };
    case "raw":
      return { status: behaviour.status, body: behaviour.body ?? "", headers: behaviour.headers };
    case "hang":
      throw new Error("a hanging behaviour has no answer");
  }
}

function send(res: http.ServerResponse, answer: Answer): void {
  if (res.destroyed) return;
  const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
  const type = typeof answer.body === "string" ? "text/html; charset=utf-8" : "application/json";
  res.writeHead(answer.status, { "content-type": type, ...answer.headers });
  res.end(text);
}

async function readRequest(req: http.IncomingMessage): Promise<LoggedRequest> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString("utf8");
  const url = new URL(req.url ?? "/", "http://fake");
  let body: unknown = text === "" ? null : text;
  try {
    if (text !== "") body = JSON.parse(text);
  } catch {
    // Left as text: the protocol decides whether that is a bad request.
  }
  return {
    method: req.method ?? "GET",
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: req.headers,
    body,
    email: null,
    at: Date.now(),
  };
}

function asList(behaviour: Behaviour | Behaviour[]): Behaviour[] {
  const list = Array.isArray(behaviour) ? [...behaviour] : [behaviour];
  if (list.length === 0) throw new Error("a behaviour sequence needs at least one behaviour");
  return list;
}

/** Takes the next behaviour of a sequence; the last one stays. */
function next(list: Behaviour[]): Behaviour {
  const first = list[0] as Behaviour;
  if (list.length > 1) list.shift();
  return first;
}

function delayMs(delay: Delay | undefined): number {
  if (delay === undefined) return 0;
  if (typeof delay === "number") return delay;
  return delay.minMs + Math.random() * (delay.maxMs - delay.minMs);
}

/** The bearer token of an Authorization header, or null. */
export function bearer(headers: IncomingHttpHeaders): string | null {
  const value = headers.authorization;
  const match = typeof value === "string" ? /^Bearer\s+(.+)$/i.exec(value) : null;
  return match?.[1]?.trim() ?? null;
}
