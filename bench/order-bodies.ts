/**
 * Request bodies for the order benchmark: customer number `n` always gets the same body (same
 * e-mail, same platform order id), so a run of "new" requests can be replayed as repeats.
 * A returning customer's later order passes `orderSuffix` (a new platform order id).
 * The shape is a full submission as the contract describes it: names, phone, address, order.
 */
export function orderBody(run: string, n: number, orderSuffix = ""): string {
  return JSON.stringify({
    email: `Bench.Customer+${run}-${n}@Example.com`,
    firstName: "Ada",
    lastName: `Lovelace ${n}`,
    phone: "+14155550100",
    address: { city: "San Francisco", state: "CA", zipcode: "94105", country: "US" },
    order: {
      id: `${run}-order-${n}${orderSuffix}`,
      number: `#${1000 + n}`,
      total: `${(n % 500) + 19}.90`,
      currency: "usd",
    },
  });
}

/** A short random tag so two runs against one database never collide. */
export function runTag(): string {
  return Math.random().toString(36).slice(2, 8);
}
