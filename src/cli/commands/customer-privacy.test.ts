/**
 * The people's-data commands through the real program, on both engines: `customer export`,
 * `customer forget`, `audit list` and `account delete`, against a database where the real app
 * took the orders and the real worker enriched them. Another account can neither export nor
 * erase the person, nor read the audit trail.
 */
import os from "node:os";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onlyJson, runVelvet } from "../../../test/support/cli.js";
import { ENGINES } from "../../../test/support/databases.js";
import { type Person, seedPerson } from "../../../test/support/privacy-fixtures.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(
    `velvet customer export/forget, audit, account delete (${engine.name})`,
    () => {
      let app: TestApp;
      let account: TestAccount;
      let other: TestAccount;
      let person: Person;

      beforeAll(async () => {
        app = await startTestApp(engine, { worker: true });
        account = await app.createAccount();
        other = await app.createAccount();
        person = await seedPerson(app, account);
      }, 60_000);
      afterAll(() => app?.close());

      const velvet = (...args: string[]) => runVelvet(args, { DATABASE_URL: app.database.url });

      it("exports everything stored about the person as one JSON document", async () => {
        const doc = onlyJson(
          await velvet(
            "customer",
            "export",
            "--account",
            account.accountId,
            "--email",
            person.email,
          ),
        );
        expect(doc).toMatchObject({
          customer: {
            customerId: person.customerId,
            email: person.email,
            lastName: person.lastName,
            phone: person.phone,
          },
          orders: [{ number: "N0", total: "950.00", currency: "EUR" }, { number: "N1" }],
          enrichment: { signals: expect.any(Array), profile: expect.any(Object) },
          providerAnswers: [{ provider: "pdl", raw: { data: { work_email: person.email } } }],
          alerts: [
            { alertId: person.alertId, deliveries: [{ outcome: "retry", statusCode: 500 }] },
          ],
          charges: [{ unitPriceUsd: "0.05" }],
        });
      });

      it("refuses another account: no export, no erasure, no audit trail of theirs", async () => {
        for (const command of ["export", "forget"]) {
          const run = await velvet(
            "customer",
            command,
            "--account",
            other.accountId,
            "--email",
            person.email,
          );
          expect(run.code).not.toBe(0);
          expect(run.stdout).toBe("");
          expect(run.stderr).toContain(`No customer ${person.email} in account ${other.accountId}`);
        }
        const trail = onlyJson(
          await velvet("audit", "list", "--account", other.accountId, "--json"),
        );
        expect(trail).toMatchObject({ total: 0, events: [] });
      });

      it("forgets the person and lists both actions in the audit trail, by id only", async () => {
        const preview = await velvet(
          "customer",
          "forget",
          "--account",
          account.accountId,
          "--email",
          person.email,
          "--json",
        );
        expect(preview.code).toBe(0);
        expect(JSON.parse(preview.stdout)).toEqual({
          dryRun: true,
          customerId: person.customerId,
          wouldErase: expect.objectContaining({
            orders: 2,
            providerAnswers: 1,
            alerts: 1,
            chargesKept: 1,
          }),
        });
        const still = await velvet(
          "customer",
          "export",
          "--account",
          account.accountId,
          "--email",
          person.email,
        );
        expect(still.code).toBe(0);
        expect(JSON.parse(still.stdout).orders).toHaveLength(2);

        const erased = onlyJson(
          await velvet(
            "customer",
            "forget",
            "--account",
            account.accountId,
            "--email",
            person.email,
            "--yes",
            "--json",
          ),
        );
        expect(erased).toMatchObject({
          customerId: person.customerId,
          erased: { orders: 2, providerAnswers: 1, alerts: 1, deliveryAttempts: 1, chargesKept: 1 },
        });
        const again = await velvet(
          "customer",
          "export",
          "--account",
          account.accountId,
          "--email",
          person.email,
        );
        expect(again.code).not.toBe(0);

        const trail = onlyJson(
          await velvet("audit", "list", "--account", account.accountId, "--json"),
        ) as {
          events: Array<{ action: string; actorKind: string; actor: string; subject: string }>;
        };
        const me = os.userInfo().username;
        expect(trail.events.slice(0, 2)).toEqual([
          expect.objectContaining({
            action: "customer.erased",
            actorKind: "cli",
            actor: me,
            subject: person.customerId,
          }),
          expect.objectContaining({
            action: "customer.exported",
            actorKind: "cli",
            actor: me,
            subject: person.customerId,
          }),
        ]);
        expect(JSON.stringify(trail)).not.toContain(person.email);
      });

      it("deletes an account only with --yes: keys revoked, customers erased, billing kept", async () => {
        await seedPerson(app, account, 1);
        const unconfirmed = await velvet("account", "delete", "--account", account.accountId);
        expect(unconfirmed.code).toBe(0);
        expect(unconfirmed.stdout).toContain("Dry run: nothing was changed. Would close account");
        expect(unconfirmed.stdout).toContain("Run again with --yes");
        expect(
          onlyJson(await velvet("account", "delete", "--account", account.accountId, "--json")),
        ).toMatchObject({ dryRun: true, alreadyClosed: false, activeKeys: 1, customers: 1 });
        expect(
          (
            await app.submit(account.apiKey, {
              email: "still@example.com",
              firstName: "A",
              lastName: "B",
            })
          ).status,
        ).toBe(200);

        const closed = onlyJson(
          await velvet("account", "delete", "--account", account.accountId, "--yes", "--json"),
        );
        expect(closed).toMatchObject({
          closed: true,
          alreadyClosed: false,
          keysRevoked: 1,
          customersErased: 2,
        });
        expect(
          (
            await app.submit(account.apiKey, {
              email: "after@example.com",
              firstName: "A",
              lastName: "B",
            })
          ).status,
        ).toBe(401);
        const db = app.deps.db.kysely;
        const customers = await db
          .selectFrom("customers")
          .select("id")
          .where("store_id", "=", account.storeId)
          .execute();
        expect(customers).toEqual([]);
        const charges = await db
          .selectFrom("usage_charges")
          .select(["customer_id", "unit_price_usd"])
          .where("account_id", "=", account.accountId)
          .execute();
        expect(charges).toHaveLength(3);
        expect(charges.every((c) => c.customer_id === null)).toBe(true);
        const usage = onlyJson(await velvet("usage", "--account", account.accountId, "--json"));
        expect(usage).toMatchObject({ enrichments: 3 });
        // The other account is untouched.
        expect(
          (
            await app.submit(other.apiKey, {
              email: "fine@example.com",
              firstName: "A",
              lastName: "B",
            })
          ).status,
        ).toBe(200);

        const trail = onlyJson(
          await velvet("audit", "list", "--account", account.accountId, "--json"),
        ) as { events: Array<{ action: string }> };
        expect(trail.events[0]).toMatchObject({
          action: "account.closed",
          details: { keysRevoked: 1 },
        });
      });
    },
  );
}
