/**
 * What Prometheus metrics cost order intake (target: at most 3 %). Two `velvet serve`
 * processes (SQLite, worker off), identical but for METRICS_PORT: one collects nothing, the
 * other records every request and is scraped every 5 s during its runs (a busier scrape than
 * Prometheus's usual 15 s). They are driven in alternating rounds (off, on, then on, off, …)
 * with new customers, one server at a time, so the machine's drift and noise fall on both alike.
 *
 * The target is judged on the server's CPU time per answered request: on a shared machine other
 * processes take cores away from one run and not the next, which moves throughput by 10–20 %
 * between identical runs, while the CPU a request costs the server moves far less. Each round
 * pairs an "on" run with the "off" run next to it; the cost is the median of the rounds' ratios
 * (a round disturbed by a burst elsewhere weighs no more than one vote). The pooled figures
 * over all rounds, CPU and throughput, are reported next to it.
 */
import fs from "node:fs";
import path from "node:path";
import { freePort } from "./children.js";
import { runTag } from "./order-bodies.js";
import { counter, velvetNewCustomers } from "./order-sources.js";
import { type MeasuredRun, measure } from "./orders.js";
import type { Phase, PhaseContext, PhaseReport } from "./phase.js";
import { startVelvet, type VelvetServer } from "./velvet-process.js";

export const MAX_COST = 0.03;
const ROUNDS = Math.max(1, Number(process.env.BENCH_METRICS_ROUNDS ?? 4));

export const metricsPhase: Phase = {
  name: "metrics",
  title: "Order intake with metrics on vs off",
  budgetSec: (s) => 2 * ROUNDS * (s.warmupSec + s.durationSec) + 120,
  run: runMetricsPhase,
};

async function runMetricsPhase(context: PhaseContext): Promise<PhaseReport> {
  const run = runTag();
  const next = counter();
  const metricsPort = await freePort();
  for (const sub of ["off", "on"]) fs.mkdirSync(path.join(context.dir, sub));
  const off = await startVelvet({
    dir: path.join(context.dir, "off"),
    env: { WORKER_ENABLED: "false" },
  });
  let on: VelvetServer | null = null;
  const runs: MeasuredRun[] = [];
  try {
    on = await startVelvet({
      dir: path.join(context.dir, "on"),
      env: { WORKER_ENABLED: "false", METRICS_PORT: String(metricsPort) },
    });
    const servers = { off, on };
    let scrapes = 0;
    for (let round = 1; round <= ROUNDS; round++) {
      const order: Array<"off" | "on"> = round % 2 === 1 ? ["off", "on"] : ["on", "off"];
      for (const which of order) {
        const server = servers[which];
        const headers = { authorization: `Bearer ${server.apiKey}` };
        const scraper =
          which === "on"
            ? setInterval(() => {
                fetch(`http://127.0.0.1:${metricsPort}/metrics`).then(
                  (res) => res.text().then(() => scrapes++),
                  () => {},
                );
              }, 5000)
            : null;
        try {
          const source = velvetNewCustomers(run, next);
          const pid = server.child.process.pid;
          runs.push(await measure(context, `${which}-${round}`, server.url, headers, pid, source));
        } finally {
          if (scraper) clearInterval(scraper);
        }
      }
    }
    const scraped = await fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((r) => r.text());
    return report(runs, scrapes, scraped);
  } finally {
    await off.stop();
    await on?.stop();
  }
}

function report(runs: MeasuredRun[], scrapes: number, scraped: string): PhaseReport {
  const sum = (which: string) => {
    const mine = runs.filter((r) => r.name.startsWith(`${which}-`));
    const responses = mine.reduce((s, r) => s + r.responses, 0);
    const seconds = mine.reduce((s, r) => s + r.durationSec, 0);
    const p99 = mine.map((r) => r.p99Ms).sort((a, b) => a - b);
    const cpuSeconds = mine.reduce(
      (s, r) => s + (r.cpu.serverCores ?? Number.NaN) * r.durationSec,
      0,
    );
    return {
      rps: responses / seconds,
      medianP99: p99[Math.floor(p99.length / 2)] ?? 0,
      cpuUsPerRequest: (cpuSeconds / responses) * 1e6,
    };
  };
  const off = sum("off");
  const on = sum("on");
  const pooledCost = on.cpuUsPerRequest / off.cpuUsPerRequest - 1;
  const usPerRequest = (r: MeasuredRun | undefined) =>
    r === undefined ? Number.NaN : ((r.cpu.serverCores ?? Number.NaN) * 1e6) / r.requestsPerSec;
  const ratios = [...new Set(runs.map((r) => r.name.split("-")[1]))]
    .map((round) => {
      const of = (which: string) => runs.find((r) => r.name === `${which}-${round}`);
      return usPerRequest(of("on")) / usPerRequest(of("off")) - 1;
    })
    .sort((a, b) => a - b);
  const mid = Math.floor(ratios.length / 2);
  const cost =
    ratios.length % 2 === 1
      ? (ratios[mid] as number)
      : ((ratios[mid - 1] as number) + (ratios[mid] as number)) / 2;
  const throughputCost = 1 - on.rps / off.rps;
  const recorded =
    /velvet_http_request_duration_seconds_count\{[^}]*route="\/api\/v1\/orders"[^}]*\} (\d+)/.exec(
      scraped,
    );
  const table = [
    "| Round | Metrics | Requests/s | p50 (ms) | p99 (ms) | Server CPU per request (µs) | Other processes (cores) |",
    "|---|---|---:|---:|---:|---:|---:|",
    ...runs.map((r) => {
      const [which, round] = r.name.split("-");
      const us = ((r.cpu.serverCores ?? Number.NaN) * 1e6) / r.requestsPerSec;
      return `| ${round} | ${which} | ${r.requestsPerSec.toFixed(0)} | ${r.p50Ms.toFixed(2)} | ${r.p99Ms.toFixed(2)} | ${us.toFixed(0)} | ${(r.cpu.otherCores ?? Number.NaN).toFixed(2)} |`;
    }),
    "",
    `Server CPU per request, median of the rounds' on/off ratios: **cost ${(cost * 100).toFixed(1)} %** (target <= ${MAX_COST * 100} %; rounds from ${((ratios[0] ?? 0) * 100).toFixed(1)} to ${((ratios[ratios.length - 1] ?? 0) * 100).toFixed(1)} %). Pooled over all rounds: off ${off.cpuUsPerRequest.toFixed(1)} µs, on ${on.cpuUsPerRequest.toFixed(1)} µs (${(pooledCost * 100).toFixed(1)} %). Throughput off ${off.rps.toFixed(0)} req/s (median p99 ${off.medianP99.toFixed(2)} ms), on ${on.rps.toFixed(0)} req/s (median p99 ${on.medianP99.toFixed(2)} ms): ${(throughputCost * 100).toFixed(1)} %. ${scrapes} scrapes during the runs.`,
  ].join("\n");
  return {
    table,
    targets: [
      {
        name: `metrics cost order intake <= ${MAX_COST * 100} % (server CPU per request)`,
        pass: cost <= MAX_COST,
        detail: `${(cost * 100).toFixed(1)} % (median of ${ratios.length} rounds; pooled ${(pooledCost * 100).toFixed(1)} %: ${on.cpuUsPerRequest.toFixed(1)} vs ${off.cpuUsPerRequest.toFixed(1)} µs); throughput ${(throughputCost * 100).toFixed(1)} % (${on.rps.toFixed(0)} vs ${off.rps.toFixed(0)} req/s)`,
      },
      {
        name: "every answer 2xx and correct; the metrics counted the requests",
        pass:
          runs.every((r) => r.non2xx === 0 && r.errors === 0 && r.mismatches === 0) &&
          recorded !== null &&
          Number(recorded[1]) > 0,
        detail: `scraped order requests: ${recorded?.[1] ?? "none"}`,
      },
    ],
    raw: { runs, off, on, cost, roundCosts: ratios, pooledCost, throughputCost, scrapes },
  };
}
