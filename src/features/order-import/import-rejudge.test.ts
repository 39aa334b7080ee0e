/**
 * An imported history re-judges the customers the store already knew, on both engines: one
 * keyed job per such customer, written once the file is done (not one per row, which would reset
 * the keyed row with each later order: its update time would pass its creation), historical
 * unless the import raises alerts; a customer the file
 * creates gets their enrichment instead. No worker runs, so what the import queued is seen as it
 * left it.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import { startTestApp, type TestAccount, type TestApp } from "../../../test/support/test-app.js";
import { rejudgeJobKey } from "../enrichment/rejudge/enqueue-rejudge.js";
import { importOrders } from "./import-orders.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "velvet-import-rejudge-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function historyFile(name: string, rows: Array<[email: string, orderId: string]>): string {
  const file = path.join(dir, name);
  fs.writeFileSync(
    file,
    [
      "email,first_name,last_name,phone,city,state,zipcode,country,order_id,order_number,total,currency,ordered_at",
      ...rows.map(
        ([email, id], i) => `${email},Rita,Regular,,,,,US,${id},#${i},200.00,USD,2024-02-01`,
      ),
    ].join("\n"),
  );
  return file;
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`an import re-judges known customers (${engine.name})`, () => {
    let app: TestApp;
    let account: TestAccount;

    beforeAll(async () => {
      app = await startTestApp(engine);
      account = await app.createAccount({ name: "Regulars" });
    });
    afterAll(() => app?.close());

    const jobsOf = (customerId: string) =>
      app.deps.db.kysely
        .selectFrom("jobs")
        .select(["payload", "priority", "created_at", "updated_at"])
        .where("job_key", "=", rejudgeJobKey(customerId))
        .execute();

    it("queues one historical re-judge per known customer, at the end", async () => {
      const known = `rita-${engine.name}@gmail.com`;
      const res = await app.submit(account.apiKey, {
        email: known,
        firstName: "Rita",
        lastName: "Regular",
        order: { id: "live-1", total: "200.00", currency: "USD" },
      });
      expect(res.status).toBe(200);
      const customerId = ((await res.json()) as { customerId: string }).customerId;
      // As the enrichment leaves a known customer.
      await app.deps.db.kysely
        .updateTable("customers")
        .set({ enrichment_status: "enriched" })
        .where("id", "=", customerId)
        .execute();
      const fresh = `new-${engine.name}@gmail.com`;
      const rows: Array<[string, string]> = [
        ...Array.from({ length: 30 }, (_, i): [string, string] => [known, `h-${i}`]),
        [fresh, "n-1"],
      ];
      const summary = await importOrders(app.deps, {
        accountId: account.accountId,
        file: historyFile(`history-${engine.name}.csv`, rows),
        apply: true,
        alerts: false,
        batchSize: 8,
      });
      expect(summary).toMatchObject({ orders: 31, newCustomers: 1, errors: 0 });
      const jobs = await jobsOf(customerId);
      expect(jobs).toHaveLength(1);
      expect(JSON.parse(jobs[0]?.payload ?? "{}")).toEqual({ customerId, historical: true });
      expect(jobs[0]?.priority).toBe(1);
      expect(jobs[0]?.updated_at).toBe(jobs[0]?.created_at);
      const created = await app.deps.db.kysely
        .selectFrom("customers")
        .select("id")
        .where("email_normalized", "=", fresh)
        .executeTakeFirstOrThrow();
      expect(await jobsOf(created.id)).toEqual([]);
    });
  });
}
