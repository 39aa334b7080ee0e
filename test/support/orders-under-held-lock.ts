/**
 * Orders and requests needing no write while another process holds SQLite's write lock
 * (hold-sqlite-lock.ts): for `sendForMs` of a lock held `holdMs` (and on a slow machine until
 * more than `minOrders` orders wait with it), an order is sent every ~20 ms, and beside each a
 * request with an unknown key (refused without a write) is timed. Resolves once the lock is let
 * go and every order answered. Used by the write-lock test and the benchmark's `pacing` phase.
 */
import { holdWriteLock } from "./hold-sqlite-lock.js";
import { validBody as customerOnly, uniqueOrderId } from "./orders.js";
import type { TestApp } from "./test-app.js";

export const orderBody = () =>
  customerOnly({ order: { id: uniqueOrderId(), number: "#1", total: "25.00", currency: "USD" } });

export interface HeldLockRun {
  /** The status of the refused request sent before the lock, to warm its path. */
  warmUpStatus: number;
  /** Every order's answer. */
  orders: Response[];
  /** The refused requests' statuses and bodies. */
  refusals: Array<{ status: number; body: unknown }>;
  /** How long each refused request took, ms, in the order sent. */
  noWriteLatencies: number[];
}

export async function ordersUnderHeldLock(
  app: TestApp,
  apiKey: string,
  file: string,
  options: { holdMs?: number; sendForMs?: number; minOrders?: number } = {},
): Promise<HeldLockRun> {
  const { holdMs = 2000, sendForMs = 1800, minOrders = 20 } = options;
  // Warm the refusal path first (its first run compiles it), so it is the lock that is measured.
  const warmUp = await app.submit("sk_live_nope", orderBody());
  await warmUp.arrayBuffer();
  const lock = await holdWriteLock(file, holdMs);
  const until = performance.now() + sendForMs;
  const orders: Array<Promise<Response>> = [];
  const refusals: HeldLockRun["refusals"] = [];
  const noWriteLatencies: number[] = [];
  while (performance.now() < until || orders.length <= minOrders) {
    orders.push(app.submit(apiKey, orderBody()));
    const started = performance.now();
    const refused = await app.submit("sk_live_nope", orderBody());
    noWriteLatencies.push(performance.now() - started);
    refusals.push({ status: refused.status, body: await refused.json() });
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const answers = await Promise.all(orders);
  await lock.released;
  return { warmUpStatus: warmUp.status, orders: answers, refusals, noWriteLatencies };
}
