/** A person's orders (db/personal-data.ts): erased with them, listed in their export. */
import { type PersonalDataHolder, rowsTouched } from "../../db/personal-data.js";
import { orderView } from "./customer-views.js";

export const orderPersonalData: PersonalDataHolder = {
  async erase(trx, customerId) {
    const orders = await trx
      .deleteFrom("orders")
      .where("customer_id", "=", customerId)
      .executeTakeFirst();
    return { orders: rowsTouched(orders) };
  },
  async export(db, customerId) {
    const orders = await db
      .selectFrom("orders")
      .selectAll()
      .where("customer_id", "=", customerId)
      .orderBy("created_at")
      .execute();
    return { orders: orders.map(orderView) };
  },
};
