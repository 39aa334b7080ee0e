/**
 * The table's functions bound to one database, with the sweep: at most once a minute, after a
 * statement, the process that notices deletes the rows that stopped mattering more than a minute
 * ago (in the background; a failed sweep waits for the next). The table holds the budgets in use
 * in the last minute or so: the keys seen, the webhooks and providers called.
 */
import type { Db } from "../../db/connect.js";
import {
  deferSlots,
  sweepSharedLimits,
  takeSlots,
  takeWindowLease,
  type WindowAsk,
  type WindowLease,
} from "./shared-limits-table.js";
import type { SlotBackend } from "./shared-slots.js";

export interface SharedLimitsBackend extends SlotBackend {
  takeWindow(ask: WindowAsk): Promise<WindowLease>;
}

const SWEEP_EVERY_MS = 60_000;
const KEEP_ENDED_MS = 60_000;

export function sharedLimitsBackend(db: Db, now: () => number = Date.now): SharedLimitsBackend {
  let nextSweepAt = now() + SWEEP_EVERY_MS;
  const after = <T>(result: T): T => {
    const t = now();
    if (t >= nextSweepAt) {
      nextSweepAt = t + SWEEP_EVERY_MS;
      sweepSharedLimits(db, t - KEEP_ENDED_MS).catch(() => {});
    }
    return result;
  };
  return {
    take: async (ask) => after(await takeSlots(db, ask)),
    defer: async (name, until) => after(await deferSlots(db, name, until)),
    takeWindow: async (ask) => after(await takeWindowLease(db, ask)),
  };
}
