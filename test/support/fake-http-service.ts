/**
 * The skeleton every fake outside service shares: a real HTTP server on 127.0.0.1 (a random
 * port) that reads each request whole, records it, and answers it with the next scripted answer
 * when one is queued (`script`), else with what the fake's own rules say (`answer`). A fake is
 * then only its platform's rules, each with its source beside it (test/fakes/).
 *
 * A scripted answer is sent as it is, before the fake's rules see the request: use it for the
 * outages a platform has (a 503 with Retry-After, a hang), never to make the platform kinder.
 */
import http, { type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

export interface FakeRequest {
  method: string;
  /** The path and query as sent (`/api/profiles?filter=…`). */
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** The body's exact text (signatures are over these bytes). */
  raw: string;
}

export type FakeAnswer =
  | {
      status: number;
      /** Text as is; anything else as JSON. Absent: no body. */
      body?: unknown;
      headers?: Record<string, string>;
    }
  /** No answer for this long (then a 204), or until the client gives up. */
  | { hangMs: number };

export interface FakeHttpService {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  requests: FakeRequest[];
  /** Queues answers for the next requests, in order; then the fake's rules answer again. */
  script(...answers: FakeAnswer[]): void;
  close(): Promise<void>;
}

export interface FakeHttpServiceOptions {
  /** The fake's rules: its answer to a request nothing was scripted for. */
  answer(request: FakeRequest): FakeAnswer;
  /** The content type of a JSON body (default application/json). */
  jsonType?: string;
  /** Sees every request as it arrives, scripted or not (a fake's own typed log). */
  onRequest?(request: FakeRequest): void;
  /** Headers on every answer (Shopify's `x-shopify-api-version`). */
  headersFor?(request: FakeRequest): Record<string, string>;
}

export async function startFakeHttpService(
  options: FakeHttpServiceOptions,
): Promise<FakeHttpService> {
  const requests: FakeRequest[] = [];
  const queue: FakeAnswer[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://fake");
      const request: FakeRequest = {
        method: req.method ?? "GET",
        url: req.url ?? "/",
        path: url.pathname,
        query: url.searchParams,
        headers: req.headers,
        raw: Buffer.concat(chunks).toString("utf8"),
      };
      requests.push(request);
      options.onRequest?.(request);
      const answer = queue.shift() ?? options.answer(request);
      if ("hangMs" in answer) {
        const timer = setTimeout(() => res.writeHead(204).end(), answer.hangMs);
        res.on("close", () => clearTimeout(timer));
        return;
      }
      const headers = { ...options.headersFor?.(request), ...answer.headers };
      if (answer.body === undefined) {
        res.writeHead(answer.status, headers).end();
        return;
      }
      const text = typeof answer.body === "string";
      res.writeHead(answer.status, {
        "content-type": text ? "text/plain" : (options.jsonType ?? "application/json"),
        ...headers,
      });
      res.end(text ? answer.body : JSON.stringify(answer.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (...answers) => queue.push(...answers),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
