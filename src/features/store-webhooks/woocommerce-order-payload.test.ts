/**
 * A WooCommerce order delivery read as an order: the payload the fake WooCommerce delivers
 * (the REST API's order JSON, PHP-encoded) gives the same PulledOrder as the polling API's JSON
 * for the same order; a cancelled order keeps its status and does not count; a pending one is
 * skipped; a ping or a deleted order's `{id}` is not an order.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FakeWooCommerce,
  startFakeWooCommerce,
  wooOrder,
} from "../../../test/fakes/woocommerce-rest.js";
import { startWooInbox, type WooInbox } from "../../../test/support/woo-inbox.js";
import { createPlatformHttp } from "../store-sync/platform-http.js";
import { mapWooOrder, WooOrder } from "../store-sync/woocommerce-order.js";
import { mapWooWebhookOrder, wooPingWebhookId } from "./woocommerce-order-payload.js";
import { createWooCommerceWebhooks } from "./woocommerce-webhooks.js";

const signal = new AbortController().signal;

describe("a WooCommerce order delivery, mapped", () => {
  const http = createPlatformHttp({ allowPrivate: true, timeoutMs: 10_000 });
  let inbox: WooInbox;
  let woo: FakeWooCommerce;

  beforeAll(async () => {
    inbox = await startWooInbox();
    woo = await startFakeWooCommerce({ utcOffsetMinutes: 120 });
    const credentials = { platform: "woocommerce" as const, key: woo.key, secret: woo.secret };
    await createWooCommerceWebhooks(http, woo.url, credentials).subscribe(
      `${inbox.url}/woo`,
      "payload-secret",
      signal,
    );
  });
  afterAll(async () => {
    await woo.deliveriesSettled();
    await woo.close();
    await inbox.close();
    await http.close();
  });

  /** The order as the polling API lists it. */
  const polled = async (id: number) => {
    const auth = Buffer.from(`${woo.key}:${woo.secret}`).toString("base64");
    const res = await fetch(`${woo.url}/wp-json/wc/v3/orders?per_page=100`, {
      headers: { authorization: `Basic ${auth}` },
    });
    const list = (await res.json()) as Array<{ id: number }>;
    return WooOrder.parse(list.find((o) => o.id === id));
  };
  const delivered = async (id: number, topic: string) => {
    await woo.deliveriesSettled();
    const hit = inbox.requests.find(
      (r) =>
        r.headers["x-wc-webhook-topic"] === topic &&
        (JSON.parse(r.text) as { id: number; status: string }).id === id,
    );
    if (hit === undefined) throw new Error(`no ${topic} delivery for order ${id}`);
    return hit;
  };

  it("order.created gives the same submission as the polling API's JSON, raw or parsed", async () => {
    const order = wooOrder("jose@example.com", new Date(Date.now() - 60_000), { first: "José" });
    woo.placeOrder(order);
    const hit = await delivered(order.id, "order.created");
    const fromPayload = mapWooWebhookOrder(JSON.parse(hit.text));
    expect(fromPayload).toEqual(mapWooOrder(await polled(order.id)));
    expect(mapWooWebhookOrder(hit.text)).toEqual(fromPayload);
    expect(fromPayload).toMatchObject({
      kind: "order",
      externalId: String(order.id),
      status: "processing",
      counts: true,
    });
  });

  it("a cancelled order (order.updated) keeps its status and does not count", async () => {
    const order = wooOrder("cancel@example.com", new Date(Date.now() - 120_000));
    woo.placeOrder(order);
    woo.updateOrder(order.id, { status: "cancelled" });
    const hit = await delivered(order.id, "order.updated");
    const mapped = mapWooWebhookOrder(JSON.parse(hit.text));
    expect(mapped).toMatchObject({ kind: "order", status: "cancelled", counts: false });
    expect(mapped).toEqual(mapWooOrder(await polled(order.id)));
  });

  it("a pending order is skipped as awaiting payment, as a pass skips it", async () => {
    const order = wooOrder("pending@example.com", new Date(), { status: "pending" });
    woo.placeOrder(order);
    const hit = await delivered(order.id, "order.created");
    expect(mapWooWebhookOrder(JSON.parse(hit.text))).toMatchObject({
      kind: "skip",
      externalId: String(order.id),
      reason: "awaiting payment",
    });
  });

  it("a ping, a deleted order's id and anything else are not orders", () => {
    expect(mapWooWebhookOrder("webhook_id=41")).toBeNull();
    expect(mapWooWebhookOrder({ id: 5012 })).toBeNull();
    expect(mapWooWebhookOrder(null)).toBeNull();
    expect(mapWooWebhookOrder("{not json")).toBeNull();
    expect(wooPingWebhookId("webhook_id=41")).toBe("41");
    expect(wooPingWebhookId('{"id":41}')).toBeNull();
  });
});
