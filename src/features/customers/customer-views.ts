/**
 * How a customer's own details and orders read in the documents Velvet hands out (the customer
 * report of `velvet customer show`, the export of `velvet customer export`): one mapping, so
 * the two never describe the same person differently.
 */
import type { Selectable } from "kysely";
import type { CustomersTable, OrdersTable } from "../../db/schema.js";

type CustomerDetails = Pick<
  Selectable<CustomersTable>,
  | "id"
  | "email"
  | "first_name"
  | "last_name"
  | "phone"
  | "address_city"
  | "address_state"
  | "address_zipcode"
  | "address_country"
>;

type OrderDetails = Pick<
  Selectable<OrdersTable>,
  | "id"
  | "external_order_id"
  | "order_number"
  | "total"
  | "currency"
  | "created_at"
  | "status"
  | "counts"
>;

export function customerDetailsView(c: CustomerDetails) {
  return {
    customerId: c.id,
    email: c.email,
    firstName: c.first_name,
    lastName: c.last_name,
    phone: c.phone,
    address: {
      city: c.address_city,
      state: c.address_state,
      zipcode: c.address_zipcode,
      country: c.address_country,
    },
  };
}

export function orderView(o: OrderDetails) {
  return {
    orderId: o.id,
    externalId: o.external_order_id,
    number: o.order_number,
    total: o.total,
    currency: o.currency,
    createdAt: new Date(o.created_at).toISOString(),
    // The platform's status (null: the source gave none); not a purchase when cancelled,
    // refunded or voided.
    status: o.status,
    purchase: o.counts === 1,
  };
}
