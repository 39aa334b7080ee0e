/**
 * The coalesced NOTIFY sender (pg-wakeups.ts): however many commits ask, at most one send is in
 * flight and one more pending; a failed send is only logged.
 */
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { coalescedSender } from "./pg-wakeups.js";

const silent = pino({ level: "silent" });

describe("coalesced wake-up sender", () => {
  it("turns a burst of requests into one send, and requests during a send into one more", async () => {
    let sends = 0;
    let finish: () => void = () => {};
    const sender = coalescedSender(
      () => {
        sends += 1;
        return new Promise<void>((resolve) => {
          finish = resolve;
        });
      },
      0,
      silent,
    );
    for (let i = 0; i < 1000; i++) sender.request();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sends).toBe(1);
    // While that send is in flight: a thousand more commits, one pending send.
    for (let i = 0; i < 1000; i++) sender.request();
    finish();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sends).toBe(2);
    finish();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sends).toBe(2);
    await sender.close();
  });

  it("keeps sending after a failed send", async () => {
    let sends = 0;
    const sender = coalescedSender(
      async () => {
        sends += 1;
        if (sends === 1) throw new Error("the database is away");
      },
      0,
      silent,
    );
    sender.request();
    await new Promise((resolve) => setTimeout(resolve, 10));
    sender.request();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(sends).toBe(2);
    await sender.close();
  });
});
