/** Merges the providers' profiles, adds the offline signals, and scores the customer. */
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import { mergeProfiles } from "./merge-profiles.js";
import type { StoreWindows } from "./offline/store-order-window.js";
import { gatherOfflineSignals, type OfflineSubject } from "./offline-signals.js";
import type { ProfileFragment, ProviderName } from "./providers/provider.js";
import { computeScore, type ScoreSignal } from "./score/compute-score.js";

export interface ScoredCustomer {
  profile: ProfileFragment;
  score: number;
  signals: ScoreSignal[];
}

/** Provider precedence when two disagree: identity data first, then social, then public records. */
const PRECEDENCE: ProviderName[] = ["pdl", "enrichlayer", "fullcontact", "gravatar"];

export interface ScoringContext {
  db: Kysely<Database>;
  windows: StoreWindows;
  now: number;
}

export async function scoreCustomer(
  { db, windows, now }: ScoringContext,
  customer: OfflineSubject,
  matches: Array<{ provider: ProviderName; profile: ProfileFragment }>,
  providersConfigured: number,
): Promise<ScoredCustomer> {
  const ordered = [...matches].sort(
    (a, b) => PRECEDENCE.indexOf(a.provider) - PRECEDENCE.indexOf(b.provider),
  );
  const profile = mergeProfiles(ordered.map((m) => m.profile));
  const offline = await gatherOfflineSignals(db, windows, customer, now);
  const noProfileReason =
    providersConfigured === 0 ? "no enrichment provider configured" : undefined;
  const { score, signals } = computeScore({ profile, offline, noProfileReason });
  return { profile, score, signals };
}
