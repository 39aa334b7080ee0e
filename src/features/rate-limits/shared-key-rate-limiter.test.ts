/**
 * The shared per-key limiter with two database handles on one database standing in for two
 * processes, on both engines: together they answer exactly the limit in a window (the leases
 * neither exceed it nor strand any of it when both keep asking), refusals once it is spent cost
 * no statement, a new window opens when the last ends, and a limiter whose database does not
 * answer falls back to counting alone and says so once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES } from "../../../test/support/databases.js";
import { openTwoHandles, type TwoHandles } from "../../../test/support/two-handles.js";
import type { Db } from "../../db/connect.js";
import { takeWindowLease, type WindowAsk } from "../shared-limits/shared-limits-table.js";
import type { RateDecision } from "./key-rate-limiter.js";
import { createSharedKeyRateLimiter } from "./shared-key-rate-limiter.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`shared per-key limiter (${engine.name})`, () => {
    let handles: TwoHandles;
    let a: Db;
    let b: Db;
    let now = Date.UTC(2026, 10, 27, 12, 0, 0);
    const statements = { a: 0, b: 0 };
    const limiterOn = (db: Db, which: "a" | "b") =>
      createSharedKeyRateLimiter({
        takeWindow: (ask: WindowAsk) => {
          statements[which] += 1;
          return takeWindowLease(db, ask);
        },
        now: () => now,
      });

    beforeAll(async () => {
      handles = await openTwoHandles(engine);
      ({ a, b } = handles);
    });
    afterAll(async () => {
      await handles?.close();
    });

    it("answers the limit across two processes, no more and no less, with few statements", async () => {
      const one = limiterOn(a, "a");
      const two = limiterOn(b, "b");
      const decisions: RateDecision[] = [];
      for (let i = 0; i < 900; i++) {
        decisions.push(await (i % 3 === 0 ? two : one).take("key-1", 600));
        if (i % 50 === 0) await new Promise((r) => setTimeout(r, 5)); // let prefetches land
      }
      expect(decisions.filter((d) => d.allowed)).toHaveLength(600);
      expect(decisions.slice(-50).every((d) => !d.allowed && d.remaining === 0)).toBe(true);
      expect(decisions.every((d) => d.remaining >= 0 && d.remaining <= 600)).toBe(true);
      // Leases of up to 30, shrinking near the end: far fewer statements than requests.
      expect(statements.a + statements.b).toBeLessThan(120);
      const before = statements.a + statements.b;
      for (let i = 0; i < 100; i++) expect((await one.take("key-1", 600)).allowed).toBe(false);
      expect(statements.a + statements.b).toBe(before);
      // Once the window has ended, a new one is leased.
      now += 60_000;
      expect(await one.take("key-1", 600)).toMatchObject({ allowed: true, resetSeconds: 60 });
    });

    it("counts alone while the database does not answer, and says so once", async () => {
      const said: boolean[] = [];
      const down = createSharedKeyRateLimiter({
        takeWindow: () => Promise.reject(new Error("connect ECONNREFUSED")),
        now: () => now,
        onReachability: (reachable) => said.push(reachable),
      });
      const answers: RateDecision[] = [];
      for (let i = 0; i < 5; i++) answers.push(await down.take("key-2", 3));
      expect(answers.map((d) => d.allowed)).toEqual([true, true, true, false, false]);
      expect(said).toEqual([false]);
    });
  });
}
