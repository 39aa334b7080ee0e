/**
 * What erasure and export reach, filled in main.ts by the features that keep a person's data:
 * - `holders`: each feature's tables and job keys (db/personal-data.ts);
 * - `forgotten`: the handlers of "customer forgotten", raised in the erasure's transaction
 *   while the customer row still exists, so a feature that handed a copy outside (a
 *   destination) can read what it needs to have that copy erased too, and enqueue it.
 */
import type { PersonalDataHolder } from "../../db/personal-data.js";
import type { EventHandler } from "../../jobs/event-handlers.js";

/**
 * Why a customer is erased: the person's own request (GDPR/CCPA: `velvet customer forget`, the
 * dashboard's erase, and their preview), Velvet's retention of inactive customers, the
 * account's closing, or the removal of sample data (a sample customer raises no "customer
 * forgotten", so that one never leaves Velvet).
 */
export const ERASURE_REASONS = [
  "erasure_request",
  "retention",
  "account_closed",
  "sample_removed",
] as const;
export type ErasureReason = (typeof ERASURE_REASONS)[number];

export interface CustomerForgotten {
  accountId: string;
  storeId: string;
  customerId: string;
  email: string;
  /** Only `erasure_request` asks for the person's copies to be deleted everywhere. */
  reason: ErasureReason;
}

export interface PrivacyRegistry {
  holders: readonly PersonalDataHolder[];
  forgotten: readonly EventHandler<CustomerForgotten>[];
}

/** What the privacy feature needs beyond `Deps`. */
export interface PrivacyDeps {
  privacy: PrivacyRegistry;
}
