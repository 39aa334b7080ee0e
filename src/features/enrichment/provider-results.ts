/**
 * Each provider's latest answer for a customer, kept for audit and so that a retry only calls
 * the providers that have not answered yet: a match or a definite "not found" is final, and a
 * match's normalised profile is stored so it still counts when a later attempt completes.
 */
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { newId } from "../../lib/ids.js";
import type { ProfileFragment, ProviderName, ProviderResult } from "./providers/provider.js";

/** Stores one attempt's answers; call it inside the transaction that records the attempt's end. */
export async function saveProviderResults(
  db: Kysely<Database>,
  customerId: string,
  results: ProviderResult[],
  now: number,
): Promise<void> {
  for (const result of results) await saveProviderResult(db, customerId, result, now);
}

async function saveProviderResult(
  db: Kysely<Database>,
  customerId: string,
  result: ProviderResult,
  now: number,
): Promise<void> {
  const raw =
    result.rawJson ??
    ("raw" in result && result.raw !== undefined ? JSON.stringify(result.raw) : null);
  const values = {
    outcome: result.kind,
    http_status: result.httpStatus,
    raw,
    profile: result.kind === "matched" ? JSON.stringify(result.profile) : null,
    error: result.kind === "transient" || result.kind === "permanent" ? result.error : null,
    fetched_at: now,
  };
  await db
    .insertInto("provider_results")
    .values({ id: newId(now), customer_id: customerId, provider: result.provider, ...values })
    .onConflict((oc) => oc.columns(["customer_id", "provider"]).doUpdateSet(values))
    .execute();
}

export interface SettledAnswers {
  /** Providers that need no further call for this customer. */
  providers: Set<ProviderName>;
  /** The profiles of the ones that matched. */
  matches: Array<{ provider: ProviderName; profile: ProfileFragment }>;
}

export async function settledAnswers(
  db: Kysely<Database>,
  customerId: string,
): Promise<SettledAnswers> {
  const rows = await db
    .selectFrom("provider_results")
    .select(["provider", "outcome", "profile"])
    .where("customer_id", "=", customerId)
    .where("outcome", "in", ["matched", "not_found"])
    .execute();
  const answers: SettledAnswers = { providers: new Set(), matches: [] };
  for (const row of rows) {
    const provider = row.provider as ProviderName;
    answers.providers.add(provider);
    if (row.outcome === "matched" && row.profile !== null) {
      answers.matches.push({ provider, profile: JSON.parse(row.profile) as ProfileFragment });
    }
  }
  return answers;
}
