/**
 * A generated store history for trying Velvet without a store: 60 customers over the last 60
 * days, as a plain order CSV (the format `velvet import orders` reads). Deterministic for a
 * given account and day, so adding it twice imports nothing new.
 *
 * - Names are common US first and last names; e-mail addresses are at the domains reserved for
 *   examples (RFC 2606: example.com, example.org, example.net), so no real person is named or
 *   mailed.
 * - ZIP codes are spread across the Census table Velvet ships (census/): one customer per step
 *   of the income ranking, from the lowest medians to the top-coded $250,000+ areas.
 * - Order values follow the same log-normal as the order-value prior (median $78), with a few
 *   large orders; about a quarter of the customers order two to four times.
 */
import { readFileSync } from "node:fs";
import { BUNDLED_ZIP_INCOME_FILE } from "../zip-income/load-bundled-zip-income.js";

const FIRST = [
  "Olivia",
  "Liam",
  "Emma",
  "Noah",
  "Ava",
  "Elijah",
  "Sophia",
  "James",
  "Isabella",
  "Lucas",
  "Mia",
  "Mason",
  "Amelia",
  "Ethan",
  "Harper",
  "Logan",
  "Evelyn",
  "Aiden",
  "Abigail",
  "Jackson",
];
const LAST = [
  "Smith",
  "Johnson",
  "Williams",
  "Brown",
  "Jones",
  "Garcia",
  "Miller",
  "Davis",
  "Rodriguez",
  "Martinez",
  "Hernandez",
  "Lopez",
  "Gonzalez",
  "Wilson",
  "Anderson",
  "Thomas",
  "Taylor",
  "Moore",
  "Jackson",
  "Martin",
  "Lee",
  "Perez",
  "Thompson",
  "White",
  "Harris",
];
const DOMAINS = ["example.com", "example.org", "example.net"];

export const SAMPLE_CUSTOMERS = 60;
const DAYS = 60;
const DAY_MS = 86_400_000;
/** Order ids start with this, so a sample order never collides with a store's own. */
export const SAMPLE_ORDER_PREFIX = "sample-";

/** A small seeded generator (mulberry32): the same seed gives the same history. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

function seedOf(text: string): number {
  let h = 2_166_136_261;
  for (const c of text) h = Math.imul(h ^ c.charCodeAt(0), 16_777_619);
  return h >>> 0;
}

/** ZIP codes at evenly spaced ranks of the income table, lowest to highest (top codes last). */
export function spreadZips(count: number, file = BUNDLED_ZIP_INCOME_FILE): string[] {
  const rows = readFileSync(file, "utf8")
    .split("\n")
    .slice(1)
    .map((line) => line.split(","))
    .filter((cells) => cells.length >= 2 && /^\d{5}$/.test(cells[0] ?? ""))
    .map((cells) => ({ zcta: cells[0] as string, income: Number(cells[1]) }))
    .sort((a, b) => a.income - b.income || a.zcta.localeCompare(b.zcta));
  if (rows.length === 0) return [];
  return Array.from({ length: count }, (_, i) => {
    const at = Math.round((i / Math.max(1, count - 1)) * (rows.length - 1));
    return (rows[at] as { zcta: string }).zcta;
  });
}

/** A log-normal order value around $78 (σ = 1), in cents precision. */
function orderValue(next: () => number): string {
  const u = Math.max(next(), 1e-9);
  const v = Math.max(next(), 1e-9);
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  return (78 * Math.exp(z)).toFixed(2);
}

export interface SampleOrder {
  email: string;
  firstName: string;
  lastName: string;
  zipcode: string;
  orderId: string;
  total: string;
  orderedAt: string;
}

export function sampleHistory(accountId: string, now: number): SampleOrder[] {
  const next = random(seedOf(accountId));
  const zips = spreadZips(SAMPLE_CUSTOMERS);
  const start = Math.floor(now / DAY_MS) * DAY_MS - DAYS * DAY_MS;
  const orders: SampleOrder[] = [];
  let number = 1001;
  zips.forEach((zipcode, i) => {
    const firstName = FIRST[i % FIRST.length] as string;
    const lastName = LAST[(i * 7) % LAST.length] as string;
    const domain = DOMAINS[i % DOMAINS.length] as string;
    const email = `${firstName}.${lastName}${i + 1}@${domain}`.toLowerCase();
    // The customers from the richest areas are returning buyers whose first order is large:
    // the VIPs a store wants to hear about.
    const big = i >= zips.length - 3;
    const repeat = big ? 2 : next() < 0.25 ? 2 + Math.floor(next() * 3) : 1;
    const dates = Array.from({ length: repeat }, () => start + Math.floor(next() * DAYS * DAY_MS));
    dates.sort((a, b) => a - b);
    for (let n = 0; n < repeat; n++) {
      const at = dates[n] as number;
      // A big buyer's large order is their latest, the one their score reads.
      const last = n === repeat - 1;
      const total =
        big && last ? (2_500 + Math.floor(next() * 4_000)).toFixed(2) : orderValue(next);
      orders.push({
        email,
        firstName,
        lastName,
        zipcode,
        orderId: `${SAMPLE_ORDER_PREFIX}${number}`,
        total,
        orderedAt: new Date(at).toISOString(),
      });
      number += 1;
    }
  });
  return orders;
}

const CSV_HEADER =
  "email,first_name,last_name,phone,city,state,zipcode,country,order_id,order_number,total,currency,ordered_at";

/** The history as the plain CSV format the file import reads. */
export function sampleHistoryCsv(orders: readonly SampleOrder[]): string {
  const lines = orders.map((o) =>
    [
      o.email,
      o.firstName,
      o.lastName,
      "",
      "",
      "",
      o.zipcode,
      "US",
      o.orderId,
      `#${o.orderId.slice(SAMPLE_ORDER_PREFIX.length)}`,
      o.total,
      "USD",
      o.orderedAt,
    ].join(","),
  );
  return `${[CSV_HEADER, ...lines].join("\n")}\n`;
}
