/**
 * Erasing a person, on both engines: every row that holds their data goes in one transaction,
 * billing keeps an unlinked charge, the audit trail names them by id only, another account
 * cannot erase them, a later order with the same e-mail is a new customer with its own charge,
 * and afterwards their e-mail, name and phone are nowhere in the database files (SQLite: the
 * file and its WAL, byte for byte; PostgreSQL: a pg_dump).
 */
import type { Transaction } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { databaseContains } from "../../../test/support/database-bytes.js";
import { ENGINES } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { type Person, seedPerson } from "../../../test/support/privacy-fixtures.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import type { Database } from "../../db/schema.js";
import { cliActor } from "../audit/audit-actor.js";
import { listAuditEvents } from "../audit/list-audit-events.js";
import { saveUnfinishedAttempt } from "../enrichment/save-enrichment.js";
import { eraseCustomer } from "./erase-customer.js";
import { eraseCustomerRows } from "./erase-customer-rows.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`erasing a customer (${engine.name})`, () => {
    let app: TestApp;
    let account: TestAccount;
    let other: TestAccount;
    let person: Person;
    let bystander: Person;

    beforeAll(async () => {
      app = await startTestApp(engine, { worker: true });
      account = await app.createAccount();
      other = await app.createAccount();
      // Enough neighbours that the person's rows share pages with others' and pages split.
      for (let i = 0; i < 40; i++) {
        await app.submit(account.apiKey, {
          email: `neighbour-${i}@example.com`,
          firstName: "Neighbour",
          lastName: `Number${i}`,
          order: { id: `nb-${i}`, total: "10.00" },
        });
      }
      person = await seedPerson(app, account);
      bystander = await seedPerson(app, account);
    }, 60_000);
    afterAll(() => app?.close());

    const count = async (
      table: "orders" | "provider_results" | "enrichments" | "alerts",
      id: string,
    ) =>
      (
        await app.deps.db.kysely
          .selectFrom(table)
          .select("customer_id")
          .where("customer_id", "=", id)
          .execute()
      ).length;

    it("refuses another account's customer and changes nothing", async () => {
      const refused = await eraseCustomer(app.deps, {
        accountId: other.accountId,
        lookup: { email: person.email },
        actor: cliActor("mallory"),
      });
      expect(refused).toBeNull();
      expect(await count("orders", person.customerId)).toBe(2);
      expect((await listAuditEvents(app.deps.db.kysely, other.accountId)).total).toBe(0);
    });

    it("finds the person in the database files before the erasure (the search works)", async () => {
      expect(await databaseContains(app.database, person.email)).toBe(true);
    });

    it("erases every row that holds the person, in one go, and keeps an unlinked charge", async () => {
      const db = app.deps.db.kysely;
      const result = await eraseCustomer(app.deps, {
        accountId: account.accountId,
        lookup: { email: person.email.toUpperCase() },
        actor: cliActor("ops"),
      });
      expect(result).toMatchObject({
        customerId: person.customerId,
        walCleared: true,
        erased: {
          orders: 2,
          providerAnswers: 1,
          enrichments: 1,
          alerts: 1,
          deliveryAttempts: 1,
          jobs: 1,
          chargesKept: 1,
        },
      });
      expect(
        await db.selectFrom("customers").select("id").where("id", "=", person.customerId).execute(),
      ).toEqual([]);
      for (const table of ["orders", "provider_results", "enrichments", "alerts"] as const) {
        expect(await count(table, person.customerId)).toBe(0);
      }
      expect(
        await db
          .selectFrom("alert_attempts")
          .select("id")
          .where("alert_id", "=", person.alertId)
          .execute(),
      ).toEqual([]);
      expect(
        await db
          .selectFrom("jobs")
          .select("id")
          .where("job_key", "like", `%${person.customerId}%`)
          .execute(),
      ).toEqual([]);
      expect(
        await db
          .selectFrom("jobs")
          .select("id")
          .where("job_key", "=", `alert:${person.alertId}`)
          .execute(),
      ).toEqual([]);
      const charges = await db
        .selectFrom("usage_charges")
        .selectAll()
        .where("store_id", "=", account.storeId)
        .execute();
      expect(charges).toHaveLength(42);
      expect(charges.filter((c) => c.customer_id === null)).toEqual([
        expect.objectContaining({ account_id: account.accountId, unit_price_usd: "0.05" }),
      ]);
      // The bystander keeps everything.
      expect(await count("orders", bystander.customerId)).toBe(2);
      expect(await count("provider_results", bystander.customerId)).toBe(1);
    });

    it("names the customer by id only in the audit trail", async () => {
      const { events } = await listAuditEvents(app.deps.db.kysely, account.accountId);
      expect(events[0]).toMatchObject({
        action: "customer.erased",
        actorKind: "cli",
        actor: "ops",
        subject: person.customerId,
        details: expect.objectContaining({ orders: 2 }),
      });
      expect(JSON.stringify(events)).not.toContain(person.email);
    });

    it("leaves nothing of the person's e-mail, name or phone in the database files", async () => {
      for (const needle of [person.email, person.lastName, person.phone]) {
        expect(await databaseContains(app.database, needle), needle).toBe(false);
      }
      expect(await databaseContains(app.database, bystander.email)).toBe(true);
    });

    it("refuses what an enrichment still running for the person tries to write afterwards", async () => {
      const late = saveUnfinishedAttempt(
        app.deps,
        person.customerId,
        { attempt: 2, startedAt: app.deps.clock.now() },
        [
          {
            kind: "not_found",
            provider: "fullcontact",
            httpStatus: 404,
            raw: { email: person.email },
          },
        ],
        { accountId: account.accountId, billed: [], reservation: null },
      );
      await expect(late).rejects.toThrow();
      expect(await count("provider_results", person.customerId)).toBe(0);
      expect(await count("enrichments", person.customerId)).toBe(0);
    });

    it("answers a second erasure as not found", async () => {
      const again = await eraseCustomer(app.deps, {
        accountId: account.accountId,
        lookup: { customerId: person.customerId },
        actor: cliActor("ops"),
      });
      expect(again).toBeNull();
    });

    it("forgets a person once when two erasures meet: the second finds nothing left", async () => {
      const twice = await seedPerson(app, account, 1);
      const erase = (trx: Transaction<Database>) =>
        eraseCustomerRows(trx, app.deps, twice.customerId, "account_closed", app.deps.clock.now());
      let releaseFirst = () => {};
      const held = new Promise<void>((resolve) => {
        releaseFirst = resolve;
      });
      let firstErased: () => void = () => {};
      const erasedInFirst = new Promise<void>((resolve) => {
        firstErased = resolve;
      });
      const db = app.deps.db.kysely;
      // The first erasure does its work and holds its transaction open.
      const first = db.transaction().execute(async (trx) => {
        const counts = await erase(trx);
        firstErased();
        await held;
        return counts;
      });
      await erasedInFirst;
      // On SQLite the second waits for the first's commit to begin; on PostgreSQL it begins now.
      const second = db.transaction().execute(erase);
      await new Promise((r) => setTimeout(r, 200));
      releaseFirst();
      const [a, b] = await Promise.all([first, second]);
      // The first erased the person's rows; the second found no one, so told no one.
      expect(Object.values(a).some((n) => n > 0)).toBe(true);
      expect(b).toEqual({ jobs: 0 });
    });

    it("makes a later order with the same e-mail a new customer with its own charge", async () => {
      const res = await app.submit(account.apiKey, {
        email: person.email,
        firstName: "Ottoline",
        lastName: person.lastName,
      });
      const body = (await res.json()) as { customerId: string; enrichmentStatus: string };
      expect(body.enrichmentStatus).toBe("queued");
      expect(body.customerId).not.toBe(person.customerId);
      const db = app.deps.db.kysely;
      const charge = await db
        .selectFrom("usage_charges")
        .selectAll()
        .where("customer_id", "=", body.customerId)
        .execute();
      expect(charge).toHaveLength(1);
      await waitFor("the new enrichment", async () => {
        const row = await db
          .selectFrom("customers")
          .select("enrichment_status")
          .where("id", "=", body.customerId)
          .executeTakeFirst();
        return row?.enrichment_status === "enriched";
      });
    });
  });
}
