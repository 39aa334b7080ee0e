/**
 * The webhooks benchmark's markdown, as pasted into docs/performance.md: the figures per run,
 * then how they were taken.
 */
import { VELVET_SETTINGS } from "./enrichment-settings.js";
import type { BenchSettings } from "./phase.js";
import { REPEAT_EVERY } from "./shopify-deliveries.js";
import type { WebhookRun } from "./webhooks-run.js";

export function webhooksTable(
  runs: WebhookRun[],
  settings: BenchSettings,
  providerDelayMs: string,
): string {
  const f = (n: number, digits = 1) => n.toFixed(digits);
  const cores = (n: number | null) => (n === null ? "n/a" : n.toFixed(2));
  const lag = (s: number | null) => (s === null ? "not within the wait" : `${s.toFixed(1)} s`);
  const statuses = (r: WebhookRun) => {
    const codes = Object.entries(r.load.statusCodes).map(([c, n]) => `${n} × ${c}`);
    if (r.load.errors > 0) codes.push(`${r.load.errors} no answer`);
    return codes.join(", ");
  };
  const lines = [
    "| Database | Deliveries/s | Sent (repeats) | Answers | Repeats answered duplicate | Answer p50 / p99 (ms) | Max, whole stream (ms) | Orders taken / enriched a second, in the window | Last order taken / enriched after the last delivery | `velvet serve` CPU (cores) |",
    "|---|---:|---:|---|---:|---:|---:|---:|---:|---:|",
    ...runs.map(
      (r) =>
        `| ${r.engine} | ${r.ratePerSec} | ${r.load.sent} (${r.tally.repeatsSent}) | ${statuses(r)} | ${r.tally.repeatsAnsweredDuplicate} | ${f(r.load.window.p50Ms, 2)} / ${f(r.load.window.p99Ms, 1)} | ${f(r.load.all.maxMs, 0)} | ${f(r.rates.takenPerSec, 0)} / ${f(r.rates.enrichedPerSec, 0)} | ${lag(r.takenLagSec)} / ${lag(r.enrichedLagSec)} | ${cores(r.cpu.serverCores)} |`,
    ),
  ];
  const cpus = runs[0]?.cpu.machineCores ?? 0;
  lines.push(
    "",
    `How measured. Signed Shopify \`orders/create\` deliveries (the REST order payload, \`X-Shopify-Hmac-Sha256\` over the raw body with the connection's secret, a unique \`X-Shopify-Webhook-Id\`) are posted to \`POST /api/v1/webhooks/shopify/<connection id>\` at a fixed rate, open-loop (delivery *i* leaves at start + *i*/rate whether or not earlier ones were answered), over up to ${settings.connections} keep-alive connections: ${settings.warmupSec} s, then a ${settings.durationSec} s measured window. Each delivery is a new customer with a new order; one in ${REPEAT_EVERY} repeats an earlier answered delivery (same bytes and webhook id) and must be answered \`{"received":"duplicate"}\`. p50 and p99 are the window's answers; the max is the whole stream's. After the stream the database is read until every order is taken (\`store_events.processed_at\`) and every customer enriched (\`enrichments.enriched_at\`); the lags are those times less the moment the last delivery was sent. Then the rows are checked: one stored delivery, order, customer and charge per distinct delivery, all enriched, none failed, the connection still active and untouched.`,
    "",
    `Velvet ran as one \`velvet serve\` process, worker on, with: ${Object.entries(VELVET_SETTINGS)
      .map(([k, v]) => `\`${k}=${v}\``)
      .join(
        ", ",
      )}, \`STORE_TOKEN_KEY\` set, the store connection's sync and webhook check a day apart (both ran once before the stream), the four providers pointed at the fakes, each lookup answered in ${providerDelayMs} ms from a process of their own, no alert channel configured, access log at \`LOG_LEVEL=${process.env.BENCH_LOG_LEVEL ?? "info"}\`. PostgreSQL runs use a fresh database per run on the same machine. The ${cpus} cores are shared by Velvet, the database, the fakes and the load generator.`,
  );
  return lines.join("\n");
}
