/**
 * Everything one delivery needs, read fresh at send time: the alert row, the account's current
 * channel settings (a webhook changed or removed after the alert was queued is respected; only
 * confirmed alert addresses), and
 * the content both messages show. The score and threshold are the alert's own snapshot; the tier
 * is the one that score reaches among the account's tiers at send time.
 */
import type { Kysely } from "kysely";
import type { AlertChannel, AlertStatus, Database } from "../../db/schema.js";
import { readTiers, tierOf } from "../customers/tiers.js";
import { type VerdictLinks, verdictLinks } from "../verdicts/verdict-links.js";
import { alertEmailStates } from "./alert-email-states.js";
import { splitAlertEmails } from "./alert-settings.js";
import { readChannelValues, type SettingsKey } from "./channels/channel-settings-store.js";
import type { ChannelValues } from "./channels/channel-values.js";
import { type AlertReason, explainScore, type MoreReasons } from "./top-reasons.js";

export interface AlertContent {
  customerId: string;
  customerName: string;
  customerEmail: string;
  storeName: string;
  score: number;
  threshold: number;
  /** The account's tier the score reaches (customers/tiers.ts); absent or null: none. */
  tier?: string | null;
  reasons: AlertReason[];
  /** What the other signals add, so the reasons sum to the score; absent or null: nothing. */
  more?: MoreReasons | null;
  /**
   * Why a known customer became a VIP on later orders ("now a VIP: $3,020.00 over 21 orders",
   * enrichment/rejudge/); absent for a VIP found at enrichment.
   */
  promotion?: string | null;
  /** The customer's latest purchase (cancelled, refunded or voided orders left out), if any. */
  order: { number: string | null; total: string | null; currency: string } | null;
  location: string | null;
  customerUrl: string;
  /**
   * The signed "Right" / "Not a VIP" links (verdicts/verdict-links.ts), the same on every
   * retry; absent on alerts written before verdicts existed and on test messages.
   */
  verdictLinks?: VerdictLinks | null;
}

export interface LoadedAlert {
  alertId: string;
  accountId: string;
  channel: AlertChannel;
  status: AlertStatus;
  messageId: string;
  createdAt: number;
  /** The account's current channel settings (secrets opened). */
  settings: ChannelValues;
  /** The account's confirmed alert addresses: the only ones an alert is sent to. */
  alertEmails: string[];
  /** Addresses added in the dashboard that still await their owner's confirmation. */
  awaitingEmails: string[];
  content: AlertContent;
}

export async function loadAlert(
  db: Kysely<Database>,
  alertId: string,
  publicBaseUrl: string,
  key: SettingsKey,
): Promise<LoadedAlert | null> {
  const row = await db
    .selectFrom("alerts")
    .innerJoin("accounts", "accounts.id", "alerts.account_id")
    .innerJoin("customers", "customers.id", "alerts.customer_id")
    .innerJoin("stores", "stores.id", "customers.store_id")
    .leftJoin("enrichments", "enrichments.customer_id", "alerts.customer_id")
    .select([
      "alerts.id",
      "alerts.channel",
      "alerts.status",
      "alerts.message_id",
      "alerts.score",
      "alerts.threshold",
      "alerts.created_at",
      "alerts.account_id",
      "alerts.verdict_secret",
      "accounts.tiers",
      "stores.name as store_name",
      "customers.id as customer_id",
      "customers.email",
      "customers.first_name",
      "customers.last_name",
      "customers.address_city",
      "customers.address_state",
      "customers.address_country",
      "enrichments.signals",
      "enrichments.profile",
      "enrichments.vip",
      "enrichments.vip_change_reason",
    ])
    .where("alerts.id", "=", alertId)
    .executeTakeFirst();
  if (!row) return null;
  // Only the alert's own channel: another channel's secret this process cannot open is no
  // reason to hold this alert.
  const settings: ChannelValues = await readChannelValues(db, row.account_id, key, {
    channel: row.channel,
  });
  const order = await db
    .selectFrom("orders")
    .select(["order_number", "external_order_id", "total", "currency"])
    .where("customer_id", "=", row.customer_id)
    // The latest purchase: an order cancelled since is not what the alert reports.
    .where("counts", "=", 1)
    .orderBy("created_at", "desc")
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  const emails = await alertEmailStates(
    db,
    row.account_id,
    splitAlertEmails(settings.alert_emails ?? null),
  );
  const name = `${row.first_name} ${row.last_name}`.trim();
  const address = [row.address_city, row.address_state, row.address_country]
    .filter((part): part is string => part !== null && part.trim() !== "")
    .join(", ");
  return {
    alertId: row.id,
    accountId: row.account_id,
    channel: row.channel,
    status: row.status,
    messageId: row.message_id,
    createdAt: row.created_at,
    settings,
    alertEmails: emails.confirmed,
    awaitingEmails: emails.awaiting,
    content: {
      customerId: row.customer_id,
      customerName: name === "" ? row.email : name,
      customerEmail: row.email,
      storeName: row.store_name,
      score: row.score,
      threshold: row.threshold,
      tier: tierOf(row.score, readTiers(row.tiers)),
      ...explainScore(row.signals ?? "[]"),
      promotion: row.vip === 1 ? (row.vip_change_reason ?? null) : null,
      order: order
        ? {
            number: order.order_number ?? order.external_order_id,
            total: order.total,
            currency: order.currency,
          }
        : null,
      location: address !== "" ? address : profileLocation(row.profile),
      customerUrl: `${publicBaseUrl}/customers/${row.customer_id}`,
      verdictLinks: verdictLinks(publicBaseUrl, { id: row.id, verdictSecret: row.verdict_secret }),
    },
  };
}

function profileLocation(profileJson: string | null): string | null {
  try {
    const profile: unknown = JSON.parse(profileJson ?? "{}");
    const location = (profile as { location?: unknown } | null)?.location;
    return typeof location === "string" && location.trim() !== "" ? location.trim() : null;
  } catch {
    return null;
  }
}
