/**
 * The shared-limits primitives on both engines, with two database handles on one database
 * standing in for two processes: slots are handed out once each, spaced by the interval,
 * whichever handle asks; a caller who would wait too long is refused without moving the next
 * slot; a 429 pushes it; window leases never add up past the limit and a new window starts when
 * the last has ended; the sweep deletes only rows that stopped mattering. On PostgreSQL the
 * statements a caller waits on answer while every connection of the jobs' pool is taken.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, postgresEngine } from "../../../test/support/databases.js";
import { openTwoHandles, type TwoHandles } from "../../../test/support/two-handles.js";
import { type Db, openDatabase } from "../../db/connect.js";
import {
  deferSlots,
  sweepSharedLimits,
  takeSlots,
  takeWindowLease,
} from "./shared-limits-table.js";

const T = Date.UTC(2026, 10, 27, 12, 0, 0);

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`shared limits table (${engine.name})`, () => {
    let handles: TwoHandles;
    let a: Db;
    let b: Db;

    beforeAll(async () => {
      handles = await openTwoHandles(engine);
      ({ a, b } = handles);
    });
    afterAll(async () => {
      await handles?.close();
    });

    it("hands each slot out once, spaced by the interval, whichever process asks", async () => {
      const ask = { name: "provider:pdl", n: 1, intervalMs: 1000, maxWaitMs: 60_000, now: T };
      const firsts: number[] = [];
      for (let i = 0; i < 6; i++) {
        const grant = await takeSlots(i % 2 === 0 ? a : b, ask);
        if (!grant.ok) throw new Error("refused");
        firsts.push(grant.firstAt);
      }
      expect(firsts).toEqual([0, 1, 2, 3, 4, 5].map((i) => T + i * 1000));
      // A lease of three takes the next three; the one after starts past them.
      expect(await takeSlots(a, { ...ask, n: 3 })).toEqual({ ok: true, firstAt: T + 6000 });
      expect(await takeSlots(b, ask)).toEqual({ ok: true, firstAt: T + 9000 });
      // Time has passed the booked slots: the next is now, not in the past.
      expect(await takeSlots(b, { ...ask, now: T + 60_000 })).toEqual({
        ok: true,
        firstAt: T + 60_000,
      });
    });

    it("rounds a lease of sub-millisecond slots as a whole, not slot by slot", async () => {
      const ask = { name: "provider:fast", n: 3333, intervalMs: 0.06, maxWaitMs: 2000, now: T };
      expect(await takeSlots(a, ask)).toEqual({ ok: true, firstAt: T });
      expect(await takeSlots(b, ask)).toEqual({ ok: true, firstAt: T + 200 });
    });

    it("refuses a caller who would wait longer than it allows, without taking the slot", async () => {
      const ask = { name: "chat:abc", n: 1, intervalMs: 1000, maxWaitMs: 2000, now: T };
      for (let i = 0; i < 3; i++) expect((await takeSlots(a, ask)).ok).toBe(true);
      expect(await takeSlots(b, ask)).toEqual({ ok: false, nextAt: T + 3000 });
      expect(await takeSlots(b, ask)).toEqual({ ok: false, nextAt: T + 3000 });
      expect(await takeSlots(a, { ...ask, maxWaitMs: 3000 })).toEqual({
        ok: true,
        firstAt: T + 3000,
      });
    });

    it("pushes the next slot for a 429's Retry-After, never pulls it earlier", async () => {
      const ask = {
        name: "provider:fullcontact",
        n: 1,
        intervalMs: 100,
        maxWaitMs: 60_000,
        now: T,
      };
      expect(await takeSlots(a, ask)).toEqual({ ok: true, firstAt: T });
      await deferSlots(b, ask.name, T + 30_000);
      await deferSlots(a, ask.name, T + 5_000);
      expect(await takeSlots(a, ask)).toEqual({ ok: true, firstAt: T + 30_000 });
      // A name never used before can be deferred too.
      await deferSlots(a, "provider:gravatar", T + 7_000);
      expect(await takeSlots(b, { ...ask, name: "provider:gravatar" })).toEqual({
        ok: true,
        firstAt: T + 7_000,
      });
    });

    it("leases a window out no further than its limit, then starts a new one when it ends", async () => {
      const ask = { name: "key:k1", want: 4, limit: 10, windowMs: 60_000, now: T };
      expect(await takeWindowLease(a, ask)).toEqual({
        granted: 4,
        used: 4,
        windowEndsAt: T + 60_000,
      });
      expect(await takeWindowLease(b, { ...ask, now: T + 10_000 })).toEqual({
        granted: 4,
        used: 8,
        windowEndsAt: T + 60_000,
      });
      expect(await takeWindowLease(a, ask)).toEqual({
        granted: 2,
        used: 10,
        windowEndsAt: T + 60_000,
      });
      expect(await takeWindowLease(b, ask)).toEqual({
        granted: 0,
        used: 10,
        windowEndsAt: T + 60_000,
      });
      // A lower limit set meanwhile (the account's own) grants nothing more either.
      expect((await takeWindowLease(b, { ...ask, limit: 5 })).granted).toBe(0);
      expect(await takeWindowLease(b, { ...ask, now: T + 60_000 })).toEqual({
        granted: 4,
        used: 4,
        windowEndsAt: T + 120_000,
      });
    });

    it("sweeps the rows that stopped mattering and keeps the others", async () => {
      const ask = { want: 1, limit: 10, windowMs: 60_000 };
      await takeWindowLease(a, { ...ask, name: "key:old", now: T - 600_000 });
      await takeWindowLease(a, { ...ask, name: "key:live", now: T });
      expect(await sweepSharedLimits(b, T)).toBeGreaterThanOrEqual(1);
      const names = (await a.kysely.selectFrom("shared_limits").select("name").execute()).map(
        (r) => r.name,
      );
      expect(names).toContain("key:live");
      expect(names).not.toContain("key:old");
    });
  });
}

describe.skipIf(!postgresEngine.available)(
  "shared limits beside a busy jobs' pool (postgres)",
  () => {
    it("answers leases on connections of their own while the jobs' pool is all taken", async () => {
      const database = await postgresEngine.createMigrated();
      if (database.target.kind !== "postgres") throw new Error("expected PostgreSQL");
      // One connection in the jobs' pool, held by a transaction that waits for the test.
      const db = openDatabase({ ...database.target, poolMax: 1 });
      let release = () => {};
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let holding = () => {};
      const taken = new Promise<void>((resolve) => {
        holding = resolve;
      });
      const hold = db.kysely.transaction().execute(async (trx) => {
        await trx.selectFrom("shared_limits").select("name").execute();
        holding();
        await held;
      });
      try {
        await taken;
        const within = <T>(what: Promise<T>) =>
          Promise.race([
            what,
            new Promise<never>((_, reject) =>
              setTimeout(() => reject(new Error("queued behind the jobs' pool")), 2000),
            ),
          ]);
        const ask = { name: "provider:pdl", n: 5, intervalMs: 40, maxWaitMs: 2000, now: T };
        expect(await within(takeSlots(db, ask))).toEqual({ ok: true, firstAt: T });
        await within(deferSlots(db, "provider:pdl", T + 30_000));
        expect(await within(takeSlots(db, ask))).toEqual({ ok: false, nextAt: T + 30_000 });
        const window = { name: "key:k", want: 3, limit: 10, windowMs: 60_000, now: T };
        expect((await within(takeWindowLease(db, window))).granted).toBe(3);
      } finally {
        release();
        await hold;
        await db.close();
        await database.drop();
      }
    });
  },
);
