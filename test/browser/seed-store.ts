/**
 * Fills a store with realistic dashboard data straight into the tables: customers spread over
 * the last `days` days, their orders and usage charges, enrichments (mostly enriched, some
 * pending or failed) with explained signals, profiles and the providers' answers, and for VIPs
 * one alert per channel with its delivery attempts. This is seeding, not the product at work:
 * the screenshot test and the dashboard benchmark need 400 to 10,000 customers in seconds, and
 * going through the API and the worker would measure them instead of the pages. Rows are shaped
 * by result-rows.ts.
 */
import type { Insertable, Kysely } from "kysely";
import type {
  AlertAttemptsTable,
  AlertsTable,
  CustomersTable,
  Database,
  EnrichmentsTable,
  OrdersTable,
  ProviderResultsTable,
  UsageChargesTable,
} from "../../src/db/schema.js";
import type { ScoreSignal } from "../../src/features/enrichment/score/score-signal.js";
import { newId } from "../../src/lib/ids.js";
import { alertRows, enrichedRow, providerResultRows } from "./result-rows.js";

const FIRST = [
  "Ava",
  "Liam",
  "Mia",
  "Noah",
  "Zoe",
  "Ethan",
  "Chloe",
  "Lucas",
  "Ivy",
  "Mason",
  "Nora",
  "Leo",
  "Ruby",
  "Owen",
  "Ada",
  "Felix",
];
const LAST = [
  "Sato",
  "Okafor",
  "Larsen",
  "Moreau",
  "Khan",
  "Rossi",
  "Novak",
  "Silva",
  "Meyer",
  "Walsh",
  "Haddad",
  "Costa",
  "Berg",
  "Ito",
];
const DOMAINS = [
  "gmail.com",
  "outlook.com",
  "acme.com",
  "northwind.io",
  "icloud.com",
  "globex.com",
];
const CITIES: Array<[string, string, string]> = [
  ["New York", "NY", "10021"],
  ["Atherton", "CA", "94027"],
  ["Austin", "TX", "78701"],
  ["Columbus", "OH", "43004"],
];

export interface SeedOptions {
  accountId: string;
  storeId: string;
  customers: number;
  days: number;
  now: number;
  threshold?: number;
  /** Deterministic data for stable screenshots. */
  seed?: number;
}

function rng(seed: number) {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 0x1_0000_0000;
  };
}

function signalsFor(vip: boolean, total: string, domain: string, zip: string): ScoreSignal[] {
  const corporate = !["gmail.com", "outlook.com", "icloud.com"].includes(domain);
  const signals: ScoreSignal[] = [
    vip
      ? { source: "profile", signal: "seniority", value: "Founder", points: 35 }
      : { source: "profile", signal: "provider_match", value: "no provider matched", points: 0 },
    {
      source: "offline",
      signal: "order_value",
      value: `${total} USD`,
      points: Number(total) >= 500 ? 18 : 0,
    },
    {
      source: "offline",
      signal: "email_domain",
      value: `${domain} (${corporate ? "corporate" : "free mail"})`,
      points: corporate ? 5 : 0,
    },
    {
      source: "offline",
      signal: "area_median_income_usd",
      value: zip === "94027" ? 250_001 : 78_000,
      points: zip === "94027" ? 25 : 0,
    },
  ];
  if (vip)
    signals.push({ source: "profile", signal: "net_worth_usd", value: 5_000_000, points: 25 });
  return signals;
}

async function insertChunks<T extends keyof Database>(
  db: Kysely<Database>,
  table: T,
  rows: Insertable<Database[T]>[],
) {
  for (let i = 0; i < rows.length; i += 400) {
    // Kysely's insert typing cannot follow a generic table name; the rows are typed by the caller.
    await db
      .insertInto(table)
      .values(rows.slice(i, i + 400) as never)
      .execute();
  }
}

export async function seedStore(
  db: Kysely<Database>,
  o: SeedOptions,
): Promise<{ customerIds: string[]; vipIds: string[] }> {
  const random = rng(o.seed ?? 42);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)] as T;
  const threshold = o.threshold ?? 70;
  const customers: Insertable<CustomersTable>[] = [];
  const orders: Insertable<OrdersTable>[] = [];
  const charges: Insertable<UsageChargesTable>[] = [];
  const enrichments: Insertable<EnrichmentsTable>[] = [];
  const providerResults: Insertable<ProviderResultsTable>[] = [];
  const alerts: Insertable<AlertsTable>[] = [];
  const attempts: Insertable<AlertAttemptsTable>[] = [];
  const customerIds: string[] = [];
  const vipIds: string[] = [];
  const span = o.days * 86_400_000;

  for (let i = 0; i < o.customers; i++) {
    const createdAt = o.now - Math.floor(random() * span);
    const id = newId(createdAt);
    const first = pick(FIRST);
    const last = pick(LAST);
    const domain = pick(DOMAINS);
    const email = `${first}.${last}.${i}@${domain}`.toLowerCase();
    const [city, state, zip] = pick(CITIES);
    const roll = random();
    const status = roll < 0.04 ? "pending" : roll < 0.07 ? "failed" : "enriched";
    customers.push({
      id,
      store_id: o.storeId,
      email,
      email_normalized: email,
      first_name: first,
      last_name: last,
      phone: null,
      address_city: city,
      address_state: state,
      address_zipcode: zip,
      address_country: "US",
      enrichment_status: status,
      created_at: createdAt,
      updated_at: createdAt,
    });
    customerIds.push(id);
    const orderCount = 1 + Math.floor(random() * 3);
    let firstTotal = "0.00";
    for (let n = 0; n < orderCount; n++) {
      const total = (20 + Math.floor(random() * (random() < 0.15 ? 2500 : 300))).toFixed(2);
      if (n === 0) firstTotal = total;
      const at = Math.min(o.now, createdAt + n * 3 * 86_400_000);
      orders.push({
        id: newId(at),
        store_id: o.storeId,
        customer_id: id,
        external_order_id: `${i}-${n}`,
        order_number: `#${10000 + i * 3 + n}`,
        total,
        currency: "USD",
        created_at: at,
      });
    }
    charges.push({
      id: newId(createdAt),
      account_id: o.accountId,
      store_id: o.storeId,
      customer_id: id,
      unit_price_usd: "0.05",
      created_at: createdAt,
    });
    if (status === "pending") continue;
    if (status === "failed") {
      enrichments.push({
        customer_id: id,
        score: null,
        vip: null,
        threshold: null,
        signals: "[]",
        profile: "{}",
        attempts: 3,
        last_error: "pdl: 503 Service Unavailable",
        started_at: createdAt,
        enriched_at: null,
        updated_at: createdAt + 10_000,
      });
      continue;
    }
    const wantVip = random() < 0.12;
    const enrichedAt = createdAt + 3_000;
    const { row, score, vip } = enrichedRow(id, {
      signals: signalsFor(wantVip, firstTotal, domain, zip),
      threshold,
      at: enrichedAt,
      startedAt: createdAt,
      profile: wantVip
        ? {
            title: "Founder & CEO",
            seniority: "founder",
            company: "Northwind",
            companyEmployees: 500,
            netWorthUsd: 5_000_000,
            location: `${city}, ${state}`,
            social: [
              {
                network: "linkedin",
                handle: `${first}${last}`.toLowerCase(),
                url: null,
                followers: 12_400,
              },
            ],
          }
        : {},
    });
    enrichments.push(row);
    providerResults.push(...providerResultRows(id, wantVip ? "matched" : "not_found", createdAt));
    if (!vip) continue;
    vipIds.push(id);
    for (const channel of ["chat", "email"] as const) {
      const failed = channel === "chat" && random() < 0.1;
      const rows = alertRows({
        accountId: o.accountId,
        customerId: id,
        channel,
        status: failed ? "failed" : "delivered",
        target: channel === "chat" ? "https://hooks.slack.com/…k3Yq" : "team@northwind.io",
        score,
        threshold,
        at: enrichedAt,
        attempts: failed
          ? [
              {
                outcome: "failed",
                statusCode: 404,
                error: "404 channel_not_found",
                afterMs: 200,
                durationMs: 140,
              },
            ]
          : [
              {
                outcome: "retry",
                statusCode: 503,
                error: "503 Service Unavailable",
                afterMs: 200,
                durationMs: 210,
              },
              {
                outcome: "delivered",
                statusCode: channel === "chat" ? 200 : 250,
                error: null,
                afterMs: 2_500,
                durationMs: 95,
              },
            ],
      });
      alerts.push(rows.alert);
      attempts.push(...rows.attempts);
    }
  }
  await insertChunks(db, "customers", customers);
  await insertChunks(db, "orders", orders);
  await insertChunks(db, "usage_charges", charges);
  await insertChunks(db, "enrichments", enrichments);
  await insertChunks(db, "provider_results", providerResults);
  await insertChunks(db, "alerts", alerts);
  await insertChunks(db, "alert_attempts", attempts);
  return { customerIds, vipIds };
}
