/**
 * A fake Slack incoming webhook on loopback (node:http), answering as Slack does: 200 `ok`,
 * 400 `invalid_payload`/`no_text`, 403 `invalid_token`/`action_prohibited`, 404
 * `channel_not_found`/`no_service`, 410 `channel_is_archived`, 429 `rate_limited` with
 * Retry-After, 500 `server_error`; bodies are text/html as Slack sends them. Replies are
 * scripted per call (the queue empties, then `ok`); every request is recorded.
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

export async function startChatServer(): Promise<FakeChatServer> {
  const queue: ChatReply[] = [];
  const requests: ChatRequest[] = [];
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
      answer(res, queue.shift() ?? "ok");
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
