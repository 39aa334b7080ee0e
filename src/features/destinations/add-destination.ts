/**
 * Adding a destination to an account: the kind's driver checks the input and prepares the row
 * (a webhook gets a new signing secret), the secret is sealed, and the row and its audit record
 * are written in one transaction. What the driver reveals once (the webhook's secret) is in the
 * answer and nowhere else afterwards.
 */
import type { DestinationKind } from "../../db/schema.js";
import type { Deps } from "../../deps.js";
import { AppError } from "../../lib/app-error.js";
import { newId } from "../../lib/ids.js";
import type { AuditActor } from "../audit/audit-actor.js";
import { recordAuditEvent } from "../audit/record-audit-event.js";
import type { DestinationsDeps } from "./destination-driver.js";
import { parseEvents } from "./destination-events.js";
import { hintOf, requireSecretKey, sealSecret } from "./destination-secrets.js";

export interface AddDestinationInput {
  accountId: string;
  kind: string;
  /** The kind's fields (a webhook's `url`, a Klaviyo `apiKey`). */
  fields: Record<string, string>;
  /** Comma-separated events; empty: the kind's default. */
  events?: string;
  actor: AuditActor;
}

export interface AddedDestination {
  destinationId: string;
  kind: DestinationKind;
  target: string;
  events: string[];
  /** Shown once (a webhook's `secret`). */
  revealed: Record<string, string>;
}

export async function addDestination(
  deps: Pick<Deps, "db" | "clock" | "config" | "log"> & DestinationsDeps,
  input: AddDestinationInput,
): Promise<AddedDestination> {
  const driver = deps.destinations.get(input.kind as DestinationKind);
  if (driver === undefined) {
    const kinds = [...deps.destinations.keys()].join(", ");
    throw new AppError("bad_request", `Unknown destination kind ${input.kind}: choose ${kinds}`);
  }
  const events = parseEvents(input.events, driver.events);
  const prepared = await driver.prepare(deps, input.accountId, input.fields, events);
  const key = prepared.secret === null ? null : requireSecretKey(deps.config.storeSync.tokenKey);
  const now = deps.clock.now();
  const id = newId(now);
  await deps.db.kysely.transaction().execute(async (trx) => {
    const account = await trx
      .selectFrom("accounts")
      .select(["id", "closed_at"])
      .where("id", "=", input.accountId)
      .executeTakeFirst();
    if (account === undefined || account.closed_at !== null)
      throw new AppError("not_found", `No account ${input.accountId}`);
    await trx
      .insertInto("destinations")
      .values({
        id,
        account_id: input.accountId,
        kind: driver.kind,
        target: prepared.target,
        events: prepared.events.join(","),
        settings: JSON.stringify(prepared.settings),
        secret:
          key === null || prepared.secret === null ? null : sealSecret(key, id, prepared.secret),
        secret_hint: prepared.secret === null ? null : hintOf(prepared.secret),
        created_at: now,
      })
      .execute();
    await recordAuditEvent(
      trx,
      {
        accountId: input.accountId,
        actor: input.actor,
        action: "destination.added",
        subject: id,
        details: { kind: driver.kind, target: prepared.target },
      },
      now,
    );
  });
  return {
    destinationId: id,
    kind: driver.kind,
    target: prepared.target,
    events: prepared.events,
    revealed: prepared.revealOnce ?? {},
  };
}
