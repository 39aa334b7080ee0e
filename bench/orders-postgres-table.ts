/** The PostgreSQL order benchmark's markdown table, as pasted into the README. */
import type { PgRun } from "./orders-postgres.js";

const LABELS: Record<PgRun["name"], string> = {
  floor: "Floor: node:http, JSON.parse, 1 INSERT (pg pool 10)",
  "velvet-1": "Velvet, one node: new customer + order",
  "velvet-returning": "Velvet, one node: returning customer + new order",
  "velvet-2": "Velvet, two nodes: new customer + order",
  "velvet-1-capped": "Velvet, one node held to its CPU budget: new customer + order",
  "velvet-2-capped": "Velvet, two nodes held to a CPU budget each: new customer + order",
  "velvet-quiet": "Velvet, one node at a quiet store's pace (paced): new customer + order",
  "velvet-repeat": "Velvet, one node: repeat (existing customer + order)",
};

const cores = (n: number | null | undefined) =>
  n === null || n === undefined ? "–" : n.toFixed(2);

const BOTH_NODES = new Set<PgRun["name"]>(["velvet-2", "velvet-2-capped"]);

export interface PgRatios {
  ratio: number;
  returningRatio: number;
  twoVsOne: number;
  cappedTwoVsOne: number | null;
}

/** The quiet store's figures in words: what each of its orders costs PostgreSQL and waits. */
function quietLine(quiet: PgRun | undefined): string {
  if (quiet === undefined) return "";
  const pgMicros = ((quiet.cpu.postgres ?? 0) * 1e6) / Math.max(1, quiet.requestsPerSec);
  return ` At a quiet store's pace (${quiet.requestsPerSec.toFixed(0)} new customers a second, one statement each) PostgreSQL spends **${pgMicros.toFixed(0)} µs** a new customer and the answers take p50 ${quiet.p50Ms.toFixed(2)} ms, p99 ${quiet.p99Ms.toFixed(2)} ms.`;
}

export function pgOrdersTable(
  runs: PgRun[],
  { ratio, returningRatio, twoVsOne, cappedTwoVsOne }: PgRatios,
  nodeCores: number,
): string {
  // Each figure against the floor of its own round: the machine's drift falls on both.
  const floorOf = (r: PgRun) =>
    runs.find((f) => f.name === "floor" && f.round === r.round) ??
    runs.find((f) => f.name === "floor");
  const ofFloor = (r: PgRun) => {
    // A paced run's rate is the schedule's, not what the node could answer.
    if (r.name === "velvet-quiet") return "–";
    const floor = floorOf(r);
    return floor === undefined ? "–" : (r.requestsPerSec / floor.requestsPerSec).toFixed(2);
  };
  const serverCores = (r: PgRun) =>
    r.name === "floor"
      ? cores(r.cpu.floor)
      : BOTH_NODES.has(r.name)
        ? `${cores(r.cpu["node-1"])} + ${cores(r.cpu["node-2"])}`
        : cores(r.cpu["node-1"]);
  // CPU per answered request moves far less than throughput on a shared machine.
  const perRequest = (r: PgRun, c: number) =>
    ((c * 1e6) / Math.max(1, r.requestsPerSec)).toFixed(0);
  const serverTotal = (r: PgRun) =>
    r.name === "floor"
      ? (r.cpu.floor ?? 0)
      : (r.cpu["node-1"] ?? 0) + (BOTH_NODES.has(r.name) ? (r.cpu["node-2"] ?? 0) : 0);
  return [
    "| Round | Run | Requests/s | Of the floor | p50 (ms) | p99 (ms) | non-2xx | Server(s) CPU | PostgreSQL CPU | Load generator CPU | Other (cores) | Server µs/request | PostgreSQL µs/request |",
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...runs.map(
      (r) =>
        `| ${r.round} | ${LABELS[r.name]} | ${r.requestsPerSec.toFixed(0)} | ${ofFloor(r)} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${r.non2xx} | ${serverCores(r)} | ${cores(r.cpu.postgres)} | ${cores(r.cpu.loader)} | ${cores(r.cpu.other)} | ${perRequest(r, serverTotal(r))} | ${perRequest(r, r.cpu.postgres ?? 0)} |`,
    ),
    "",
    `One node answers **${ratio.toFixed(2)}** of the floor with new customers and **${returningRatio.toFixed(2)}** with returning ones (medians of rounds; targets >= 0.75); two nodes sharing the machine's cores answer **${twoVsOne.toFixed(2)} ×** one node; ${
      cappedTwoVsOne === null
        ? "the runs with a CPU budget per node were not measured here."
        : `held to ${nodeCores} of a core each, two nodes answer **${cappedTwoVsOne.toFixed(2)} ×** one node (target >= 1.6).`
    }${quietLine(runs.find((r) => r.name === "velvet-quiet"))}`,
  ].join("\n");
}
