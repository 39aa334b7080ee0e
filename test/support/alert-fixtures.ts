/**
 * Alert test data: a VIP written straight into a real database (account with alert settings,
 * customer, latest order, enrichment with explained signals), a way to run one alert job the
 * way the worker does (handle, then onGiveUp when it will not be tried again), and sample
 * message content, plain and hostile.
 */
import { randomBytes } from "node:crypto";
import type { AppDeps } from "../../src/app-deps.js";
import { createAccount } from "../../src/features/accounts/create-account.js";
import { updateAccount } from "../../src/features/accounts/update-account.js";
import type { AlertJobPayload } from "../../src/features/alerts/alert-job.js";
import type { AlertContent } from "../../src/features/alerts/load-alert.js";
import type { JobOutcome, TaskDefinition } from "../../src/jobs/task.js";
import { newId } from "../../src/lib/ids.js";

/** Their points add up to the seeded score, 87: the top three reasons (60) and 27 more. */
export const VIP_SIGNALS = [
  { source: "profile", signal: "seniority", value: "c_level", points: 25 },
  { source: "profile", signal: "net_worth_usd", value: 5_000_000, points: 20 },
  { source: "offline", signal: "order_value", value: "1250.00 USD", points: 15 },
  { source: "offline", signal: "email_domain", value: "acme.com (corporate)", points: 5 },
  { source: "offline", signal: "repeat_purchases", value: 1, points: 0 },
  { source: "offline", signal: "area_median_income_usd", value: 250001, points: 12 },
  { source: "profile", signal: "company_employees", value: 1200, points: 10 },
];

export interface SeedVipOptions {
  webhookUrl?: string | null;
  alertEmails?: string[] | null;
  firstName?: string;
  lastName?: string;
  address?: { city: string | null; state: string | null; country: string | null };
  orders?: Array<{ number: string | null; total: string | null; currency: string }>;
  profile?: Record<string, unknown>;
  score?: number;
  threshold?: number;
}

export interface SeededVip {
  accountId: string;
  storeId: string;
  customerId: string;
  email: string;
  score: number;
  threshold: number;
}

export async function seedVip(deps: AppDeps, options: SeedVipOptions = {}): Promise<SeededVip> {
  const db = deps.db.kysely;
  const now = deps.clock.now();
  const tag = randomBytes(4).toString("hex");
  const threshold = options.threshold ?? 70;
  const score = options.score ?? 87;
  const account = await createAccount(
    db,
    {
      name: `Acme ${tag}`,
      ownerEmail: `owner-${tag}@acme.com`,
      passwordHash: null,
      vipThreshold: threshold,
    },
    now,
  );
  await updateAccount(db, account.accountId, {
    channels: {
      slack_webhook_url: options.webhookUrl ?? null,
      alert_emails: options.alertEmails?.join(",") || null,
    },
  });
  const customerId = newId(now);
  const email = `jane-${tag}@acme.com`;
  const address = options.address ?? { city: "Austin", state: "TX", country: "US" };
  await db
    .insertInto("customers")
    .values({
      id: customerId,
      store_id: account.storeId,
      email,
      email_normalized: email,
      first_name: options.firstName ?? "Jane",
      last_name: options.lastName ?? "Doe",
      phone: null,
      address_city: address.city,
      address_state: address.state,
      address_zipcode: null,
      address_country: address.country,
      enrichment_status: "enriched",
      created_at: now,
      updated_at: now,
    })
    .execute();
  const orders = options.orders ?? [
    { number: "1000", total: "20.00", currency: "USD" },
    { number: "1001", total: "1250.00", currency: "USD" },
  ];
  for (const [i, order] of orders.entries()) {
    await db
      .insertInto("orders")
      .values({
        id: newId(now + i),
        store_id: account.storeId,
        customer_id: customerId,
        external_order_id: `ext-${tag}-${i}`,
        order_number: order.number,
        total: order.total,
        currency: order.currency,
        created_at: now + i,
      })
      .execute();
  }
  await db
    .insertInto("enrichments")
    .values({
      customer_id: customerId,
      score,
      vip: 1,
      threshold,
      signals: JSON.stringify(VIP_SIGNALS),
      profile: JSON.stringify(options.profile ?? {}),
      attempts: 1,
      last_error: null,
      started_at: now,
      enriched_at: now,
      updated_at: now,
    })
    .execute();
  return {
    accountId: account.accountId,
    storeId: account.storeId,
    customerId,
    email,
    score,
    threshold,
  };
}

/** Runs one attempt of an alert job as the worker would, calling onGiveUp when it is final. */
export async function runAlertJob(
  deps: AppDeps,
  task: TaskDefinition<AlertJobPayload>,
  alertId: string,
  attempt = 1,
  maxAttempts = 10,
): Promise<JobOutcome> {
  const payload = task.payload.parse({ alertId });
  const signal = new AbortController().signal;
  const outcome = await task.handle(deps, payload, {
    jobId: `job-${alertId}`,
    attempt,
    maxAttempts,
    requestId: null,
    signal,
  });
  if (outcome.kind === "fail" || (outcome.kind === "retry" && attempt >= maxAttempts))
    await task.onGiveUp?.(deps, payload, outcome.error);
  return outcome;
}

export const SAMPLE_CONTENT: AlertContent = {
  customerId: "0190a000-0000-7000-8000-000000000001",
  customerName: "Jane Doe",
  customerEmail: "jane@acme.com",
  storeName: "Acme Store",
  score: 87,
  threshold: 70,
  reasons: [
    { label: "Seniority", value: "c_level", points: 25 },
    { label: "Net worth", value: "$5,000,000", points: 20 },
  ],
  order: { number: "1001", total: "1250.00", currency: "EUR" },
  location: "Austin, TX, US",
  customerUrl: "https://velvet.example.com/customers/0190a000-0000-7000-8000-000000000001",
};

/** Customer data that tries to ping, link, inject markup or break a header. */
export const HOSTILE_CONTENT: AlertContent = {
  ...SAMPLE_CONTENT,
  customerName: "<!channel> & <https://evil.example|click> <script>x</script>",
  customerEmail: "a&b@acme.com",
  location: "<b>Paris</b>",
  storeName: "R&D <shop>",
  reasons: [{ label: "Seniority", value: "<@U123> boss", points: 25 }],
  order: { number: "<1>", total: "10.00", currency: "USD" },
};
