import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import {
  EventLoopDelayHistogram,
  monitorLoopDelay,
  ThreadLoopDelayHistograms,
} from "./event-loop-delay.js";

function bucket(text: string, le: string): number {
  const line = text
    .split("\n")
    .find((l) => l.startsWith(`velvet_event_loop_delay_seconds_bucket{le="${le}"}`));
  return Number(line?.split(" ")[1]);
}

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("velvet_event_loop_delay_seconds", () => {
  it("counts a turn that held the thread in the bucket of its length, cumulatively across scrapes", async () => {
    const registry = new Registry();
    new EventLoopDelayHistogram(registry);
    await wait(100);
    const before = await registry.metrics();
    const samplesBefore = bucket(before, "+Inf");
    expect(samplesBefore).toBeGreaterThan(0);

    // Hold the thread for 80 ms, as a long synchronous task would.
    const until = performance.now() + 80;
    while (performance.now() < until) {
      /* busy */
    }
    await wait(50);
    const after = await registry.metrics();
    const samples = bucket(after, "+Inf");
    // Cumulative: what the first scrape counted is still there.
    expect(samples).toBeGreaterThan(samplesBefore);
    // The held turn: one sample late by about 70–80 ms (beyond the 10 ms interval), so above 50 ms.
    expect(samples - bucket(after, "0.05")).toBeGreaterThanOrEqual(1);
    expect(bucket(after, "0.05") - bucket(before, "0.05")).toBeLessThan(samples - samplesBefore);
    const sum = Number(
      after
        .split("\n")
        .find((l) => l.startsWith("velvet_event_loop_delay_seconds_sum"))
        ?.split(" ")[1],
    );
    expect(sum).toBeGreaterThanOrEqual(0.05);
    expect(after).toContain("# TYPE velvet_event_loop_delay_seconds histogram");
  });
});

describe("velvet_thread_event_loop_delay_seconds", () => {
  it("shows each helper thread's latest report under its label, in the same buckets", async () => {
    const read = monitorLoopDelay();
    await wait(60);
    const until = performance.now() + 80;
    while (performance.now() < until) {
      /* busy: the loop is held for 80 ms */
    }
    await wait(30);
    const snapshot = read();
    expect(snapshot.count).toBeGreaterThan(0);
    expect(snapshot.count - (snapshot.buckets[10] ?? 0)).toBeGreaterThanOrEqual(1); // > 50 ms

    const registry = new Registry();
    const threads = new ThreadLoopDelayHistograms(registry);
    expect(await registry.metrics()).not.toContain("velvet_thread_event_loop_delay_seconds_count");
    threads.record("providers", { buckets: [], sum: 0, count: 1 });
    threads.record("providers", snapshot); // the latest report replaces the one before
    threads.record("worker", { ...snapshot, count: 7, sum: 0.5 });
    const text = await registry.metrics();
    expect(text).toContain("# TYPE velvet_thread_event_loop_delay_seconds histogram");
    expect(text).toContain(
      `velvet_thread_event_loop_delay_seconds_count{thread="providers"} ${snapshot.count}`,
    );
    expect(text).toContain(
      `velvet_thread_event_loop_delay_seconds_bucket{thread="providers",le="+Inf"} ${snapshot.count}`,
    );
    expect(text).toContain(
      `velvet_thread_event_loop_delay_seconds_bucket{thread="providers",le="0.05"} ${snapshot.buckets[10]}`,
    );
    expect(text).toContain('velvet_thread_event_loop_delay_seconds_sum{thread="worker"} 0.5');
  });
});
