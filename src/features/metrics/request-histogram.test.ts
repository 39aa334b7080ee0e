import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { RequestHistogram } from "./request-histogram.js";

describe("RequestHistogram", () => {
  it("renders cumulative buckets, sum and count per label set, as prom-client would", async () => {
    const registry = new Registry();
    const h = new RequestHistogram("t_seconds", "test", [0.01, 0.1, 1], registry);
    h.define("a", { route: "/a" });
    h.define("b", { route: "/b" });
    for (const v of [0.005, 0.01, 0.05, 2]) h.observe("a", v);
    h.observe("b", 0.5);
    h.observe("undefined-key", 1);
    const text = await registry.metrics();
    expect(text).toContain("# TYPE t_seconds histogram");
    expect(text).toMatch(/^t_seconds_sum\{route="\/a"\} 2\.06\d*$/m);
    for (const line of [
      't_seconds_bucket{route="/a",le="0.01"} 2',
      't_seconds_bucket{route="/a",le="0.1"} 3',
      't_seconds_bucket{route="/a",le="1"} 3',
      't_seconds_bucket{route="/a",le="+Inf"} 4',
      't_seconds_count{route="/a"} 4',
      't_seconds_bucket{route="/b",le="0.1"} 0',
      't_seconds_bucket{route="/b",le="1"} 1',
      't_seconds_count{route="/b"} 1',
    ]) {
      expect(text).toContain(line);
    }
  });
});
