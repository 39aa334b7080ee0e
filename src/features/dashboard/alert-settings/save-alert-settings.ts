/**
 * Saving Settings → Alerts: the settings and, for every address that was not on the list
 * before, a pending confirmation, and the audit record, in one transaction (an alert cannot slip out to a new address
 * in between); then a confirmation link is mailed to each new address.
 */

import type { Deps } from "../../../deps.js";
import {
  applyAlertSettingsChange,
  readAlertSettings,
} from "../../accounts/change-alert-settings.js";
import type { AccountSettings } from "../../accounts/update-account.js";
import type { AlertsDeps } from "../../alerts/alert-deps.js";
import { awaitConfirmation, mailConfirmation } from "../../alerts/alert-email-confirmation.js";
import { splitAlertEmails } from "../../alerts/alert-settings.js";
import type { AuditActor } from "../../audit/audit-actor.js";
import { normalizeEmail } from "../../orders/email-address.js";

export interface SavedAlertSettings {
  /** New addresses a confirmation link was mailed to. */
  mailed: string[];
  /** New addresses whose link could not be mailed now ("send again" later). */
  notMailed: string[];
}

export async function saveAlertSettings(
  deps: Deps & AlertsDeps,
  account: { accountId: string; accountName: string },
  settings: AccountSettings,
  actor: AuditActor,
): Promise<SavedAlertSettings> {
  const now = deps.clock.now();
  const pending = await deps.db.kysely.transaction().execute(async (trx) => {
    const before = await readAlertSettings(trx, account.accountId, deps.config.storeSync.tokenKey);
    if (!before) throw new Error(`account ${account.accountId} does not exist`);
    const change = { accountId: account.accountId, before, settings, actor };
    await applyAlertSettingsChange(
      trx,
      change,
      { now, config: deps.config },
      { trustEmails: false },
    );
    const emails = settings.channels?.alert_emails;
    if (emails === undefined) return [];
    const list = splitAlertEmails(emails);
    const known = new Set(
      splitAlertEmails(before.channels.alert_emails ?? null).map(normalizeEmail),
    );
    const added = list.filter((e) => !known.has(normalizeEmail(e)));
    return awaitConfirmation(trx, account.accountId, list, added, now);
  });
  const result: SavedAlertSettings = { mailed: [], notMailed: [] };
  for (const p of pending) {
    const sent = await mailConfirmation(deps, account.accountId, account.accountName, p);
    (sent ? result.mailed : result.notMailed).push(p.email);
  }
  return result;
}
