/**
 * Each provider's latest answer for a customer, kept for audit and so that a retry only calls
 * the providers that have not answered yet: a match or a definite "not found" is final, and a
 * match's normalised profile is stored so it still counts when a later attempt completes.
 */
import type { Insertable, Kysely, Transaction } from "kysely";
import { type PreparedQuery, preparedQuery } from "../../db/prepared-query.js";
import type { Database, ProviderResultsTable } from "../../db/schema.js";
import { newId } from "../../lib/ids.js";
import type { ProfileFragment, ProviderName, ProviderResult } from "./providers/provider.js";

/**
 * Stores one attempt's answers, each replacing that provider's earlier one, in one statement;
 * call it inside the transaction that records the attempt's end.
 */
export async function saveProviderResults(
  db: Kysely<Database> | Transaction<Database>,
  customerId: string,
  results: ProviderResult[],
  now: number,
): Promise<void> {
  if (results.length === 0) return;
  const values: Record<string, unknown> = {};
  results.forEach((result, i) => {
    Object.assign(values, {
      [`id${i}`]: newId(now),
      [`customer_id${i}`]: customerId,
      [`provider${i}`]: result.provider,
      [`outcome${i}`]: result.kind,
      [`http_status${i}`]: result.httpStatus,
      [`raw${i}`]: rawText(result),
      [`profile${i}`]: result.kind === "matched" ? JSON.stringify(result.profile) : null,
      [`error${i}`]:
        result.kind === "transient" || result.kind === "permanent"
          ? result.error
          : result.kind === "not_found"
            ? (result.reason ?? null)
            : null,
      [`fetched_at${i}`]: now,
      [`confidence${i}`]: result.kind === "matched" ? (result.confidence ?? null) : null,
    });
  });
  await upsertResults(results.length).execute(db, values);
}

const decoder = new TextDecoder();

/** The raw answer as JSON text: already serialised by the provider thread, or serialised here. */
function rawText(result: ProviderResult): string | null {
  if (result.rawJson !== undefined) return decoder.decode(result.rawJson);
  return "raw" in result && result.raw !== undefined ? JSON.stringify(result.raw) : null;
}

const COLUMNS = [
  "id",
  "customer_id",
  "provider",
  "outcome",
  "http_status",
  "raw",
  "profile",
  "error",
  "fetched_at",
  "confidence",
] as const;

/** One prepared statement per number of answers (one per provider asked, at most every provider). */
const upserts = new Map<number, PreparedQuery<Record<string, unknown>, unknown>>();

function upsertResults(rows: number): PreparedQuery<Record<string, unknown>, unknown> {
  let prepared = upserts.get(rows);
  if (prepared === undefined) {
    const names = Array.from({ length: rows }, (_, i) => COLUMNS.map((c) => `${c}${i}`)).flat();
    prepared = preparedQuery(names, (db, v: Record<string, unknown>) =>
      db
        .insertInto("provider_results")
        .values(
          Array.from({ length: rows }, (_, i) =>
            Object.fromEntries(COLUMNS.map((c) => [c, v[`${c}${i}`]])),
          ) as Insertable<ProviderResultsTable>[],
        )
        .onConflict((oc) =>
          oc.columns(["customer_id", "provider"]).doUpdateSet((eb) => ({
            outcome: eb.ref("excluded.outcome"),
            http_status: eb.ref("excluded.http_status"),
            raw: eb.ref("excluded.raw"),
            profile: eb.ref("excluded.profile"),
            error: eb.ref("excluded.error"),
            fetched_at: eb.ref("excluded.fetched_at"),
            confidence: eb.ref("excluded.confidence"),
          })),
        ),
    );
    upserts.set(rows, prepared);
  }
  return prepared;
}

export interface SettledAnswers {
  /** Providers that need no further call for this customer. */
  providers: Set<ProviderName>;
  /** The profiles of the ones that matched. */
  matches: Array<{ provider: ProviderName; profile: ProfileFragment; confidence?: string }>;
  /** Answers that named someone but count as no match, and why ("pdl: likelihood 4 …"). */
  discarded: string[];
}

export async function settledAnswers(
  db: Kysely<Database>,
  customerId: string,
): Promise<SettledAnswers> {
  const rows = await findSettled.execute(db, { customer_id: customerId });
  const answers: SettledAnswers = { providers: new Set(), matches: [], discarded: [] };
  for (const row of rows) {
    const provider = row.provider as ProviderName;
    answers.providers.add(provider);
    if (row.outcome === "matched" && row.profile !== null) {
      const profile = JSON.parse(row.profile) as ProfileFragment;
      answers.matches.push({
        provider,
        profile,
        ...(row.confidence ? { confidence: row.confidence } : {}),
      });
    }
    if (row.outcome === "not_found" && row.error !== null) {
      answers.discarded.push(`${provider}: ${row.error}`);
    }
  }
  return answers;
}

const findSettled = preparedQuery(["customer_id"], (db, v: { customer_id: string }) =>
  db
    .selectFrom("provider_results")
    .select(["provider", "outcome", "profile", "error", "confidence"])
    .where("customer_id", "=", v.customer_id)
    .where("outcome", "in", ["matched", "not_found"]),
);
