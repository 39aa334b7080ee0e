import { describe, expect, it } from "vitest";
import { measureProgress } from "../features/order-import/import-progress.js";
import { renderProgressBar } from "./progress-bar.js";

describe("the import's progress bar", () => {
  it("shows the share of the file, rows, rows per second and the time left", () => {
    // 2 s in, a quarter of the file read: 6 s to go at the same pace.
    const p = measureProgress({ rows: 12_000, orders: 6_000, bytes: 250 }, 1_000, 2_000);
    expect(p).toEqual({
      rows: 12_000,
      orders: 6_000,
      bytes: 250,
      totalBytes: 1_000,
      rowsPerSecond: 6_000,
      etaSeconds: 6,
    });
    expect(renderProgressBar(p)).toBe(
      "██████░░░░░░░░░░░░░░░░░░  25%  12,000 rows  6,000 rows/s  ETA 00:06",
    );
    const start = measureProgress({ rows: 0, orders: 0, bytes: 0 }, 1_000, 0);
    expect(start.etaSeconds).toBeNull();
    expect(renderProgressBar(start)).toContain("ETA --:--");
    const long = measureProgress({ rows: 1, orders: 1, bytes: 1 }, 10_000, 1_000);
    expect(renderProgressBar(long)).toContain("ETA 2:46:39");
  });
});
