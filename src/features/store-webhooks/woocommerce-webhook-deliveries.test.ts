/**
 * The fake WooCommerce's deliveries keep WooCommerce's rules (class-wc-webhook.php), so the
 * inbound endpoint is tested against what real stores send: the signature is the base64
 * HMAC-SHA256 of the exact bytes (PHP's JSON, `\/` and `\uXXXX`, which a re-serialisation does
 * not reproduce); WooCommerce's headers; a failed delivery is never retried; the 7th failure in
 * a row disables the webhook (more than `woocommerce_max_webhook_delivery_failures`, 5, already
 * counted), a success resets the count, and setting a disabled webhook active keeps its count;
 * a ping answered with anything but 200 leaves the webhook pending and pinged again at each save;
 * updateOrder moves the order's date_modified_gmt for the polling API too, and a delivery
 * carries the order as it is when the delivery runs (build_payload).
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type FakeWooCommerce,
  startFakeWooCommerce,
  wooOrder,
} from "../../../test/fakes/woocommerce-rest.js";
import {
  WOO_MAX_DELIVERY_FAILURES,
  WOO_USER_AGENT,
} from "../../../test/fakes/woocommerce-webhook-delivery.js";
import { startWooInbox, type WooInbox } from "../../../test/support/woo-inbox.js";
import { createPlatformHttp } from "../store-sync/platform-http.js";
import { createWooCommerceWebhooks } from "./woocommerce-webhooks.js";

const signal = new AbortController().signal;
const SECRET = "s3cret/with+symbols=";

describe("the fake WooCommerce's webhook deliveries", () => {
  const http = createPlatformHttp({ allowPrivate: true, timeoutMs: 10_000 });
  let inbox: WooInbox;
  let woo: FakeWooCommerce;

  beforeAll(async () => {
    inbox = await startWooInbox();
  });
  afterAll(async () => {
    await inbox.close();
    await http.close();
  });
  afterEach(async () => {
    await woo.deliveriesSettled();
    await woo.close();
    inbox.requests.length = 0;
    inbox.answer("delivery");
    inbox.answer("ping");
  });

  /** A site with Velvet's two webhooks; answers the order.created one. */
  const subscribed = async () => {
    woo = await startFakeWooCommerce();
    const credentials = { platform: "woocommerce" as const, key: woo.key, secret: woo.secret };
    const client = createWooCommerceWebhooks(http, woo.url, credentials);
    await client.subscribe(`${inbox.url}/woo`, SECRET, signal);
    const hook = woo.webhooks.find((w) => w.topic === "order.created");
    if (hook === undefined) throw new Error("order.created webhook expected");
    return { hook, client };
  };
  const deliveries = () => woo.deliveries.filter((d) => d.kind === "delivery");
  const place = async (count = 1) => {
    for (let i = 0; i < count; i++)
      woo.placeOrder(wooOrder(`p${i}-${Date.now()}@example.com`, new Date()));
    await woo.deliveriesSettled();
  };

  it("signs the exact bytes, PHP-encoded, with WooCommerce's headers", async () => {
    const { hook } = await subscribed();
    woo.placeOrder(wooOrder("zoe@example.com", new Date(), { first: "Zoë", last: "Lévy/Martin" }));
    await woo.deliveriesSettled();
    const got = inbox.requests.find((r) => r.headers["x-wc-webhook-topic"] === "order.created");
    if (got === undefined) throw new Error("no delivery");
    const expected = createHmac("sha256", SECRET).update(got.raw).digest();
    const said = Buffer.from(got.headers["x-wc-webhook-signature"] ?? "", "base64");
    expect(said.length === expected.length && timingSafeEqual(said, expected)).toBe(true);
    // PHP's json_encode: `\/` and `\u00eb`; parsing and re-serialising gives other bytes.
    expect(got.text).toContain("L\\u00e9vy\\/Martin");
    const again = createHmac("sha256", SECRET).update(JSON.stringify(JSON.parse(got.text)));
    expect(again.digest("base64")).not.toBe(got.headers["x-wc-webhook-signature"]);
    expect(got.headers).toMatchObject({
      "content-type": "application/json",
      "user-agent": WOO_USER_AGENT,
      "x-wc-webhook-source": `${woo.url}/`,
      "x-wc-webhook-topic": "order.created",
      "x-wc-webhook-resource": "order",
      "x-wc-webhook-event": "created",
      "x-wc-webhook-id": String(hook.id),
    });
    expect(got.headers["x-wc-webhook-delivery-id"]).toMatch(/^[0-9a-f]{32}$/);
  });

  it("never retries a failed delivery; a lost one counts as a failure too", async () => {
    const { hook } = await subscribed();
    inbox.answer("delivery", 500);
    await place();
    expect(deliveries()).toHaveLength(1);
    expect(deliveries()[0]).toMatchObject({ status: 500, ok: false });
    woo.dropNextDeliveries(1);
    await place();
    expect(deliveries()).toHaveLength(2);
    expect(deliveries()[1]).toMatchObject({ status: null, ok: false });
    expect(inbox.requests.filter((r) => r.headers["x-wc-webhook-id"])).toHaveLength(1);
    expect(hook.failure_count).toBe(2);
  });

  it("the 7th failure in a row disables the webhook, and nothing is delivered after", async () => {
    const { hook } = await subscribed();
    inbox.answer("delivery", 503);
    await place(WOO_MAX_DELIVERY_FAILURES + 1);
    expect(hook).toMatchObject({ status: "active", failure_count: 6 });
    await place();
    expect(hook).toMatchObject({ status: "disabled", failure_count: 6 });
    expect(deliveries()).toHaveLength(WOO_MAX_DELIVERY_FAILURES + 2);
    inbox.answer("delivery");
    await place();
    expect(deliveries()).toHaveLength(WOO_MAX_DELIVERY_FAILURES + 2);
  });

  it("a success (2xx, 301, 302) resets the count; a 303 or a 4xx is a failure", async () => {
    const { hook } = await subscribed();
    inbox.answer("delivery", 500, 500, 500, 302);
    await place(4);
    expect(hook.failure_count).toBe(0);
    inbox.answer("delivery", 303, 410);
    await place(2);
    expect(hook.failure_count).toBe(2);
    inbox.answer("delivery", 202);
    await place();
    expect(hook).toMatchObject({ status: "active", failure_count: 0 });
  });

  it("set active again through the API, a disabled webhook keeps its count: one failure disables it", async () => {
    const { hook } = await subscribed();
    inbox.answer("delivery", 500);
    await place(WOO_MAX_DELIVERY_FAILURES + 2);
    expect(hook.status).toBe("disabled");
    const auth = Buffer.from(`${woo.key}:${woo.secret}`).toString("base64");
    const res = await fetch(`${woo.url}/wp-json/wc/v3/webhooks/${hook.id}`, {
      method: "PUT",
      headers: { authorization: `Basic ${auth}`, "content-type": "application/json" },
      body: JSON.stringify({ status: "active" }),
    });
    expect(res.status).toBe(200);
    expect(hook).toMatchObject({ status: "active", failure_count: 6 });
    await place();
    expect(hook.status).toBe("disabled");
  });

  it("updateOrder delivers order.updated and moves the order for the polling API", async () => {
    await subscribed();
    const order = wooOrder("move@example.com", new Date(Date.now() - 3_600_000));
    woo.placeOrder(order);
    const before = order.date_modified_gmt;
    woo.updateOrder(order.id, { status: "refunded" });
    await woo.deliveriesSettled();
    expect(order.date_modified_gmt > before).toBe(true);
    const updated = inbox.requests.find((r) => r.headers["x-wc-webhook-topic"] === "order.updated");
    expect(JSON.parse(updated?.text ?? "{}")).toMatchObject({ id: order.id, status: "refunded" });
    // The order.created delivery ran after the change: its payload is the order as it is then.
    const created = inbox.requests.find((r) => r.headers["x-wc-webhook-topic"] === "order.created");
    expect(JSON.parse(created?.text ?? "{}")).toMatchObject({ id: order.id, status: "refunded" });
    const auth = Buffer.from(`${woo.key}:${woo.secret}`).toString("base64");
    const bound = before.replace(/Z$/, "");
    const res = await fetch(
      `${woo.url}/wp-json/wc/v3/orders?modified_after=${bound}&dates_are_gmt=true`,
      { headers: { authorization: `Basic ${auth}` } },
    );
    expect(((await res.json()) as Array<{ id: number }>).map((o) => o.id)).toEqual([order.id]);
  });

  it("a ping answered other than 200 leaves the webhook pending: each delivery then pings again", async () => {
    inbox.answer("ping", 204);
    const { hook } = await subscribed();
    expect(hook.pending_delivery).toBe(true);
    const kinds = () => woo.deliveries.filter((d) => d.webhookId === hook.id).map((d) => d.kind);
    expect(kinds()).toEqual(["ping"]);
    await place();
    expect(kinds()).toEqual(["ping", "delivery", "ping"]);
    inbox.answer("ping");
    await place();
    expect(hook.pending_delivery).toBe(false);
    await place();
    expect(kinds()).toEqual(["ping", "delivery", "ping", "delivery", "ping", "delivery"]);
  });

  it("a paused webhook delivers nothing", async () => {
    const { hook } = await subscribed();
    woo.setWebhookStatus(hook.id, "paused");
    await place();
    expect(deliveries().filter((d) => d.webhookId === hook.id)).toHaveLength(0);
  });
});
