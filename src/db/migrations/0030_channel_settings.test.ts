/**
 * Migration 0030 on a database whose accounts hold alert settings in their own columns, on both
 * engines: the values move to `channel_settings` as they were stored, the columns go, an
 * account without settings gets no row, existing verdicts stay, and a verdict may name a
 * source the migration never listed.
 */
import { type Kysely, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import {
  migrationsBefore,
  seedAccountAndStore,
  upgradeBeforeTests,
} from "../../../test/support/migration-upgrade.js";
import { newId } from "../../lib/ids.js";
import type { Db } from "../connect.js";
import { MIGRATIONS } from "../migrate.js";
import type { Database } from "../schema.js";

const BEFORE = migrationsBefore(MIGRATIONS, "0030_channel_settings");
const NOW = 1_800_000_000_000;
const WEBHOOK = "https://hooks.slack.com/services/T000/B000/abcdefghijklmnopqrstuvwx";

async function seed(k: Kysely<Database>) {
  const both = { accountId: newId(), storeId: newId() };
  const none = { accountId: newId(), storeId: newId() };
  await seedAccountAndStore(k, both, NOW);
  await seedAccountAndStore(k, none, NOW);
  await sql`update accounts set slack_webhook_url = ${WEBHOOK},
    alert_emails = ${"team@acme.com,ceo@acme.com"} where id = ${both.accountId}`.execute(k);
  const customers = [newId(), newId()];
  for (const id of customers) {
    await sql`insert into customers (id, store_id, email, email_normalized, first_name, last_name,
      enrichment_status, created_at, updated_at)
      values (${id}, ${both.storeId}, ${`${id}@acme.com`}, ${`${id}@acme.com`}, 'J', 'D', 'enriched',
      ${NOW}, ${NOW})`.execute(k);
  }
  await sql`insert into vip_verdicts (customer_id, account_id, verdict, source, given_by, given_at)
    values (${customers[0]}, ${both.accountId}, 'right', 'chat', null, ${NOW})`.execute(k);
  return { both: both.accountId, none: none.accountId, customers };
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(
    `migration 0030 on accounts with alert settings (${engine.name})`,
    () => {
      let db: Db;
      let rows: Awaited<ReturnType<typeof seed>>;

      upgradeBeforeTests(engine, BEFORE, seed, (u) => {
        db = u.db;
        rows = u.rows;
      });

      it("moves each account's values to channel_settings as they were stored", async () => {
        const settings = await db.kysely
          .selectFrom("channel_settings")
          .selectAll()
          .orderBy("channel")
          .execute();
        expect(settings).toEqual([
          { account_id: rows.both, channel: "chat", name: "slack_webhook_url", value: WEBHOOK },
          {
            account_id: rows.both,
            channel: "email",
            name: "alert_emails",
            value: "team@acme.com,ceo@acme.com",
          },
        ]);
      });

      it("drops the accounts columns", async () => {
        await expect(
          sql`select slack_webhook_url from accounts`.execute(db.kysely),
        ).rejects.toThrow();
        await expect(sql`select alert_emails from accounts`.execute(db.kysely)).rejects.toThrow();
      });

      it("keeps verdicts and accepts a source no migration listed", async () => {
        const [first, second] = rows.customers;
        await sql`insert into vip_verdicts (customer_id, account_id, verdict, source, given_by,
          given_at) values (${second}, ${rows.both}, 'wrong', 'teams', null, ${NOW})`.execute(
          db.kysely,
        );
        const verdicts = await db.kysely
          .selectFrom("vip_verdicts")
          .select(["customer_id", "source"])
          .where("account_id", "=", rows.both)
          .orderBy("source")
          .execute();
        expect(verdicts).toEqual([
          { customer_id: first, source: "chat" },
          { customer_id: second, source: "teams" },
        ]);
        // The verdict itself is still checked.
        await expect(
          sql`update vip_verdicts set verdict = 'maybe' where customer_id = ${first}`.execute(
            db.kysely,
          ),
        ).rejects.toThrow();
      });

      it("refuses a setting of an account that does not exist", async () => {
        await expect(
          db.kysely
            .insertInto("channel_settings")
            .values({ account_id: newId(), channel: "chat", name: "x", value: "y" })
            .execute(),
        ).rejects.toThrow();
      });
    },
  );
}
