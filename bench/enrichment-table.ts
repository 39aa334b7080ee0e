/**
 * The enrichment benchmark's markdown, as pasted into the README: the figures, then how they
 * were taken and the settings Velvet ran with (an operator needs those to get the same).
 */
import type { EnrichmentRun } from "./enrichment-run.js";
import { SLOW_DELAY, STEADY_AFTER_SEC, VELVET_SETTINGS } from "./enrichment-settings.js";
import type { BenchSettings } from "./phase.js";

const LABELS: Record<EnrichmentRun["name"], string> = {
  idle: "Idle: worker off",
  slow: "Enriching: providers 2–5 s",
  split: "Same, worker in a separate `velvet worker` process (no target)",
  instant: "Enriching: instant providers",
};

export function enrichmentTable(runs: EnrichmentRun[], settings: BenchSettings): string {
  const f = (n: number | undefined, digits = 1) => (n === undefined ? "–" : n.toFixed(digits));
  const cores = (n: number | null) => (n === null ? "n/a" : n.toFixed(2));
  const lines = [
    "| Run | Submissions/s | Order p50 (ms) | Order p99 (ms) | Order max (ms) | Enrichments stored/s | Submission → result p50 / p90 / p99 (ms) | `velvet serve` CPU (cores) | Fakes and others (cores) | Load generator (cores) |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ...runs.map((r) => {
      const t = r.toResult;
      const toResult = t === undefined ? "–" : `${t.p50Ms} / ${t.p90Ms} / ${t.p99Ms}`;
      return `| ${LABELS[r.name]} | ${r.ratePerSec} | ${f(r.load.window.p50Ms, 2)} | ${f(r.load.window.p99Ms, 2)} | ${f(r.load.window.maxMs)} | ${f(r.completions?.perSec)} | ${toResult} | ${cores(r.cpu.serverCores)} | ${cores(r.cpu.otherCores)} | ${cores(r.cpu.loaderCores)} |`;
    }),
  ];
  const slow = runs.find((r) => r.name === "slow");
  const instant = runs.find((r) => r.name === "instant");
  const cpus = runs[0]?.cpu.machineCores ?? 0;
  lines.push(
    "",
    `How measured. New customers (a new e-mail, each with an order) are sent to \`POST /api/v1/orders\` at a fixed rate, open-loop (request *i* leaves at start + *i*/rate whether or not earlier ones were answered), over up to ${settings.connections} keep-alive connections. Each run is one stream: ${slow?.warmupSec ?? STEADY_AFTER_SEC} s of submissions first (instant providers: ${instant?.warmupSec ?? settings.warmupSec} s), then the ${settings.durationSec} s measured window; order latencies are those of the requests sent in the window. Enrichments take 2–5 s, so the stream starts ${STEADY_AFTER_SEC} s or more before the window and completions are counted in it: enrichments whose \`enriched_at\` falls in the window, divided by its length, which is the sustained rate once the pipeline is full. The idle run is the same stream at the same rate against a server with \`WORKER_ENABLED=false\`; in the separate-worker run \`velvet serve\` has \`WORKER_ENABLED=false\` and a \`velvet worker\` process on the same SQLite file does the enrichments (its CPU is under "others"). Submission → result is \`enrichments.enriched_at − customers.created_at\` for the customers submitted in the window. After each run the benchmark waits until nothing is pending and checks the database: one customer, order and charge per submission, every customer enriched, none failed, no job left, four provider matches each.`,
    "",
    `Velvet ran as one \`velvet serve\` process on SQLite with: ${Object.entries(VELVET_SETTINGS)
      .map(([k, v]) => `\`${k}=${v}\``)
      .join(
        ", ",
      )}, the four providers pointed at the fakes (\`PDL_*\`, \`ENRICHLAYER_*\`, \`FULLCONTACT_*\` keys and base URLs, \`GRAVATAR_ENABLED=true\`, \`GRAVATAR_BASE_URL\`), no alert channel configured, access log at \`LOG_LEVEL=${process.env.BENCH_LOG_LEVEL ?? "info"}\`. The fakes (test/fakes/providers, real HTTP, the providers' wire formats) answer every lookup with a match, after ${SLOW_DELAY.replace("-", "–")} ms uniformly random or at once, from a process of their own. The ${cpus} cores are shared by Velvet, the fakes and the load generator.`,
  );
  return lines.join("\n");
}
