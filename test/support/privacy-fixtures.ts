/**
 * A person with everything Velvet can hold about them, made the way production makes it where
 * that is practical: orders through the real API (customer, orders, charge, enrichment job), the
 * real worker's enrichment, then what a VIP's life adds (a provider's raw answer naming them, an
 * alert, a delivery attempt, a pending alert job) written as those features write them.
 */
import { randomBytes } from "node:crypto";
import { expect } from "vitest";
import { enqueueJob } from "../../src/jobs/enqueue-job.js";
import { newId } from "../../src/lib/ids.js";
import { waitFor } from "./job-deps.js";
import type { TestAccount, TestApp } from "./test-app.js";

export interface Person {
  customerId: string;
  email: string;
  lastName: string;
  phone: string;
  alertId: string;
}

export function personalDetails(tag = randomBytes(5).toString("hex")) {
  return {
    email: `erasable.${tag}@example.org`,
    firstName: "Ottoline",
    lastName: `Vandermeer${tag}`,
    phone: `+1555${Number.parseInt(tag.slice(0, 6), 16).toString().padStart(7, "0").slice(0, 7)}`,
  };
}

export async function seedPerson(app: TestApp, account: TestAccount, orders = 2): Promise<Person> {
  const who = personalDetails();
  for (let i = 0; i < orders; i++) {
    const res = await app.submit(account.apiKey, {
      ...who,
      address: { city: "Lisbon", state: "LX", zipcode: "90210", country: "PT" },
      order: { id: `p-${who.lastName}-${i}`, number: `N${i}`, total: "950.00", currency: "EUR" },
    });
    expect(res.status).toBe(200);
  }
  const db = app.deps.db.kysely;
  const customer = await db
    .selectFrom("customers")
    .select("id")
    .where("email_normalized", "=", who.email)
    .where("store_id", "=", account.storeId)
    .executeTakeFirstOrThrow();
  await waitFor("the enrichment", async () => {
    const row = await db
      .selectFrom("customers")
      .select("enrichment_status")
      .where("id", "=", customer.id)
      .executeTakeFirst();
    return row?.enrichment_status === "enriched";
  });
  const now = app.deps.clock.now();
  await db
    .insertInto("provider_results")
    .values({
      id: newId(now),
      customer_id: customer.id,
      provider: "pdl",
      outcome: "matched",
      http_status: 200,
      raw: JSON.stringify({
        status: 200,
        data: {
          work_email: who.email,
          last_name: who.lastName,
          mobile_phone: who.phone,
          job_title: "Director",
        },
      }),
      profile: JSON.stringify({ jobTitle: "Director" }),
      error: null,
      fetched_at: now,
    })
    .execute();
  const alertId = newId(now);
  await db
    .insertInto("alerts")
    .values({
      id: alertId,
      account_id: account.accountId,
      customer_id: customer.id,
      channel: "chat",
      status: "pending",
      target: "hooks.slack.com",
      score: 88,
      threshold: 70,
      message_id: `${alertId}@velvet`,
      attempts: 1,
      last_error: `HTTP 500 while announcing ${who.email}`,
      created_at: now,
      delivered_at: null,
    })
    .execute();
  await db
    .insertInto("alert_attempts")
    .values({
      id: newId(now),
      alert_id: alertId,
      attempted_at: now,
      outcome: "retry",
      status_code: 500,
      error: "internal_error",
      duration_ms: 12,
    })
    .execute();
  await enqueueJob(
    db,
    {
      task: "deliver-chat-alert",
      payload: { alertId },
      jobKey: `alert:${alertId}`,
      runAt: now + 3_600_000,
    },
    now,
  );
  return { customerId: customer.id, ...who, alertId };
}
