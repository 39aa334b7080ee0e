import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { newWebhookSecret, signedHeaders } from "./sign-webhook.js";

describe("Standard Webhooks signing", () => {
  it("signs what the standardwebhooks library verifies, and nothing else", () => {
    const secret = newWebhookSecret();
    expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(32);
    const body = JSON.stringify({
      type: "customer.vip",
      timestamp: "2026-01-01T00:00:00Z",
      data: {},
    });
    const headers = signedHeaders(secret, "msg_1", Date.now(), body);
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(JSON.parse(body));
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow();
    expect(() => new Webhook(secret).verify(body, { ...headers, "webhook-id": "msg_2" })).toThrow();
    // A timestamp outside the receiver's tolerance (5 minutes) is refused: replays fail.
    const old = signedHeaders(secret, "msg_1", Date.now() - 10 * 60_000, body);
    expect(() => new Webhook(secret).verify(body, old)).toThrow();
  });
});
