/**
 * The first hour's promise: an alert e-mail address saved while the server had no SMTP_URL still
 * gets its alert, exactly once, after the server restarts with SMTP_URL. Real HTTP, the real
 * worker, offline enrichment (the bundled ZIP incomes), a real SMTP server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type TestDatabase } from "../../../test/support/databases.js";
import { waitFor } from "../../../test/support/job-deps.js";
import { startSmtpServer, type TestSmtpServer } from "../../../test/support/smtp-server.js";
import { startTestApp, type TestApp } from "../../../test/support/test-app.js";
import { updateAccount } from "../accounts/update-account.js";
import { WAITING_REASON } from "./wait-for-mail.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`an e-mail alert waits for SMTP (${engine.name})`, () => {
    let database: TestDatabase;
    let smtp: TestSmtpServer;
    const apps: TestApp[] = [];
    beforeAll(async () => {
      [database, smtp] = await Promise.all([engine.createMigrated(), startSmtpServer()]);
    });
    afterAll(async () => {
      for (const app of apps) await app.close();
      await smtp?.close();
      await database?.drop();
    });

    it("is kept while the server cannot send mail and arrives once after a restart with SMTP_URL", async () => {
      const before = await startTestApp(engine, { database, worker: true });
      apps.push(before);
      const account = await before.createAccount({ vipThreshold: 10 });
      await updateAccount(before.deps.db.kysely, account.accountId, {
        channels: { alert_emails: "team@acme.test" },
      });
      const res = await before.submit(account.apiKey, {
        email: "jane@acme-buyers.com",
        firstName: "Jane",
        lastName: "Doe",
        address: { city: "Atherton", state: "CA", zipcode: "94027", country: "US" },
        order: { id: "1001", number: "#1001", total: "950.00", currency: "USD" },
      });
      expect(res.status).toBe(200);
      const alert = () => before.deps.db.kysely.selectFrom("alerts").selectAll().executeTakeFirst();
      await waitFor("the alert to wait", async () => (await alert())?.status === "waiting");
      expect(await alert()).toMatchObject({
        channel: "email",
        attempts: 0,
        last_error: WAITING_REASON,
      });
      const job = () =>
        before.deps.db.kysely
          .selectFrom("jobs")
          .selectAll()
          .where("task", "=", "deliver-email-alert")
          .executeTakeFirstOrThrow();
      // The alert is marked waiting a moment before its job is put back (attempt uncounted).
      await waitFor("the job to be put back", async () => (await job()).locked_by === null);
      expect((await job()).attempts).toBe(0);
      expect((await job()).run_at).toBeGreaterThan(Date.now() + 60_000);
      await before.close();
      apps.pop();

      const after = await startTestApp(engine, {
        database,
        worker: true,
        env: { SMTP_URL: smtp.url },
      });
      apps.push(after);
      await waitFor("the e-mail", () => smtp.messages.length > 0);
      const db = after.deps.db.kysely;
      await waitFor("the job to finish", async () => {
        // The worker also keeps its periodic retention rows: only the alert's job matters here.
        const jobs = await db
          .selectFrom("jobs")
          .select("id")
          .where("task", "=", "deliver-email-alert")
          .execute();
        return jobs.length === 0;
      });
      expect(smtp.messages).toHaveLength(1);
      expect(smtp.messages[0]?.rcptTo).toEqual(["team@acme.test"]);
      const delivered = await db.selectFrom("alerts").selectAll().executeTakeFirstOrThrow();
      expect(delivered).toMatchObject({ status: "delivered", attempts: 1, last_error: null });
    });
  });
}
