/**
 * Closing an account, at the owner's request. In one transaction: every API key is revoked
 * (refused from the next request on), every store connection deleted with its credentials and
 * its pending sync job (a sync running at that moment stores nothing: store-sync/store-page.ts),
 * every session ended and the logins removed (so the e-mail is free for a new account), the
 * alert settings, pending address confirmations and the settings stored as data cleared, the
 * account marked closed, the audit record written, and a job enqueued that erases every
 * customer (erase-account-customers.ts).
 * Nothing brings new data in after that, and nothing is spent: the file import and the
 * enrichment of a customer already queued refuse a closed account too.
 * The erasure runs in batches after that commit, because a large store cannot be erased inside
 * one short transaction; the job (an outbox row) guarantees it finishes even after a crash.
 * Billing records (charges, unlinked from the people as they are erased) and the audit trail
 * stay.
 */

import { z } from "zod";
import type { Deps } from "../../deps.js";
import { enqueueJob, jobOf } from "../../jobs/enqueue-job.js";
import { taskType } from "../../jobs/task.js";
import { clearSettingRows } from "../accounts/settings/setting-rows.js";
import { clearChannelValues } from "../alerts/channels/channel-registry.js";
import type { AuditActor } from "../audit/audit-actor.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import { deleteAccountConnections } from "../store-sync/delete-connections.js";

export const ERASE_ACCOUNT = taskType("erase-closed-account", z.object({ accountId: z.uuid() }));
export const ERASE_ACCOUNT_TASK = ERASE_ACCOUNT.task;

export type CloseAccountResult =
  | {
      kind: "closed";
      keysRevoked: number;
      storesDisconnected: number;
      sessionsEnded: number;
      customers: number;
    }
  | { kind: "not_found" }
  | { kind: "already_closed" };

export async function closeAccount(
  deps: Pick<Deps, "db" | "clock" | "jobs">,
  input: { accountId: string; actor: AuditActor },
): Promise<CloseAccountResult> {
  const now = deps.clock.now();
  const result = await deps.db.kysely.transaction().execute(async (trx) => {
    let query = trx
      .selectFrom("accounts")
      .select(["id", "closed_at"])
      .where("id", "=", input.accountId);
    // PostgreSQL: the row stays locked until the close commits, so a store connected at the same
    // moment either commits first (and its connection is deleted below) or waits and then finds
    // the account closed (store-sync/connect-store.ts). SQLite runs one transaction at a time.
    if (deps.db.dialect === "postgres") query = query.forUpdate();
    const account = await query.executeTakeFirst();
    if (!account) return { kind: "not_found" } as const;
    if (account.closed_at !== null) return { kind: "already_closed" } as const;
    const stores = trx.selectFrom("stores").select("id").where("account_id", "=", input.accountId);
    const keys = await trx
      .updateTable("api_keys")
      .set({ revoked_at: now })
      .where("store_id", "in", stores)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    const storesDisconnected = await deleteAccountConnections(trx, input.accountId, now);
    const sessions = await trx
      .deleteFrom("sessions")
      .where("account_id", "=", input.accountId)
      .executeTakeFirst();
    await trx.deleteFrom("users").where("account_id", "=", input.accountId).execute();
    // Every channel's settings and what else it keeps (alert addresses awaiting confirmation),
    // and the channels' outage records (their last error may name an address).
    await clearChannelValues(trx, input.accountId);
    await clearSettingRows(trx, input.accountId);
    await trx
      .deleteFrom("alert_channel_outages")
      .where("account_id", "=", input.accountId)
      .execute();
    await trx
      .updateTable("accounts")
      .set({ closed_at: now })
      .where("id", "=", input.accountId)
      .execute();
    const customers = await trx
      .selectFrom("customers")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("store_id", "in", stores)
      .executeTakeFirst();
    const closed = {
      kind: "closed",
      keysRevoked: Number(keys.numUpdatedRows ?? 0n),
      storesDisconnected,
      sessionsEnded: Number(sessions.numDeletedRows ?? 0n),
      customers: Number(customers?.n ?? 0),
    } as const;
    const { kind: _, ...details } = closed;
    await recordAuditEvent(
      trx,
      { accountId: input.accountId, actor: input.actor, action: "account.closed", details },
      now,
    );
    await enqueueJob(
      trx,
      jobOf(
        ERASE_ACCOUNT,
        { accountId: input.accountId },
        { jobKey: `${ERASE_ACCOUNT_TASK}:${input.accountId}`, maxAttempts: 10 },
      ),
      now,
    );
    return closed;
  });
  if (result.kind === "closed") deps.jobs.notify();
  return result;
}
