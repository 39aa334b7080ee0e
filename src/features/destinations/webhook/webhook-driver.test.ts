/**
 * The webhook driver against a receiver on loopback, through the process's real outbound client:
 * how each answer is read as the Standard Webhooks spec advises (2xx delivered, 3xx failed at
 * once, 410 Gone failed and marking the destination gone, others retried), and the time a
 * receiver is given to answer (15–30 s in the spec; 20 s here).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FakeWebhookReceiver,
  startWebhookReceiver,
} from "../../../../test/fakes/webhook-receiver.js";
import type { Deps } from "../../../deps.js";
import {
  createOutboundHttp,
  type OutboundHttp,
  type OutboundRequest,
} from "../../../lib/outbound/outbound-http.js";
import type { DriverDeps, OpenDestination } from "../destination-driver.js";
import { newWebhookSecret } from "./sign-webhook.js";
import { WEBHOOK_TIMEOUT_MS, webhookDriver } from "./webhook-driver.js";

describe("the webhook driver's reading of answers", () => {
  let receiver: FakeWebhookReceiver;
  let http: OutboundHttp;
  const sent: OutboundRequest[] = [];
  const driver = webhookDriver({ allowPrivate: true });

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    const real = createOutboundHttp({
      allowPrivate: true,
      timeoutMs: 10_000,
      maxBodyBytes: 64 * 1024,
      userAgent: "Velvet/1",
    });
    http = {
      send: (req, signal) => {
        sent.push(req);
        return real.send(req, signal);
      },
      close: () => real.close(),
    };
  });
  afterAll(async () => {
    await http?.close();
    await receiver?.close();
  });

  const destination = (): OpenDestination => ({
    id: "0193a0e4-0000-7000-8000-000000000001",
    accountId: "0193a0e4-0000-7000-8000-000000000002",
    kind: "webhook",
    target: receiver.url,
    settings: { url: receiver.url },
    secret: newWebhookSecret(),
  });
  const send = () => {
    const deps = { http, clock: { now: () => Date.now() } } as unknown as DriverDeps & Deps;
    const body = JSON.stringify({ type: "customer.enriched", timestamp: "t", data: {} });
    return driver.send(
      deps,
      destination(),
      { id: "0193a0e4-0000-7000-8000-000000000003", event: "customer.enriched", body },
      AbortSignal.timeout(30_000),
    );
  };

  it("gives the receiver 20 s to answer, within the 15–30 s the spec recommends", async () => {
    expect(WEBHOOK_TIMEOUT_MS).toBeGreaterThanOrEqual(15_000);
    expect(WEBHOOK_TIMEOUT_MS).toBeLessThanOrEqual(30_000);
    sent.length = 0;
    expect(await send()).toEqual({ outcome: "delivered", statusCode: 204, error: null });
    expect(sent[0]?.timeoutMs).toBe(20_000);
  });

  it("fails a redirect at once, without following it: the URL is wrong, a retry cannot help", async () => {
    const before = receiver.requests.length;
    receiver.reply({ status: 301, headers: { location: `${receiver.url}/moved` } });
    const result = await send();
    expect(result).toMatchObject({ outcome: "failed", statusCode: 301 });
    expect(result.outcome === "failed" && result.gone).toBeFalsy();
    expect(result.outcome === "failed" ? result.error : "").toMatch(/redirects are not followed/);
    expect(receiver.requests.length).toBe(before + 1);
    receiver.reply({ status: 307 });
    expect(await send()).toMatchObject({ outcome: "failed", statusCode: 307 });
  });

  it("reads 410 Gone as the receiver wanting no more: failed, and gone", async () => {
    receiver.reply({ status: 410, body: "endpoint removed" });
    expect(await send()).toEqual({
      outcome: "failed",
      statusCode: 410,
      error: "410 endpoint removed",
      gone: true,
    });
  });

  it("retries any other failure, with the receiver's Retry-After", async () => {
    receiver.reply({ status: 503, body: "deploying", headers: { "retry-after": "7" } });
    expect(await send()).toMatchObject({ outcome: "retry", statusCode: 503, delayMs: 7_000 });
    receiver.reply({ status: 404 });
    expect(await send()).toMatchObject({ outcome: "retry", statusCode: 404 });
  });
});
