/** What the verdicts keep about a person (db/personal-data.ts): the merchant's verdict on them. */
import { isoOrNull as iso, type PersonalDataHolder, rowsTouched } from "../../db/personal-data.js";

export const verdictPersonalData: PersonalDataHolder = {
  async erase(trx, customerId) {
    const deleted = await trx
      .deleteFrom("vip_verdicts")
      .where("customer_id", "=", customerId)
      .executeTakeFirst();
    return { verdicts: rowsTouched(deleted) };
  },
  async export(db, customerId) {
    const rows = await db
      .selectFrom("vip_verdicts")
      .select(["verdict", "source", "given_at"])
      .where("customer_id", "=", customerId)
      .execute();
    return {
      verdicts: rows.map((v) => ({
        verdict: v.verdict,
        source: v.source,
        givenAt: iso(Number(v.given_at)),
      })),
    };
  },
};
