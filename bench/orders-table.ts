/** The order benchmark's markdown table, as pasted into the performance docs. */
import type { MeasuredRun } from "./orders.js";

const LABELS: Record<string, string> = {
  "baseline-new": "Floor: node:http, JSON.parse, 1 SQLite insert",
  "same-writes-new":
    "Same-writes floor: node:http, JSON.parse, a new customer's 4 rows, 1 COMMIT a turn",
  "velvet-new": "Velvet: new customer + order",
  "velvet-repeat": "Velvet: repeat (existing customer + order)",
};

export function ordersTable(runs: MeasuredRun[], ratio: number, sameWritesRatio: number): string {
  const cores = (n: number | null) => (n === null ? "n/a" : n.toFixed(2));
  // Every figure against the floors of its own round (the repeats: the last round's).
  const floorOf = (name: string, r: MeasuredRun) => {
    const floors = runs.filter((f) => f.name === name);
    return floors.find((f) => f.round === r.round) ?? floors[floors.length - 1];
  };
  const of = (r: MeasuredRun, floor: MeasuredRun | undefined) =>
    floor === undefined ? "–" : (r.requestsPerSec / floor.requestsPerSec).toFixed(2);
  const lines = [
    "| Round | Run | Requests/s | Of the floor | Of the same-writes floor | p50 (ms) | p99 (ms) | non-2xx | Server CPU (cores) | Server µs/request | Other processes (cores) |",
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...runs.map((r) => {
      // The one-insert floor is not judged against the other.
      const sameWrites = r.name === "baseline-new" ? "–" : of(r, floorOf("same-writes-new", r));
      return `| ${r.round ?? "–"} | ${LABELS[r.name] ?? r.name} | ${r.requestsPerSec.toFixed(0)} | ${of(r, floorOf("baseline-new", r))} | ${sameWrites} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${r.non2xx} | ${cores(r.cpu.serverCores)} | ${r.cpu.serverCores === null ? "n/a" : ((r.cpu.serverCores * 1e6) / Math.max(1, r.requestsPerSec)).toFixed(0)} | ${cores(r.cpu.otherCores)} |`;
    }),
  ];
  const fresh = runs.filter((r) => r.name === "velvet-new");
  if (fresh.length > 0) {
    const worstP99 = Math.max(...fresh.map((r) => r.p99Ms));
    lines.push(
      "",
      `Velvet new-customer throughput is **${ratio.toFixed(2)}** of the floor (target >= 0.6) and **${sameWritesRatio.toFixed(2)}** of the same-writes floor (target >= 0.85), medians of ${fresh.length} round(s); worst p99 **${worstP99.toFixed(1)} ms** (target <= 25 ms).`,
    );
  }
  return lines.join("\n");
}
