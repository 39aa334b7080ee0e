/**
 * People's data in the dashboard, on both engines: a customer's "Download data" and "Delete
 * this customer's data" (with its confirmation page), Settings → Audit log (paged, filled by
 * sign-ins, key and settings changes, exports and erasures) and Settings → Account (closing the
 * account with the password). Another account can do none of it to this one's data.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type HttpBrowser as Browser,
  HttpBrowser,
  signUpBrowser,
  TEST_PASSWORD,
} from "../../../../test/browser/http-browser.js";
import { ENGINES } from "../../../../test/support/databases.js";
import { waitFor } from "../../../../test/support/job-deps.js";
import { type Person, seedPerson } from "../../../../test/support/privacy-fixtures.js";
import { signInNewAccount } from "../../../../test/support/sign-in.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../../test/support/test-app.js";
import { userActor } from "../../audit/audit-actor.js";
import { recordAuditEvent } from "../../audit/record-audit-event.js";

async function signUpAccount(app: TestApp, storeName: string) {
  const signed = await signUpBrowser(app.url, { storeName });
  const row = await app.deps.db.kysely
    .selectFrom("users")
    .innerJoin("stores", "stores.account_id", "users.account_id")
    .select(["users.account_id", "stores.id as store_id"])
    .where("users.email_normalized", "=", signed.email)
    .executeTakeFirstOrThrow();
  const account: TestAccount = {
    accountId: row.account_id,
    storeId: row.store_id,
    keyId: "",
    apiKey: signed.apiKey,
  };
  return { ...signed, account };
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`people's data in the dashboard (${engine.name})`, () => {
    let app: TestApp;
    let a: Awaited<ReturnType<typeof signUpAccount>>;
    let b: Browser;
    let person: Person;

    beforeAll(async () => {
      app = await startTestApp(engine, { worker: true });
      a = await signUpAccount(app, "Store A");
      // Sign-up closes after the first account: the second comes in as the operator makes one.
      ({ browser: b } = await signInNewAccount(app, { storeName: "Store B" }));
      person = await seedPerson(app, a.account);
    }, 60_000);
    afterAll(() => app?.close());

    const customerPath = () => `/customers/${person.customerId}`;

    it("offers both actions on the customer's page", async () => {
      const { html } = await a.browser.page(customerPath());
      expect(html).toContain(`action="/customers/${person.customerId}/export"`);
      expect(html).toContain(`href="/customers/${person.customerId}/delete"`);
      expect(html).toContain("Delete this customer's data");
    });

    it("refuses another account's export, confirmation and erasure with 404", async () => {
      expect((await b.page(`${customerPath()}/delete`)).res.status).toBe(404);
      for (const action of ["export", "delete"]) {
        const res = await b.submit("/customers", `${customerPath()}/${action}`);
        expect(res.status, action).toBe(404);
        expect(await res.text()).not.toContain(person.email);
      }
      expect((await a.browser.page(customerPath())).res.status).toBe(200);
      const trail = (await b.page("/settings/audit")).html;
      expect(trail).not.toContain(person.customerId);
    });

    it("downloads everything stored about the customer as a JSON attachment", async () => {
      const res = await a.browser.submit(customerPath(), `${customerPath()}/export`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toContain("application/json");
      expect(res.headers.get("content-disposition")).toBe(
        `attachment; filename="velvet-customer-${person.customerId}.json"`,
      );
      const doc = (await res.json()) as Record<string, unknown>;
      expect(doc).toMatchObject({
        customer: { email: person.email, phone: person.phone },
        orders: [{}, {}],
        providerAnswers: [{ provider: "pdl", raw: { data: { work_email: person.email } } }],
        alerts: [{ deliveries: [{ statusCode: 500 }] }],
      });
    });

    it("names what goes before deleting, refuses a forged post, then deletes", async () => {
      const { html } = await a.browser.page(`${customerPath()}/delete`);
      for (const text of [
        person.email,
        "2 orders",
        "pdl",
        "1 VIP alert with 1 delivery record",
        "What stays",
      ]) {
        expect(html, text).toContain(text);
      }
      const forged = await a.browser.post(`${customerPath()}/delete`, { _csrf: "x".repeat(43) });
      expect(forged.status).toBe(403);
      expect((await a.browser.page(customerPath())).res.status).toBe(200);

      const res = await a.browser.submit(`${customerPath()}/delete`, `${customerPath()}/delete`);
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/customers?notice=customer-erased");
      const list = (await a.browser.page("/customers?notice=customer-erased")).html;
      expect(list).toContain("The customer&#39;s data is deleted");
      expect(list).not.toContain(person.email);
      expect((await a.browser.page(customerPath())).res.status).toBe(404);
    });

    it("records sign-ins, keys, settings, exports and erasures in the audit log, paged", async () => {
      const fresh = new HttpBrowser(app.url);
      const wrong = await fresh.submit("/login", "/login", {
        email: a.email,
        password: "not the password",
      });
      expect(wrong.status).toBe(401);
      await fresh.submit("/login", "/login", { email: a.email, password: TEST_PASSWORD });
      await fresh.submit("/settings/integrations", "/settings/integrations/keys");
      await fresh.submit("/settings/alerts", "/settings/alerts", {
        threshold: "80",
        webhook: "",
        emails: "",
      });
      const { html } = await fresh.page("/settings/audit");
      for (const label of [
        "Account created",
        "Signed in",
        "Sign-in failed",
        "API key created",
        "Alert settings changed",
        "Customer data exported",
        "Customer data erased",
      ]) {
        expect(html, label).toContain(label);
      }
      expect(html).toContain(person.customerId);
      expect(html).not.toContain(person.email);
      expect(html).toContain("VIP threshold 70 → 80");

      const now = app.deps.clock.now();
      for (let i = 0; i < 50; i++) {
        const event = { accountId: a.account.accountId, actor: userActor("x@example.com") };
        await recordAuditEvent(
          app.deps.db.kysely,
          { ...event, action: "user.signed_in" },
          now - 86_400_000 - i,
        );
      }
      const second = (await fresh.page("/settings/audit?page=2")).html;
      expect(second).toContain("Page 2 of 2");
      // The 50 older events fill the rest of page 1 and spill over, oldest last.
      expect(second).toContain("x@example.com");
      expect(second).not.toContain("Account created");
    });

    it("closes the account only with the owner's password: keys, sessions, customers go; billing stays", async () => {
      await seedPerson(app, a.account, 1);
      const wrong = await a.browser.submit("/settings/account", "/settings/account/close", {
        password: "nope nope nope",
      });
      expect(wrong.status).toBe(400);
      expect(await wrong.text()).toContain("That is not your password");
      expect(
        (await app.submit(a.apiKey, { email: "ok@example.com", firstName: "O", lastName: "K" }))
          .status,
      ).toBe(200);

      const res = await a.browser.submit("/settings/account", "/settings/account/close", {
        password: TEST_PASSWORD,
      });
      expect(res.status).toBe(303);
      expect(res.headers.get("location")).toBe("/login?notice=account-closed");
      expect((await a.browser.get("/")).status).toBe(303);
      expect(
        (await app.submit(a.apiKey, { email: "no@example.com", firstName: "N", lastName: "O" }))
          .status,
      ).toBe(401);
      const login = await new HttpBrowser(app.url).submit("/login", "/login", {
        email: a.email,
        password: TEST_PASSWORD,
      });
      expect(login.status).toBe(401);

      const db = app.deps.db.kysely;
      await waitFor("the account's customers to be erased", async () => {
        const left = await db
          .selectFrom("customers")
          .select("id")
          .where("store_id", "=", a.account.storeId)
          .execute();
        return left.length === 0;
      });
      const charges = await db
        .selectFrom("usage_charges")
        .select("customer_id")
        .where("account_id", "=", a.account.accountId)
        .execute();
      expect(charges.length).toBe(3);
      expect(charges.every((c) => c.customer_id === null)).toBe(true);
      const closed = await db
        .selectFrom("audit_events")
        .select(["action", "actor"])
        .where("account_id", "=", a.account.accountId)
        .where("action", "=", "account.closed")
        .execute();
      expect(closed).toEqual([{ action: "account.closed", actor: a.email }]);
      // B is untouched.
      expect((await b.page("/settings/account")).res.status).toBe(200);
    });
  });
}
