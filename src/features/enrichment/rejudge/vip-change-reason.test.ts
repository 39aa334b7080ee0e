/**
 * The words of a change of the VIP decision, and the id bound the periodic scan reads up to: a
 * UUIDv7 made in a millisecond sorts after that millisecond's floor and before the next one's.
 */
import { describe, expect, it } from "vitest";
import { newId } from "../../../lib/ids.js";
import type { LifetimeSpend } from "../offline-signals.js";
import { idFloor } from "./rejudge-tasks.js";
import { vipChangeReason } from "./vip-change-reason.js";

const spend = (total: string, orders: number, currency = "USD"): LifetimeSpend => ({
  kind: "spend",
  currency,
  total,
  largest: "150",
  orders,
  otherCurrencyOrders: 0,
  otherCurrencies: [],
});

describe("vipChangeReason", () => {
  it("says a promotion by the spend that made it", () => {
    expect(vipChangeReason(true, spend("3019.80", 21), 73, 70)).toBe(
      "now a VIP: $3,019.80 over 21 orders",
    );
  });

  it("says a demotion with the score and the line", () => {
    expect(vipChangeReason(false, spend("2300.80", 16), 58, 70)).toBe(
      "no longer a VIP: $2,300.80 over 16 orders (score 58, threshold 70)",
    );
  });

  it("falls back on the score without a spend, and writes any currency in the one money format", () => {
    expect(vipChangeReason(true, { kind: "none" }, 75, 70)).toBe(
      "now a VIP (score 75, threshold 70)",
    );
    expect(vipChangeReason(true, spend("1234.5", 3, "EUR"), 75, 70)).toBe(
      "now a VIP: €1,234.50 over 3 orders",
    );
  });
});

describe("idFloor", () => {
  it("sorts every id of its millisecond after it and before the next millisecond's ids", () => {
    const ms = Date.UTC(2026, 10, 27, 12, 0, 0, 5);
    const ids = Array.from({ length: 50 }, () => newId(ms));
    for (const id of ids) {
      expect(id > idFloor(ms)).toBe(true);
      expect(id < idFloor(ms + 1)).toBe(true);
      expect(newId(ms - 1) < idFloor(ms)).toBe(true);
    }
  });
});
