/**
 * The Overview's numbers for the last N days (UTC, today included): new customers, how many
 * of them are VIPs, the VIP rate among those enriched, orders (purchases only: a cancelled,
 * refunded or voided order is not counted), completed enrichments, a daily series for the
 * chart, and the latest VIPs. Every query is scoped by account through stores
 * and bounded by the (store_id, created_at) indexes of customers and orders.
 */
import { type Kysely, sql } from "kysely";
import type { Database } from "../../../db/schema.js";
import type { DayPoint } from "../html/bar-chart.js";

export const PERIODS = [7, 30, 90] as const;
export type Period = (typeof PERIODS)[number];
const DAY_MS = 86_400_000;

export interface LatestVip {
  id: string;
  name: string;
  email: string;
  score: number;
  enrichedAt: number | null;
}

export interface Overview {
  period: Period;
  hasCustomers: boolean;
  hasActiveKey: boolean;
  customers: number;
  enriched: number;
  pending: number;
  failed: number;
  vips: number;
  orders: number;
  enrichmentsCompleted: number;
  days: DayPoint[];
  latestVips: LatestVip[];
}

export async function getOverview(
  db: Kysely<Database>,
  accountId: string,
  period: Period,
  now: number,
): Promise<Overview> {
  const today = Math.floor(now / DAY_MS);
  const from = (today - period + 1) * DAY_MS;
  const customers = () =>
    db
      .selectFrom("customers")
      .innerJoin("stores", "stores.id", "customers.store_id")
      .where("stores.account_id", "=", accountId);

  const [daily, orders, completed, latest, anyCustomer, activeKey] = await Promise.all([
    customers()
      .leftJoin("enrichments", "enrichments.customer_id", "customers.id")
      .select([
        sql<number>`customers.created_at / ${sql.lit(DAY_MS)}`.as("day"),
        "customers.enrichment_status as status",
        (eb) => eb.fn.countAll<number>().as("n"),
        (eb) =>
          eb.fn
            .sum<number>(eb.case().when("enrichments.vip", "=", 1).then(1).else(0).end())
            .as("vips"),
      ])
      .where("customers.created_at", ">=", from)
      .groupBy([sql`customers.created_at / ${sql.lit(DAY_MS)}`, "customers.enrichment_status"])
      .execute(),
    db
      .selectFrom("orders")
      .innerJoin("stores", "stores.id", "orders.store_id")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("stores.account_id", "=", accountId)
      .where("orders.created_at", ">=", from)
      .where("orders.counts", "=", 1)
      .executeTakeFirst(),
    customers()
      .innerJoin("enrichments", "enrichments.customer_id", "customers.id")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("enrichments.enriched_at", ">=", from)
      .executeTakeFirst(),
    customers()
      .innerJoin("enrichments", "enrichments.customer_id", "customers.id")
      .select([
        "customers.id",
        "customers.first_name",
        "customers.last_name",
        "customers.email",
        "enrichments.score",
        "enrichments.enriched_at",
      ])
      .where("enrichments.vip", "=", 1)
      .orderBy("enrichments.enriched_at", "desc")
      .orderBy("customers.id", "desc")
      .limit(5)
      .execute(),
    customers().select("customers.id").limit(1).executeTakeFirst(),
    db
      .selectFrom("api_keys")
      .innerJoin("stores", "stores.id", "api_keys.store_id")
      .select("api_keys.id")
      .where("stores.account_id", "=", accountId)
      .where("api_keys.revoked_at", "is", null)
      .limit(1)
      .executeTakeFirst(),
  ]);

  const perDay = new Map<number, DayPoint>();
  const totals = { customers: 0, enriched: 0, pending: 0, failed: 0, vips: 0 };
  for (const r of daily) {
    const day = Math.floor(Number(r.day));
    const n = Number(r.n);
    const vips = Number(r.vips ?? 0);
    const point = perDay.get(day) ?? { day, value: 0, highlight: 0 };
    point.value += n;
    point.highlight = (point.highlight ?? 0) + vips;
    perDay.set(day, point);
    totals.customers += n;
    totals.vips += vips;
    totals[r.status] += n;
  }
  const days: DayPoint[] = [];
  for (let day = today - period + 1; day <= today; day++)
    days.push(perDay.get(day) ?? { day, value: 0, highlight: 0 });

  return {
    period,
    hasCustomers: anyCustomer !== undefined,
    hasActiveKey: activeKey !== undefined,
    ...totals,
    orders: Number(orders?.n ?? 0),
    enrichmentsCompleted: Number(completed?.n ?? 0),
    days,
    latestVips: latest.map((v) => ({
      id: v.id,
      name: `${v.first_name} ${v.last_name}`.trim() || v.email,
      email: v.email,
      score: v.score ?? 0,
      enrichedAt: v.enriched_at,
    })),
  };
}
