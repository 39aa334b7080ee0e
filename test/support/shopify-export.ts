/**
 * A generated Shopify order export (Orders → Export → CSV), written as a stream: one row per
 * line item, an order's rows together, the customer and totals on its first row only, as
 * Shopify writes them. Orders have 1–3 items (2 on average); customers come back (about one
 * order in three is a repeat customer). Deterministic for a given size.
 */

import { once } from "node:events";
import fs from "node:fs";

const HEADER =
  "Name,Email,Financial Status,Paid at,Fulfillment Status,Fulfilled at,Accepts Marketing,Currency,Subtotal,Shipping,Taxes,Total,Discount Code,Discount Amount,Shipping Method,Created at,Lineitem quantity,Lineitem name,Lineitem price,Lineitem sku,Billing Name,Billing Street,Billing City,Billing Zip,Billing Province,Billing Country,Billing Phone,Shipping Name,Shipping City,Shipping Zip,Shipping Country,Payment Method,Id,Vendor";

const FIRST = [
  "Ada",
  "Grace",
  "Alan",
  "Edsger",
  "Barbara",
  "Donald",
  "Frances",
  "Ken",
  "Radia",
  "Niklaus",
];
const LAST = [
  "Lovelace",
  "Hopper",
  "Turing",
  "Dijkstra",
  "Liskov",
  "Knuth",
  "Allen",
  "Thompson",
  "Perlman",
  "Wirth",
];

/**
 * Writes at least `rows` data rows (the last order is completed); returns rows and orders.
 * `start` numbers the customers and orders after those of an earlier export (a later one).
 */
export async function writeShopifyExport(
  file: string,
  rows: number,
  start: { customer: number; order: number } = { customer: 0, order: 0 },
): Promise<{ rows: number; orders: number }> {
  const out = fs.createWriteStream(file);
  const write = async (line: string) => {
    if (!out.write(`${line}\n`)) await once(out, "drain");
  };
  await write(HEADER);
  let written = 0;
  let order = 0;
  let customers = 0;
  while (written < rows) {
    order += 1;
    // Every third order is a repeat of an earlier customer.
    const customer =
      start.customer +
      (order % 3 === 0 && customers > 0 ? (order * 7919) % customers : customers++);
    const first = FIRST[customer % FIRST.length] ?? "Ada";
    const last = LAST[Math.floor(customer / FIRST.length) % LAST.length] ?? "Lovelace";
    const items = 1 + (order % 3);
    const total = (20 + ((order * 37) % 900) + 0.9).toFixed(2);
    const at = new Date(Date.UTC(2024, 0, 1) + order * 600_000)
      .toISOString()
      .replace("T", " ")
      .slice(0, 19);
    const zip = String(10000 + (customer % 89999));
    for (let item = 1; item <= items; item++) {
      const name = `#${1000 + order}`;
      const id = String(5_000_000 + start.order + order);
      const line = `${item}x Product,${(9.5 * item).toFixed(2)},SKU-${item}`;
      await write(
        item === 1
          ? `${name},customer${customer}@example.com,paid,${at} -0500,fulfilled,${at} -0500,yes,USD,${total},0.00,0.00,${total},,0.00,Standard,${at} -0500,1,${line},${first} ${last},1 Main St,Springfield,${zip},NY,US,+1 212 555 ${String(customer % 10000).padStart(4, "0")},${first} ${last},Springfield,${zip},US,Shopify Payments,${id},Acme`
          : `${name},customer${customer}@example.com,,,,,,,,,,,,,,${at} -0500,1,${line},,,,,,,,,,,,,${id},Acme`,
      );
      written += 1;
    }
  }
  out.end();
  await once(out, "finish");
  return { rows: written, orders: order };
}
