/**
 * A merchant's webhook receiver on loopback, as a Standard Webhooks consumer runs one: every
 * request is recorded with its raw body (signatures are over the exact bytes) and headers;
 * replies are scripted per call (the queue empties, then 204), including a hang (for a worker
 * killed mid-delivery) and statuses with Retry-After.
 */
import {
  type FakeAnswer,
  type FakeRequest,
  startFakeHttpService,
} from "../support/fake-http-service.js";

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

function received(request: FakeRequest): ReceivedWebhook {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(request.headers)) if (typeof v === "string") headers[k] = v;
  return { path: request.url, headers, raw: request.raw, body: JSON.parse(request.raw) };
}

export async function startWebhookReceiver(): Promise<FakeWebhookReceiver> {
  const requests: ReceivedWebhook[] = [];
  const service = await startFakeHttpService({
    answer: () => ({ status: 204 }),
    onRequest: (request) => requests.push(received(request)),
  });
  return {
    url: `${service.url}/hooks/velvet`,
    requests,
    // A scripted reply's body is text, as a receiver's error page is.
    reply: (...replies) =>
      service.script(
        ...replies.map((r): FakeAnswer => ("hangMs" in r ? r : { ...r, body: r.body ?? "" })),
      ),
    close: () => service.close(),
  };
}
