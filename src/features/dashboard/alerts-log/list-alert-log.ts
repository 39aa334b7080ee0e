/**
 * The account's alerts, newest first, one page at a time, each with its customer and every
 * delivery attempt. Scoped by `alerts.account_id`, served by its (account_id, created_at) index.
 */
import type { Kysely } from "kysely";
import type { AlertStatus, Database } from "../../../db/schema.js";
import { withAttempts } from "../../alerts/with-attempts.js";
import { type VerdictView, verdictsOf } from "../../verdicts/list-verdicts.js";
import type { AlertWithAttempts } from "./delivery-view.js";

export const ALERTS_PAGE_SIZE = 50;

export interface AlertLogRow extends AlertWithAttempts {
  customerName: string;
  customerEmail: string;
  /** Whether the customer is a VIP now (a later enrichment may have changed it). */
  vipNow: boolean;
  verdict: VerdictView | undefined;
}

export async function listAlertLog(
  db: Kysely<Database>,
  accountId: string,
  filter: { status: AlertStatus | null; page: number },
): Promise<{ rows: AlertLogRow[]; total: number }> {
  let base = db.selectFrom("alerts").where("alerts.account_id", "=", accountId);
  if (filter.status !== null) base = base.where("alerts.status", "=", filter.status);
  const count = await base.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirst();
  const alerts = await base
    .innerJoin("customers", "customers.id", "alerts.customer_id")
    .leftJoin("enrichments", "enrichments.customer_id", "alerts.customer_id")
    .selectAll("alerts")
    .select([
      "customers.first_name",
      "customers.last_name",
      "customers.email",
      "enrichments.vip as vip_now",
    ])
    .orderBy("alerts.created_at", "desc")
    .orderBy("alerts.id", "desc")
    .limit(ALERTS_PAGE_SIZE)
    .offset((filter.page - 1) * ALERTS_PAGE_SIZE)
    .execute();
  const verdicts = await verdictsOf(
    db,
    accountId,
    alerts.map((a) => a.customer_id),
  );
  const rows = alerts.map(({ first_name, last_name, email, vip_now, ...a }) => ({
    ...a,
    customerName: `${first_name} ${last_name}`.trim() || email,
    customerEmail: email,
    vipNow: vip_now === 1,
    verdict: verdicts.get(a.customer_id),
  }));
  return { total: Number(count?.n ?? 0), rows: await withAttempts(db, rows) };
}
