/**
 * The WooCommerce webhooks client against the fake WooCommerce (test/fakes/woocommerce-rest.ts
 * and woocommerce-webhooks.ts): subscribe creates Velvet's two webhooks and WooCommerce pings
 * each; a second subscribe creates nothing; a paused webhook is set active again and a disabled
 * one replaced; list and remove; a Read-only key and a ping that never arrived are refused in
 * plain words; sites on "Plain" permalinks or behind a host that strips the Authorization
 * header work, and what worked is saved.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  type FakeWooCommerce,
  type FakeWooCommerceOptions,
  startFakeWooCommerce,
  wooOrder,
} from "../../../test/fakes/woocommerce-rest.js";
import { WOO_USER_AGENT } from "../../../test/fakes/woocommerce-webhook-delivery.js";
import { startWooInbox, type WooInbox } from "../../../test/support/woo-inbox.js";
import { createPlatformHttp, PlatformError } from "../store-sync/platform-http.js";
import type { WooCredentials } from "../store-sync/woocommerce-http.js";
import {
  createWooCommerceWebhooks,
  notPingedMessage,
  READ_ONLY_KEY_MESSAGE,
  type WooCommerceWebhooksOptions,
} from "./woocommerce-webhooks.js";

const signal = new AbortController().signal;
const SECRET = "whsec-velvet-test-0123456789";

describe("WooCommerce webhooks client", () => {
  const http = createPlatformHttp({ allowPrivate: true, timeoutMs: 10_000 });
  let inbox: WooInbox;
  let woo: FakeWooCommerce | undefined;
  let saved: WooCredentials[] = [];

  beforeAll(async () => {
    inbox = await startWooInbox();
  });
  afterAll(async () => {
    await inbox.close();
    await http.close();
  });
  afterEach(async () => {
    await woo?.deliveriesSettled();
    await woo?.close();
    woo = undefined;
    inbox.requests.length = 0;
    inbox.answer("ping");
    inbox.answer("delivery");
    saved = [];
  });

  let n = 0;
  const address = () => `${inbox.url}/webhooks/woocommerce/conn-${++n}`;
  const site = async (
    options: FakeWooCommerceOptions = {},
    clientOptions: WooCommerceWebhooksOptions = {},
  ) => {
    woo = await startFakeWooCommerce(options);
    const credentials: WooCredentials = {
      platform: "woocommerce",
      key: woo.key,
      secret: woo.secret,
    };
    const client = createWooCommerceWebhooks(
      http,
      woo.url,
      credentials,
      (c) => {
        saved.push(c);
      },
      clientOptions,
    );
    return { w: woo, client };
  };
  const writes = (w: FakeWooCommerce) => w.requests.filter((r) => r.method !== "GET");

  it("subscribe creates order.created and order.updated, each pinged, named for the admin", async () => {
    const { w, client } = await site();
    const at = address();
    const subs = await client.subscribe(at, SECRET, signal);
    expect(subs.map((s) => s.topic).sort()).toEqual(["order.created", "order.updated"]);
    expect(subs.every((s) => s.active && s.address === at)).toBe(true);
    expect(w.webhooks.map((h) => h.name).sort()).toEqual([
      "Velvet: order created",
      "Velvet: order updated",
    ]);
    expect(w.webhooks.every((h) => h.secret === SECRET && h.status === "active")).toBe(true);
    // WooCommerce pinged each before answering: `webhook_id=<id>`, with its User-Agent.
    const pings = inbox.pings();
    expect(pings.map((p) => p.text).sort()).toEqual(subs.map((s) => `webhook_id=${s.id}`).sort());
    expect(pings[0]?.headers["user-agent"]).toBe(WOO_USER_AGENT);
    expect(w.webhooks.every((h) => !h.pending_delivery)).toBe(true);
  });

  it("a second subscribe creates nothing and answers the same subscriptions", async () => {
    const { w, client } = await site();
    const at = address();
    const first = await client.subscribe(at, SECRET, signal);
    const written = writes(w).length;
    const second = await client.subscribe(at, SECRET, signal);
    expect(writes(w)).toHaveLength(written);
    expect(second.map((s) => s.id).sort()).toEqual(first.map((s) => s.id).sort());
    expect(w.webhooks).toHaveLength(2);
  });

  it("a paused webhook is set active again; a disabled one is replaced by a new one", async () => {
    const { w, client } = await site();
    const at = address();
    const first = await client.subscribe(at, SECRET, signal);
    const created = first.find((s) => s.topic === "order.created");
    const updated = first.find((s) => s.topic === "order.updated");
    if (!created || !updated) throw new Error("both topics expected");
    w.setWebhookStatus(Number(created.id), "paused");
    w.setWebhookStatus(Number(updated.id), "disabled");
    expect((await client.list(at, signal)).filter((s) => !s.active)).toHaveLength(2);

    const after = await client.subscribe(at, SECRET, signal);
    expect(after.every((s) => s.active)).toBe(true);
    expect(after.find((s) => s.topic === "order.created")?.id).toBe(created.id);
    const replacement = after.find((s) => s.topic === "order.updated");
    expect(replacement?.id).not.toBe(updated.id);
    expect(w.webhooks.map((h) => String(h.id))).not.toContain(updated.id);
    expect(w.webhooks.find((h) => String(h.id) === replacement?.id)?.failure_count).toBe(0);

    // And they deliver again.
    const order = wooOrder("ada@example.com", new Date());
    w.placeOrder(order);
    w.updateOrder(order.id, { status: "completed" });
    await w.deliveriesSettled();
    const topics = inbox.requests
      .filter((r) => r.headers["x-wc-webhook-topic"] !== undefined)
      .map((r) => r.headers["x-wc-webhook-topic"]);
    expect(topics.sort()).toEqual(["order.created", "order.updated"]);
  });

  it("list answers only Velvet's webhooks at this address, across pages, paused ones inactive", async () => {
    const { w, client } = await site();
    const at = address();
    const subs = await client.subscribe(at, SECRET, signal);
    // 120 webhooks of other apps, created later (the list is newest first): ours on page 2.
    for (let i = 0; i < 120; i++) {
      const other = { ...w.webhooks[0], id: 1000 + i, delivery_url: `https://erp.example/h/${i}` };
      w.webhooks.push(other as (typeof w.webhooks)[number]);
    }
    w.setWebhookStatus(Number(subs[0]?.id), "paused");
    const listed = await client.list(at, signal);
    expect(listed.map((s) => s.id).sort()).toEqual(subs.map((s) => s.id).sort());
    expect(listed.find((s) => s.id === subs[0]?.id)?.active).toBe(false);
    expect(
      w.requests
        .filter((r) => r.route === "/wc/v3/webhooks")
        .at(-1)
        ?.query.get("page"),
    ).toBe("2");
  });

  it("remove deletes them for good; one already deleted in the admin is not an error", async () => {
    const { w, client } = await site();
    const at = address();
    const subs = await client.subscribe(at, SECRET, signal);
    w.deleteWebhook(Number(subs[0]?.id));
    await client.remove(
      subs.map((s) => s.id),
      signal,
    );
    expect(w.webhooks).toHaveLength(0);
    const deletes = w.requests.filter((r) => r.method === "DELETE");
    expect(deletes.every((r) => r.query.get("force") === "true")).toBe(true);
    expect(deletes.map((r) => r.status).sort()).toEqual([200, 404]);
    expect(await client.list(at, signal)).toEqual([]);
  });

  it("a Read-only key is refused with what to do, and nothing is created", async () => {
    const { w, client } = await site({ keyPermissions: "read" });
    const error = await client.subscribe(address(), SECRET, signal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).message).toBe(READ_ONLY_KEY_MESSAGE);
    expect((error as PlatformError).failure.kind).toBe("broken");
    expect(w.webhooks).toHaveLength(0);
  });

  it("WooCommerce creates the webhook even when its ping fails; Velvet's check refuses it plainly", async () => {
    inbox.answer("ping", 503);
    // WooCommerce's own behaviour: 201 and an active webhook, its ping failed (still pending).
    const plain = await site();
    const kept = await plain.client.subscribe(address(), SECRET, signal);
    expect(kept).toHaveLength(2);
    expect(plain.w.webhooks.every((h) => h.pending_delivery)).toBe(true);
    await plain.w.close();

    // With Velvet's record of pings (only those it answered 200 count), the subscription fails.
    const pinged = async (id: string) =>
      inbox.pings().some((p) => p.text === `webhook_id=${id}` && p.status === 200);
    const { w, client } = await site({}, { pinged });
    const at = address();
    const error = await client.subscribe(at, SECRET, signal).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlatformError);
    expect((error as PlatformError).message).toBe(notPingedMessage(at));
    expect((error as PlatformError).message).toContain("PUBLIC_BASE_URL");
    expect(w.webhooks).toHaveLength(0);

    inbox.answer("ping");
    expect(await client.subscribe(at, SECRET, signal)).toHaveLength(2);
  });

  for (const [label, options, mode] of [
    ["a site on Plain permalinks", { plainPermalinks: true }, { plainRoute: true }],
    [
      "a host that strips the Authorization header",
      { stripsAuthorization: true },
      { queryAuth: true },
    ],
  ] as const) {
    it(`${label} works, and what worked is saved`, async () => {
      const { w, client } = await site(options);
      const at = address();
      expect(await client.subscribe(at, SECRET, signal)).toHaveLength(2);
      expect(saved.at(-1)).toMatchObject(mode);
      expect(w.webhooks).toHaveLength(2);
      const ids = (await client.list(at, signal)).map((s) => s.id);
      await client.remove(ids, signal);
      expect(w.webhooks).toHaveLength(0);
    });
  }
});
