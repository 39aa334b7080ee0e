/**
 * A fake Slack incoming webhook on loopback (node:http), answering as Slack does: 200 `ok`,
 * 400 `invalid_payload`/`no_text`, 403 `invalid_token`/`action_prohibited`, 404
 * `channel_not_found`/`no_service`, 410 `channel_is_archived`, 429 `rate_limited` with
 * Retry-After, 500 `server_error`; bodies are text/html as Slack sends them. Replies are
 * scripted per call (the queue empties, then the standing reply, `ok` unless `always` changed
 * it); every request is recorded.
 *
 * With `rateLimit`, Slack's rule for an incoming webhook applies: about one message per second,
 * short bursts tolerated (a token bucket of `burst` messages refilled one per `intervalMs`); a
 * message beyond it is refused with 429 `rate_limited` and Retry-After, and not posted. A test
 * that scales time down scales `intervalMs` with it.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type SlackError =
  | "invalid_payload"
  | "no_text"
  | "invalid_token"
  | "action_prohibited"
  | "channel_not_found"
  | "no_service"
  | "channel_is_archived";

export type ChatReply =
  | "ok"
  | SlackError
  | "server_error"
  | { rateLimited: number } // 429 with Retry-After: <seconds>
  | { redirect: string; status?: 301 | 302 | 307 | 308 }
  | { hangMs: number } // answer `ok` only after this long
  | { status: number; body: string; headers?: Record<string, string> };

export interface ChatRequest {
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The JSON body, parsed. */
  body: unknown;
  at: number;
}

export interface FakeChatServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** A Slack-shaped webhook URL on this server. */
  webhookUrl: string;
  port: number;
  requests: ChatRequest[];
  /** Queues the next replies, in order. */
  reply(...replies: ChatReply[]): void;
  /** The reply once the queue is empty (`ok` to begin with): an outage is `always("server_error")`. */
  always(reply: ChatReply): void;
  /** How many requests the rate limit refused. */
  rateLimited(): number;
  close(): Promise<void>;
}

const STATUS: Record<SlackError, number> = {
  invalid_payload: 400,
  no_text: 400,
  invalid_token: 403,
  action_prohibited: 403,
  channel_not_found: 404,
  no_service: 404,
  channel_is_archived: 410,
};

export interface ChatServerOptions {
  rateLimit?: { intervalMs: number; burst: number };
}

export async function startChatServer(options: ChatServerOptions = {}): Promise<FakeChatServer> {
  const queue: ChatReply[] = [];
  const requests: ChatRequest[] = [];
  let standing: ChatReply = "ok";
  let refused = 0;
  const limit = options.rateLimit;
  let tokens = limit?.burst ?? 0;
  let refilledAt = performance.now();
  /** Slack's per-webhook limit: false when this message is over it. */
  const withinLimit = (): boolean => {
    if (limit === undefined) return true;
    const now = performance.now();
    tokens = Math.min(limit.burst, tokens + (now - refilledAt) / limit.intervalMs);
    refilledAt = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const text = Buffer.concat(chunks).toString("utf8");
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // Recorded as text: the test then sees a payload that is not JSON.
      }
      requests.push({ path: req.url ?? "", headers: req.headers, body, at: Date.now() });
      if (!withinLimit()) {
        refused++;
        answer(res, { rateLimited: 1 });
        return;
      }
      answer(res, queue.shift() ?? standing);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    webhookUrl: `${origin}/services/T0001/B0002/abcdefghijklmnopqrstuvwx`,
    requests,
    reply: (...replies) => queue.push(...replies),
    always: (reply) => {
      standing = reply;
    },
    rateLimited: () => refused,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function answer(res: http.ServerResponse, reply: ChatReply): void {
  const send = (status: number, body: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { "content-type": "text/html", ...headers });
    res.end(body);
  };
  if (reply === "ok") send(200, "ok");
  else if (reply === "server_error") send(500, "server_error");
  else if (typeof reply === "string") send(STATUS[reply], reply);
  else if ("rateLimited" in reply)
    send(429, "rate_limited", { "retry-after": String(reply.rateLimited) });
  else if ("redirect" in reply) send(reply.status ?? 302, "", { location: reply.redirect });
  else if ("hangMs" in reply) {
    const timer = setTimeout(() => send(200, "ok"), reply.hangMs);
    res.on("close", () => clearTimeout(timer));
  } else send(reply.status, reply.body, reply.headers);
}
