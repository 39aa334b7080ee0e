/** Scores a customer on their merged profile and the offline signals (read in the given db). */
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { StoreWindows } from "./offline/store-order-window.js";
import { gatherOfflineSignals, type OfflineSubject } from "./offline-signals.js";
import type { ProfileFragment } from "./providers/provider.js";
import { computeScore, type ScoreSignal } from "./score/compute-score.js";

export interface ScoredCustomer {
  profile: ProfileFragment;
  score: number;
  signals: ScoreSignal[];
}

export interface ScoringContext {
  db: Kysely<Database>;
  windows: StoreWindows;
  now: number;
}

export async function scoreCustomer(
  { db, windows, now }: ScoringContext,
  customer: OfflineSubject,
  profile: ProfileFragment,
  providersConfigured: number,
): Promise<ScoredCustomer> {
  const offline = await gatherOfflineSignals(db, windows, customer, now);
  const noProfileReason =
    providersConfigured === 0 ? "no enrichment provider configured" : undefined;
  const { score, signals } = computeScore({ profile, offline, noProfileReason });
  return { profile, score, signals };
}
