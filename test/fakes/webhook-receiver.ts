/**
 * A merchant's webhook receiver on loopback (node:http), as a Standard Webhooks consumer runs
 * one: every request is recorded with its raw body (signatures are over the exact bytes) and
 * headers; replies are scripted per call (the queue empties, then 204), including a hang (for a
 * worker killed mid-delivery) and statuses with Retry-After.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export type ReceiverReply =
  | { status: number; body?: string; headers?: Record<string, string> }
  | { hangMs: number };

export interface ReceivedWebhook {
  path: string;
  headers: Record<string, string>;
  raw: string;
  body: { type: string; timestamp: string; data: Record<string, unknown> };
}

export interface FakeWebhookReceiver {
  url: string;
  requests: ReceivedWebhook[];
  reply(...replies: ReceiverReply[]): void;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<FakeWebhookReceiver> {
  const queue: ReceiverReply[] = [];
  const requests: ReceivedWebhook[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8");
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
      requests.push({ path: req.url ?? "", headers, raw, body: JSON.parse(raw) });
      const reply = queue.shift() ?? { status: 204 };
      if ("hangMs" in reply) {
        const timer = setTimeout(() => res.writeHead(204).end(), reply.hangMs);
        res.on("close", () => clearTimeout(timer));
        return;
      }
      res.writeHead(reply.status, { "content-type": "text/plain", ...reply.headers });
      res.end(reply.body ?? "");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks/velvet`,
    requests,
    reply: (...replies) => queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
