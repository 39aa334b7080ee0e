import { describe, expect, it } from "vitest";
import { createBackgroundPacer } from "./background-pacer.js";

function busy(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end) {
    // spin: a piece of work that holds the event loop
  }
}

describe("createBackgroundPacer", () => {
  it("runs every piece, in order", async () => {
    const pacer = createBackgroundPacer();
    const ran: number[] = [];
    await new Promise<void>((resolve) => {
      for (let i = 0; i < 20; i++) pacer.run(() => ran.push(i));
      pacer.run(resolve);
    });
    expect(ran).toEqual([...Array(20).keys()]);
  });

  it("lets the event loop go round between two pieces", async () => {
    const pacer = createBackgroundPacer();
    let ran = 0;
    let ranWhenTimerFired = -1;
    const allDone = new Promise<void>((resolve) => {
      for (let i = 0; i < 50; i++) {
        pacer.run(() => {
          busy(1);
          ran++;
        });
      }
      pacer.run(resolve);
    });
    setTimeout(() => {
      ranWhenTimerFired = ran;
    }, 0);
    await allDone;
    // Queued all at once, unpaced, the fifty would all run before the timer.
    expect(ranWhenTimerFired).toBeGreaterThanOrEqual(0);
    expect(ranWhenTimerFired).toBeLessThan(5);
  });

  it("runs the microtasks a piece starts before the next piece", async () => {
    const pacer = createBackgroundPacer();
    const log: string[] = [];
    await new Promise<void>((resolve) => {
      pacer.run(() => {
        log.push("first");
        void Promise.resolve()
          .then(() => log.push("first's continuation"))
          .then(() => log.push("and its next step"));
      });
      pacer.run(() => log.push("second"));
      pacer.run(resolve);
    });
    expect(log).toEqual(["first", "first's continuation", "and its next step", "second"]);
  });
});
