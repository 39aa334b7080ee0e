/**
 * Velvet's side of WooCommerce's webhooks in the WooCommerce webhook tests: a loopback server
 * that records every request as it came (raw body, headers) and answers a scripted status per
 * request (default 200, what WooCommerce's ping needs). The real inbound endpoint is tested
 * with the app; this one lets the client and the fake be tested on their own.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface InboxRequest {
  headers: Record<string, string>;
  raw: Buffer;
  text: string;
  /** What the inbox answered. */
  status: number;
}

export interface WooInbox {
  url: string;
  requests: InboxRequest[];
  /** The status for requests whose body is (`ping`) or is not (`delivery`) a ping. */
  answer(kind: "ping" | "delivery", ...statuses: number[]): void;
  pings(): InboxRequest[];
  close(): Promise<void>;
}

const isPing = (text: string) => /^webhook_id=\d+$/.test(text);

export async function startWooInbox(): Promise<WooInbox> {
  const requests: InboxRequest[] = [];
  const queues: Record<"ping" | "delivery", number[]> = { ping: [], delivery: [] };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      const text = raw.toString("utf8");
      const kind = isPing(text) ? "ping" : "delivery";
      const queue = queues[kind];
      // The last scripted status stays, so "answer 500" means every answer until changed.
      const status = queue.length > 1 ? (queue.shift() ?? 200) : (queue[0] ?? 200);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === "string") headers[k] = v;
      requests.push({ headers, raw, text, status });
      res.writeHead(status, { "content-type": "text/plain" });
      res.end(status === 200 ? "ok" : "no");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    requests,
    answer(kind, ...statuses) {
      queues[kind] = statuses;
    },
    pings: () => requests.filter((r) => isPing(r.text)),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
