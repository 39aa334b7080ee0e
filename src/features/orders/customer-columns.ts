/**
 * A submission's customer as the `customers` columns it sets at creation: one mapping for the
 * general transaction (submit-order.ts) and PostgreSQL's submission statement.
 */
import type { StoreRef } from "../../db/store-ref.js";
import { normalizeEmail } from "./email-address.js";
import type { OrderSubmission } from "./order-request.js";

export function customerColumns(store: StoreRef, s: OrderSubmission) {
  return {
    store_id: store.storeId,
    email: s.email,
    email_normalized: normalizeEmail(s.email),
    first_name: s.firstName,
    last_name: s.lastName,
    phone: s.phone,
    address_city: s.address?.city ?? null,
    address_state: s.address?.state ?? null,
    address_zipcode: s.address?.zipcode ?? null,
    address_country: s.address?.country ?? null,
  };
}
