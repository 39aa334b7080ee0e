import { describe, expect, it } from "vitest";
import { createTurnQueue } from "./turn-queue.js";

function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin: a piece of work that holds the event loop
  }
}

describe("createTurnQueue", () => {
  it("runs every piece, in order", async () => {
    const turns = createTurnQueue();
    const ran: number[] = [];
    await new Promise<void>((resolve) => {
      for (let i = 0; i < 20; i++) turns.run(() => ran.push(i));
      turns.run(resolve);
    });
    expect(ran).toEqual([...Array(20).keys()]);
  });

  it("lets the event loop go round between two pieces", async () => {
    const turns = createTurnQueue();
    let ran = 0;
    let ranWhenTimerFired = -1;
    const allDone = new Promise<void>((resolve) => {
      for (let i = 0; i < 50; i++) {
        turns.run(() => {
          busy(1);
          ran++;
        });
      }
      turns.run(resolve);
    });
    setTimeout(() => {
      ranWhenTimerFired = ran;
    }, 0);
    await allDone;
    // Queued all at once, not queued one per turn, the fifty would all run before the timer.
    expect(ranWhenTimerFired).toBeGreaterThanOrEqual(0);
    expect(ranWhenTimerFired).toBeLessThan(5);
  });

  it("runs the microtasks a piece starts before the next piece", async () => {
    const turns = createTurnQueue();
    const log: string[] = [];
    await new Promise<void>((resolve) => {
      turns.run(() => {
        log.push("first");
        void Promise.resolve()
          .then(() => log.push("first's continuation"))
          .then(() => log.push("and its next step"));
      });
      turns.run(() => log.push("second"));
      turns.run(resolve);
    });
    expect(log).toEqual(["first", "first's continuation", "and its next step", "second"]);
  });
});
