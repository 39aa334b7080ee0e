/** The order benchmark's markdown table, as pasted into the README. */
import type { MeasuredRun } from "./orders.js";

const LABELS: Record<string, string> = {
  "baseline-new": "Floor: node:http, JSON.parse, 1 SQLite insert",
  "velvet-new": "Velvet: new customer + order",
  "velvet-repeat": "Velvet: repeat (existing customer + order)",
};

export function ordersTable(runs: MeasuredRun[], ratio: number): string {
  const cores = (n: number | null) => (n === null ? "n/a" : n.toFixed(2));
  // Every figure against the floor measured in the same run.
  const floor = runs.find((r) => r.name === "baseline-new");
  const lines = [
    "| Run | Requests/s | Of the floor | p50 (ms) | p99 (ms) | non-2xx | Server CPU (cores) | Server µs/request | Other processes (cores) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...runs.map(
      (r) =>
        `| ${LABELS[r.name] ?? r.name} | ${r.requestsPerSec.toFixed(0)} | ${floor === undefined ? "–" : (r.requestsPerSec / floor.requestsPerSec).toFixed(2)} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${r.non2xx} | ${cores(r.cpu.serverCores)} | ${r.cpu.serverCores === null ? "n/a" : ((r.cpu.serverCores * 1e6) / Math.max(1, r.requestsPerSec)).toFixed(0)} | ${cores(r.cpu.otherCores)} |`,
    ),
  ];
  const fresh = runs.find((r) => r.name === "velvet-new");
  if (fresh) {
    lines.push(
      "",
      `Velvet new-customer throughput is **${ratio.toFixed(2)}** of the floor (target >= 0.6), p99 **${fresh.p99Ms.toFixed(1)} ms** (target <= 25 ms).`,
    );
  }
  return lines.join("\n");
}
