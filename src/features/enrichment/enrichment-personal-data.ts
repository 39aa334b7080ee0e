/** What enrichment keeps about a person (db/personal-data.ts): its job, the result, the answers. */
import {
  isoOrNull as iso,
  type PersonalDataHolder,
  parseStored,
  rowsTouched,
} from "../../db/personal-data.js";
import { enrichmentJobKey } from "./enqueue-enrichment.js";

export const enrichmentPersonalData: PersonalDataHolder = {
  jobKeys: async (_trx, customerId) => [enrichmentJobKey(customerId)],
  async erase(trx, customerId) {
    const answers = await trx
      .deleteFrom("provider_results")
      .where("customer_id", "=", customerId)
      .executeTakeFirst();
    const enrichments = await trx
      .deleteFrom("enrichments")
      .where("customer_id", "=", customerId)
      .executeTakeFirst();
    return { providerAnswers: rowsTouched(answers), enrichments: rowsTouched(enrichments) };
  },
  async export(db, customerId) {
    const [enrichment, answers] = await Promise.all([
      db
        .selectFrom("enrichments")
        .selectAll()
        .where("customer_id", "=", customerId)
        .executeTakeFirst(),
      db
        .selectFrom("provider_results")
        .selectAll()
        .where("customer_id", "=", customerId)
        .orderBy("provider")
        .execute(),
    ]);
    return {
      enrichment:
        enrichment === undefined
          ? null
          : {
              score: enrichment.score,
              vip: enrichment.vip === null ? null : enrichment.vip === 1,
              threshold: enrichment.threshold,
              signals: parseStored(enrichment.signals),
              profile: parseStored(enrichment.profile),
              attempts: enrichment.attempts,
              lastError: enrichment.last_error,
              startedAt: iso(enrichment.started_at),
              enrichedAt: iso(enrichment.enriched_at),
            },
      providerAnswers: answers.map((a) => ({
        provider: a.provider,
        outcome: a.outcome,
        httpStatus: a.http_status,
        fetchedAt: iso(a.fetched_at),
        raw: parseStored(a.raw),
        rawClearedAt: iso(a.raw_cleared_at),
        profile: parseStored(a.profile),
        error: a.error,
      })),
    };
  },
};
