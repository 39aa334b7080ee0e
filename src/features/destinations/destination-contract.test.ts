/**
 * The contract every registered destination kind keeps, on both engines, each against the fake
 * of its platform (test/fakes/: the platform's own rules, with an outage scripted in front):
 * - a 5xx with Retry-After is tried again, no sooner than asked; a 429 with Retry-After waits at
 *   least that long; then the delivery is delivered, and every attempt is in the attempt log
 *   with the platform's status;
 * - erasing the person removes their deliveries and attempts, and the customer.forgotten
 *   delivery reaches the platform;
 * - the destination's secret (a webhook's signing secret, an API key, a store's token) is never
 *   shown: not in what `velvet destination list` prints (listDestinations, and the real command
 *   run once a kind), not on the Destinations page, not in the process log.
 * FIXTURES is keyed by DestinationKind: a kind without its fixture does not compile.
 */
import { Writable } from "node:stream";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeKlaviyo } from "../../../test/fakes/klaviyo.js";
import { startFakeShopifyCustomers } from "../../../test/fakes/shopify-customers.js";
import { startWebhookReceiver } from "../../../test/fakes/webhook-receiver.js";
import { onlyJson, runVelvet } from "../../../test/support/cli.js";
import { ENGINES } from "../../../test/support/databases.js";
import type { FakeAnswer } from "../../../test/support/fake-http-service.js";
import { signInNewAccount } from "../../../test/support/sign-in.js";
import { insertShopifyConnection, STORE_SYNC_ENV } from "../../../test/support/store-sync.js";
import { startTestApp, type TestApp } from "../../../test/support/test-app.js";
import type { DestinationEvent, DestinationKind } from "../../db/schema.js";
import { newId } from "../../lib/ids.js";
import { systemActor } from "../audit/audit-actor.js";
import { DESTINATIONS_PATH } from "../dashboard/destinations/destinations-view.js";
import { eraseCustomer } from "../privacy/erase-customer.js";
import { addDestination } from "./add-destination.js";
import { deliver } from "./deliver-to-destination.js";
import { DESTINATION_DECLARATIONS } from "./destination-kinds.js";
import { listDestinations } from "./list-destinations.js";

interface Platform {
  /** What the app needs to reach the fake (its base-URL variable). */
  env: Record<string, string>;
  /** The add form's fields for this account (a store connection made first, when needed). */
  fields(
    app: TestApp,
    account: { accountId: string; storeId: string },
  ): Promise<Record<string, string>>;
  /** An event this kind takes, and the customer it needs (Shopify: one the store knows). */
  event: DestinationEvent;
  shopifyId?: string;
  /** Makes the customer one the platform already has, where it only updates (Shopify's customer). */
  knows?(customer: { email: string; shopifyId?: string }): void;
  /** The secret that must never be shown, given what adding revealed. */
  secret(fields: Record<string, string>, revealed: Record<string, string>): string;
  script(...answers: FakeAnswer[]): void;
  close(): Promise<void>;
}

/** Each kind's platform: its fake started, and how the contract drives it. */
const FIXTURES: Record<DestinationKind, () => Promise<Platform>> = {
  webhook: async () => {
    const webhook = await startWebhookReceiver();
    return {
      env: {},
      fields: async () => ({ url: webhook.url }),
      event: "customer.vip",
      secret: (_fields, revealed) => revealed.secret ?? "",
      script: (...answers) =>
        webhook.reply(
          ...answers.map((a) => ("hangMs" in a ? a : { ...a, body: String(a.body ?? "") })),
        ),
      close: () => webhook.close(),
    };
  },
  klaviyo: async () => {
    // The fake's today, for its revision rule.
    const klaviyo = await startFakeKlaviyo({ now: () => Date.UTC(2026, 10, 27) });
    return {
      env: { KLAVIYO_BASE_URL: klaviyo.baseUrl },
      fields: async () => ({ apiKey: klaviyo.apiKey }),
      event: "customer.enriched",
      secret: (fields) => fields.apiKey ?? "",
      script: klaviyo.script,
      close: () => klaviyo.close(),
    };
  },
  shopify: async () => {
    const shopify = await startFakeShopifyCustomers();
    return {
      env: {},
      fields: async (app, account) => ({
        connectionId: await insertShopifyConnection(app.deps, account, shopify.token, shopify.shop),
        tag: "VIP",
      }),
      // The fake, as Shopify, refuses tags on a customer the store does not have.
      knows: (customer) =>
        shopify.customers.set(customer.shopifyId ?? "", { tags: [], metafields: {} }),
      event: "customer.vip",
      shopifyId: "7001",
      secret: () => shopify.token,
      script: shopify.script,
      close: () => shopify.close(),
    };
  },
};

const actor = systemActor("test");

for (const [engineIndex, engine] of ENGINES.entries()) {
  describe.skipIf(!engine.available)(`every destination kind on ${engine.name}`, () => {
    let app: TestApp;
    let platforms: Record<DestinationKind, Platform>;
    /** What `velvet` needs to reach this app's database and the platforms' fakes. */
    let cliEnv: Record<string, string>;
    const logged: string[] = [];

    beforeAll(async () => {
      const kinds = Object.keys(FIXTURES) as DestinationKind[];
      const started = await Promise.all(kinds.map((kind) => FIXTURES[kind]()));
      platforms = Object.fromEntries(kinds.map((kind, i) => [kind, started[i]])) as Record<
        DestinationKind,
        Platform
      >;
      const env = Object.assign(
        { ...STORE_SYNC_ENV },
        ...Object.values(platforms).map((p) => p.env),
      );
      const sink = new Writable({
        write(chunk, _encoding, done) {
          logged.push(String(chunk));
          done();
        },
      });
      app = await startTestApp(engine, { env, log: pino({ level: "debug" }, sink) });
      cliEnv = { ...env, DATABASE_URL: app.database.url };
    });
    afterAll(async () => {
      await app?.close();
      await Promise.all(Object.values(platforms ?? {}).map((p) => p.close()));
    });

    for (const [kindIndex, { kind }] of DESTINATION_DECLARATIONS.entries()) {
      it(`${kind}: retries, the attempt log, erasure, and a secret never shown`, async () => {
        const platform = platforms[kind];
        const { browser, accountId, apiKey } = await signInNewAccount(app);
        const store = await app.deps.db.kysely
          .selectFrom("stores")
          .select("id")
          .where("account_id", "=", accountId)
          .executeTakeFirstOrThrow();
        const fields = await platform.fields(app, { accountId, storeId: store.id });
        const added = await addDestination(app.deps, { accountId, kind, fields, actor });
        const secret = platform.secret(fields, added.revealed);
        expect(secret.length).toBeGreaterThan(8);

        // A customer, and one event about them, as enqueue-deliveries.ts stores it.
        const email = `contract-${kind}-${engine.name}@example.com`;
        const submitted = await app.submit(apiKey, {
          email,
          firstName: "Ada",
          lastName: "Lovelace",
        });
        const { customerId } = (await submitted.json()) as { customerId: string };
        // The store sync's customer id, for a kind that takes only customers the store knows.
        await app.deps.db.kysely
          .updateTable("customers")
          .set({ shopify_customer_id: platform.shopifyId ?? null })
          .where("id", "=", customerId)
          .execute();
        const deliveryId = newId();
        const customer = {
          id: customerId,
          email,
          firstName: "Ada",
          lastName: "Lovelace",
          ...(platform.shopifyId === undefined ? {} : { shopifyId: platform.shopifyId }),
        };
        platform.knows?.(customer);
        await app.deps.db.kysely
          .insertInto("destination_deliveries")
          .values({
            id: deliveryId,
            destination_id: added.destinationId,
            account_id: accountId,
            customer_id: customerId,
            event: platform.event,
            event_key: `${platform.event}:${customerId}`,
            body: JSON.stringify({
              type: platform.event,
              timestamp: new Date().toISOString(),
              data: { customer, score: 90, threshold: 70, vip: true, tier: null, reasons: [] },
            }),
            status: "pending",
            created_at: Date.now(),
          })
          .execute();
        const signal = new AbortController().signal;

        // An outage asks for two minutes: not tried before then.
        platform.script({ status: 503, headers: { "retry-after": "120" }, body: "" });
        const outage = await deliver(app.deps, deliveryId, 1, signal);
        expect(outage.kind).toBe("retry");
        expect((outage as { delayMs?: number }).delayMs).toBeGreaterThanOrEqual(120_000);
        // Slowed down: waits at least what the platform asked.
        platform.script({ status: 429, headers: { "retry-after": "7" }, body: "" });
        const slowed = await deliver(app.deps, deliveryId, 2, signal);
        expect(["retry", "wait"]).toContain(slowed.kind);
        expect((slowed as { delayMs?: number }).delayMs).toBeGreaterThanOrEqual(7_000);
        expect(await deliver(app.deps, deliveryId, 3, signal)).toEqual({ kind: "done" });
        const attempts = await app.deps.db.kysely
          .selectFrom("destination_attempts")
          .select(["outcome", "status_code"])
          .where("delivery_id", "=", deliveryId)
          .orderBy("attempted_at")
          .orderBy("id")
          .execute();
        expect(attempts.map((a) => a.status_code).slice(0, 2)).toEqual([503, 429]);
        expect(attempts[2]?.status_code).toBeGreaterThanOrEqual(200);
        expect(attempts[2]?.status_code).toBeLessThan(300);
        expect(attempts[2]?.outcome).toBe("delivered");

        // The secret is shown nowhere: what the CLI lists, the page, the log.
        const listed = JSON.stringify(await listDestinations(app.deps.db.kysely, accountId));
        expect(listed).toContain(added.destinationId);
        expect(listed).not.toContain(secret);
        // The real command, run once a kind: its two formats alternate by kind and engine, so
        // each engine's run prints both and every kind is printed both ways on the two engines.
        const asJson = (kindIndex + engineIndex) % 2 === 0;
        const run = await runVelvet(
          ["destination", "list", "--account", accountId, ...(asJson ? ["--json"] : [])],
          cliEnv,
        );
        if (asJson) expect(JSON.stringify(onlyJson(run))).toContain(added.destinationId);
        else expect(run.stdout).toContain(`${added.destinationId}  ${kind}  `);
        expect(run.stdout + run.stderr).not.toContain(secret);
        const page = await browser.page(DESTINATIONS_PATH);
        expect(page.html).toContain(added.destinationId);
        expect(page.html).not.toContain(secret);
        expect(logged.join("")).not.toContain(secret);

        // Erased: the person's deliveries and attempts go; the platform hears they are forgotten.
        await eraseCustomer(app.deps, { accountId, lookup: { customerId }, actor });
        const left = await app.deps.db.kysely
          .selectFrom("destination_deliveries")
          .select(["id", "event", "customer_id", "body"])
          .where("destination_id", "=", added.destinationId)
          .execute();
        expect(left.map((d) => [d.event, d.customer_id])).toEqual([["customer.forgotten", null]]);
        const forgotten = left[0]?.id ?? "";
        expect(await deliver(app.deps, forgotten, 1, signal)).toEqual({ kind: "done" });
        expect(
          await app.deps.db.kysely
            .selectFrom("destination_attempts")
            .select("id")
            .where("delivery_id", "=", deliveryId)
            .execute(),
        ).toEqual([]);
      });
    }
  });
}
