/**
 * The usage charge a person's enrichment made (db/personal-data.ts): billing keeps it (amount,
 * price, month, account and store), unlinked from the person, so erasure does not change a bill.
 */
import { isoOrNull as iso, type PersonalDataHolder, rowsTouched } from "../../db/personal-data.js";

export const chargePersonalData: PersonalDataHolder = {
  async erase(trx, customerId) {
    const charges = await trx
      .updateTable("usage_charges")
      .set({ customer_id: null })
      .where("customer_id", "=", customerId)
      .executeTakeFirst();
    return { chargesKept: rowsTouched(charges) };
  },
  async export(db, customerId) {
    const charges = await db
      .selectFrom("usage_charges")
      .selectAll()
      .where("customer_id", "=", customerId)
      .execute();
    return {
      charges: charges.map((ch) => ({
        unitPriceUsd: ch.unit_price_usd,
        month: new Date(ch.created_at).toISOString().slice(0, 7),
        createdAt: iso(ch.created_at),
      })),
    };
  },
};
