/** The order benchmark's markdown table, as pasted into the performance docs. */
import type { MeasuredRun } from "./orders.js";

const LABELS: Record<string, string> = {
  "baseline-new": "Floor: node:http, JSON.parse, 1 SQLite insert",
  "velvet-new": "Velvet: new customer + order",
  "velvet-repeat": "Velvet: repeat (existing customer + order)",
};

export function ordersTable(runs: MeasuredRun[], ratio: number): string {
  const cores = (n: number | null) => (n === null ? "n/a" : n.toFixed(2));
  const floors = runs.filter((r) => r.name === "baseline-new");
  // Every figure against the floor of its own round (the repeats: the last round's).
  const floorOf = (r: MeasuredRun) =>
    floors.find((f) => f.round === r.round) ?? floors[floors.length - 1];
  const lines = [
    "| Round | Run | Requests/s | Of the floor | p50 (ms) | p99 (ms) | non-2xx | Server CPU (cores) | Server µs/request | Other processes (cores) |",
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...runs.map((r) => {
      const floor = floorOf(r);
      return `| ${r.round ?? "–"} | ${LABELS[r.name] ?? r.name} | ${r.requestsPerSec.toFixed(0)} | ${floor === undefined ? "–" : (r.requestsPerSec / floor.requestsPerSec).toFixed(2)} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${r.non2xx} | ${cores(r.cpu.serverCores)} | ${r.cpu.serverCores === null ? "n/a" : ((r.cpu.serverCores * 1e6) / Math.max(1, r.requestsPerSec)).toFixed(0)} | ${cores(r.cpu.otherCores)} |`;
    }),
  ];
  const fresh = runs.filter((r) => r.name === "velvet-new");
  if (fresh.length > 0) {
    const worstP99 = Math.max(...fresh.map((r) => r.p99Ms));
    lines.push(
      "",
      `Velvet new-customer throughput is **${ratio.toFixed(2)}** of the floor (median of ${fresh.length} round(s); target >= 0.6), worst p99 **${worstP99.toFixed(1)} ms** (target <= 25 ms).`,
    );
  }
  return lines.join("\n");
}
