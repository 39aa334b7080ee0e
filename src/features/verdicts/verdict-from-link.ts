/**
 * A verdict given through a link in an alert's message (verdict-links.ts): the link is checked
 * (the alert exists, has a secret, is at most 90 days old, and the token is its HMAC, compared
 * in constant time) and the verdict recorded as from that alert's channel, by nobody signed in.
 */
import type { Kysely } from "kysely";
import type { AlertChannel, Database, VerdictValue } from "../../db/schema.js";
import { isUuid } from "../../lib/ids.js";
import type { AuditActor } from "../audit/audit-actor.js";
import { recordVerdict, type VerdictOutcome } from "./record-verdict.js";
import { isVerdict, tokenMatches, VERDICT_LINK_TTL_MS } from "./verdict-links.js";

export interface VerdictLinkQuery {
  alert: string;
  verdict: string;
  token: string;
}

export interface ValidLink {
  alertId: string;
  accountId: string;
  customerId: string;
  channel: AlertChannel;
  verdict: VerdictValue;
  /** Who the verdict is about, as little as names them: "Jane D." (customerShortName). */
  customerName: string;
}

/** "Jane D.": the first name and the last name's initial; "Jane", "D.", or "this customer". */
export function customerShortName(firstName: string | null, lastName: string | null): string {
  const first = firstName?.trim() ?? "";
  const initial = Array.from(lastName?.trim() ?? "")[0];
  const short = [first, initial === undefined ? "" : `${initial.toUpperCase()}.`]
    .filter((part) => part !== "")
    .join(" ");
  return short === "" ? "this customer" : short;
}

/** The link's alert and verdict when the link is genuine and current; null otherwise. */
export async function checkVerdictLink(
  db: Kysely<Database>,
  link: VerdictLinkQuery,
  now: number,
): Promise<ValidLink | null> {
  const { verdict } = link;
  if (!isUuid(link.alert) || !isVerdict(verdict) || !/^[A-Za-z0-9_-]{43}$/.test(link.token))
    return null;
  const alert = await db
    .selectFrom("alerts")
    .leftJoin("customers", "customers.id", "alerts.customer_id")
    .select([
      "alerts.id",
      "alerts.account_id",
      "alerts.customer_id",
      "alerts.channel",
      "alerts.created_at",
      "alerts.verdict_secret",
      "customers.first_name",
      "customers.last_name",
    ])
    .where("alerts.id", "=", link.alert.toLowerCase())
    .executeTakeFirst();
  if (!alert || alert.verdict_secret === null) return null;
  // Checked before the age, so a forged link learns nothing about whether the alert exists.
  if (!tokenMatches(alert.verdict_secret, alert.id, verdict, link.token)) return null;
  if (now >= alert.created_at + VERDICT_LINK_TTL_MS) return null;
  return {
    alertId: alert.id,
    accountId: alert.account_id,
    customerId: alert.customer_id,
    channel: alert.channel,
    verdict,
    customerName: customerShortName(alert.first_name, alert.last_name),
  };
}

/** Whoever followed the link: not signed in, known only by the channel the alert went to. */
export function linkActor(channel: AlertChannel): AuditActor {
  return {
    kind: "user",
    name: `link in the ${channel === "email" ? "e-mail" : channel} alert`,
  };
}

export async function verdictFromLink(
  db: Kysely<Database>,
  link: VerdictLinkQuery,
  now: number,
): Promise<(VerdictOutcome & { link: ValidLink }) | null> {
  const valid = await checkVerdictLink(db, link, now);
  if (valid === null) return null;
  const outcome = await recordVerdict(
    db,
    {
      accountId: valid.accountId,
      customerId: valid.customerId,
      verdict: valid.verdict,
      source: valid.channel,
      givenBy: null,
      actor: linkActor(valid.channel),
    },
    now,
  );
  return { ...outcome, link: valid };
}
