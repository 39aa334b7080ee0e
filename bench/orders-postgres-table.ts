/** The PostgreSQL order benchmark's markdown table, as pasted into the README. */
import type { PgRun } from "./orders-postgres-report.js";

const LABELS: Record<PgRun["name"], string> = {
  floor: "Floor: node:http, JSON.parse, 1 INSERT (pg pool 10)",
  "velvet-1": "Velvet, one node: new customer + order",
  "velvet-returning": "Velvet, one node: returning customer + new order",
  "velvet-2": "Velvet, two nodes: new customer + order",
  "velvet-1-capped": "Velvet, one node held to its CPU budget: new customer + order",
  "velvet-2-capped":
    "Velvet, two nodes held to a CPU budget each, each driven like the one: new customer + order",
  "velvet-2-capped-split":
    "Velvet, two nodes held to a CPU budget each, sharing the one node's connections: new customer + order",
  "velvet-1-pgbouncer": "Velvet, one held node through PgBouncer (transaction mode)",
  "velvet-2-pgbouncer": "Velvet, two held nodes through PgBouncer (transaction mode)",
  "velvet-quiet": "Velvet, one node at a quiet store's pace (paced): new customer + order",
  "velvet-repeat": "Velvet, one node: repeat (existing customer + order)",
};

const cores = (n: number | null | undefined) =>
  n === null || n === undefined ? "–" : n.toFixed(2);

/** The server processes of each run, by their CPU group (orders-postgres.ts). */
function serversOf(name: PgRun["name"]): string[] {
  if (name === "floor") return ["floor"];
  if (name === "velvet-2" || name.startsWith("velvet-2-capped")) return ["node-1", "node-2"];
  if (name === "velvet-1-pgbouncer") return ["pooled-1"];
  if (name === "velvet-2-pgbouncer") return ["pooled-1", "pooled-2"];
  return ["node-1"];
}

export interface PgRatios {
  ratio: number;
  returningRatio: number;
  twoVsOne: number;
  cappedTwoVsOne: number | null;
  /** The direct held two-node run driven the other way (reported). */
  otherLoadTwoVsOne: number | null;
  pooledTwoVsOne: number | null;
  pooledVsDirect: number | null;
}

/** The quiet store's figures in words: what each of its orders costs PostgreSQL and waits. */
function quietLine(quiet: PgRun | undefined): string {
  if (quiet === undefined) return "";
  const pgMicros = ((quiet.cpu.postgres ?? 0) * 1e6) / Math.max(1, quiet.requestsPerSec);
  return ` At a quiet store's pace (${quiet.requestsPerSec.toFixed(0)} new customers a second, one statement each) PostgreSQL spends **${pgMicros.toFixed(0)} µs** a new customer and the answers take p50 ${quiet.p50Ms.toFixed(2)} ms, p99 ${quiet.p99Ms.toFixed(2)} ms.`;
}

/**
 * Whether the held nodes got their budget: a node that uses less than its quota waited for the
 * machine (other processes, PostgreSQL, the load generator), not for the quota, and the ratio
 * then measures the machine running out.
 */
function heldLine(runs: PgRun[], nodeCores: number): string {
  const held = runs.filter(
    (r) => r.name.startsWith("velvet-2-capped") || r.name === "velvet-2-pgbouncer",
  );
  if (held.length === 0) return "";
  const range = (values: number[]) => {
    const [lo, hi] = [Math.min(...values), Math.max(...values)];
    return lo.toFixed(2) === hi.toFixed(2) ? lo.toFixed(2) : `${lo.toFixed(2)}–${hi.toFixed(2)}`;
  };
  const nodes = held.flatMap((r) => serversOf(r.name).map((g) => r.cpu[g] ?? 0));
  const other = held.map((r) => r.cpu.other ?? 0);
  return ` In the two-node held runs each node used ${range(nodes)} of its ${nodeCores} of a core while other processes on the machine used ${range(other)} cores: a node under its budget waited for the machine, not for its quota.`;
}

/** The held runs through PgBouncer in words, when they were measured. */
function pooledLine(twoVsOne: number | null, vsDirect: number | null): string {
  if (twoVsOne === null || vsDirect === null)
    return "; the runs through PgBouncer were not measured here";
  return `; through PgBouncer in transaction mode, **${twoVsOne.toFixed(2)} ×** one node through it (target >= 1.6), and one held node through it answers **${vsDirect.toFixed(2)} ×** what it answers direct`;
}

export function pgOrdersTable(
  runs: PgRun[],
  r: PgRatios,
  nodeCores: number,
  heldLoad: "per-node" | "split",
): string {
  const { ratio, returningRatio, twoVsOne, cappedTwoVsOne, pooledTwoVsOne, pooledVsDirect } = r;
  const driven = (load: "per-node" | "split") =>
    load === "per-node" ? "each driven like the one" : "sharing the one node's connections";
  const otherLoad = heldLoad === "per-node" ? "split" : "per-node";
  const otherLine =
    r.otherLoadTwoVsOne === null
      ? ""
      : ` (${driven(otherLoad)}, reported: **${r.otherLoadTwoVsOne.toFixed(2)} ×**)`;
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
    serversOf(r.name)
      .map((g) => cores(r.cpu[g]))
      .join(" + ");
  // CPU per answered request moves far less than throughput on a shared machine.
  const perRequest = (r: PgRun, c: number) =>
    ((c * 1e6) / Math.max(1, r.requestsPerSec)).toFixed(0);
  const serverTotal = (r: PgRun) => serversOf(r.name).reduce((s, g) => s + (r.cpu[g] ?? 0), 0);
  const bouncerCores = (r: PgRun) => (r.name.endsWith("-pgbouncer") ? cores(r.cpu.pgbouncer) : "–");
  return [
    "| Round | Run | Requests/s | Of the floor | p50 (ms) | p99 (ms) | non-2xx | Server(s) CPU | PostgreSQL CPU | PgBouncer CPU | Load generator CPU | Other (cores) | Server µs/request | PostgreSQL µs/request |",
    "|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...runs.map(
      (r) =>
        `| ${r.round} | ${LABELS[r.name]} | ${r.requestsPerSec.toFixed(0)} | ${ofFloor(r)} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${r.non2xx} | ${serverCores(r)} | ${cores(r.cpu.postgres)} | ${bouncerCores(r)} | ${cores(r.cpu.loader)} | ${cores(r.cpu.other)} | ${perRequest(r, serverTotal(r))} | ${perRequest(r, r.cpu.postgres ?? 0)} |`,
    ),
    "",
    `One node answers **${ratio.toFixed(2)}** of the floor with new customers and **${returningRatio.toFixed(2)}** with returning ones (medians of rounds; targets >= 0.75); two nodes sharing the machine's cores answer **${twoVsOne.toFixed(2)} ×** one node; ${
      cappedTwoVsOne === null
        ? "the runs with a CPU budget per node were not measured here."
        : `held to ${nodeCores} of a core each and ${driven(heldLoad)}, two nodes answer **${cappedTwoVsOne.toFixed(2)} ×** one node (target >= 1.6)${otherLine}${pooledLine(pooledTwoVsOne, pooledVsDirect)}.`
    }${heldLine(runs, nodeCores)}${quietLine(runs.find((r) => r.name === "velvet-quiet"))}`,
  ].join("\n");
}
