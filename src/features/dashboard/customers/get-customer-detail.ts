/**
 * One customer as their page shows them: the record, the enrichment and its explanation, the
 * orders (every one, each with its platform status: a cancelled or refunded order is listed and
 * marked, though it is not a purchase), the tier the score reaches, each provider's outcome, and
 * the alerts sent with every delivery attempt. Null when
 * the customer is not this account's (the page then answers 404, as for an unknown id).
 */
import type { Kysely, Selectable } from "kysely";
import type {
  Customer,
  Database,
  EnrichmentsTable,
  Order,
  ProviderResultsTable,
} from "../../../db/schema.js";
import { isUuid } from "../../../lib/ids.js";
import { withAttempts } from "../../alerts/with-attempts.js";
import { accountTiers } from "../../customers/account-tiers.js";
import { tierOf } from "../../customers/tiers.js";
import { type VerdictView, verdictsOf } from "../../verdicts/list-verdicts.js";
import type { AlertWithAttempts } from "../alerts-log/delivery-view.js";

export const ORDERS_SHOWN = 100;

export interface CustomerDetail {
  customer: Customer;
  enrichment: Selectable<EnrichmentsTable> | null;
  /** The account's tier the score reaches; null when none or not scored yet. */
  tier: string | null;
  orders: Order[];
  /** Every order, purchases or not. */
  orderCount: number;
  /** Orders that count as purchases (not cancelled, refunded, voided). */
  purchaseCount: number;
  providers: Array<
    Omit<Selectable<ProviderResultsTable>, "raw" | "profile" | "id" | "customer_id">
  >;
  alerts: AlertWithAttempts[];
  /** The merchant's latest verdict on this VIP, if any. */
  verdict: VerdictView | undefined;
}

export async function getCustomerDetail(
  db: Kysely<Database>,
  accountId: string,
  customerId: string,
): Promise<CustomerDetail | null> {
  if (!isUuid(customerId)) return null;
  const customer = await db
    .selectFrom("customers")
    .innerJoin("stores", "stores.id", "customers.store_id")
    .selectAll("customers")
    .where("customers.id", "=", customerId.toLowerCase())
    .where("stores.account_id", "=", accountId)
    .executeTakeFirst();
  if (!customer) return null;

  const [enrichment, orders, orderCount, providers, alerts, verdicts, tiers] = await Promise.all([
    db
      .selectFrom("enrichments")
      .selectAll()
      .where("customer_id", "=", customer.id)
      .executeTakeFirst(),
    db
      .selectFrom("orders")
      .selectAll()
      .where("customer_id", "=", customer.id)
      .orderBy("created_at", "desc")
      .orderBy("id", "desc")
      .limit(ORDERS_SHOWN)
      .execute(),
    db
      .selectFrom("orders")
      .select((eb) => [
        eb.fn.countAll<number>().as("n"),
        eb.fn.sum<number>("counts").as("purchases"),
      ])
      .where("customer_id", "=", customer.id)
      .executeTakeFirst(),
    db
      .selectFrom("provider_results")
      .select([
        "provider",
        "outcome",
        "http_status",
        "error",
        "fetched_at",
        "raw_cleared_at",
        "confidence",
      ])
      .where("customer_id", "=", customer.id)
      .orderBy("provider")
      .execute(),
    db
      .selectFrom("alerts")
      .selectAll()
      .where("customer_id", "=", customer.id)
      .where("account_id", "=", accountId)
      .orderBy("created_at")
      .execute(),
    verdictsOf(db, accountId, [customer.id]),
    accountTiers(db, accountId),
  ]);
  return {
    customer,
    enrichment: enrichment ?? null,
    tier: tierOf(enrichment?.score, tiers),
    orders,
    orderCount: Number(orderCount?.n ?? 0),
    purchaseCount: Number(orderCount?.purchases ?? 0),
    providers,
    alerts: await withAttempts(db, alerts),
    verdict: verdicts.get(customer.id),
  };
}
