/**
 * Backfill from a file (issue 12): a generated Shopify export of 100,000 rows imported with the
 * real `velvet import orders … --yes --json` (dist/, a process of its own) into a fresh SQLite
 * file; its resident memory is sampled every 50 ms from /proc. The same for 20,000 and 300,000
 * rows, to show that memory does not grow with the file; then the 100,000-row file again, which
 * must import nothing (and shows how fast a resumed run passes what is already there).
 *
 * Targets: ≥ 5,000 rows/s (rows / the import's own time, as its last progress line gives it:
 * process start-up and migrations are not counted; the whole process's time is reported too),
 * and peak RSS at 300,000 rows within 32 MB of the peak at 100,000. Why not 20,000 against
 * 100,000: RSS is a sawtooth (the garbage of finished batches builds up in V8's old space until
 * a full collection, then falls back), and a 20,000-row run ends before its first full
 * collection, so it shows the bottom of the saw where a long run shows its top. A leak of
 * 160 bytes per row would put the 300,000-row peak 32 MB above the 100,000-row one.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { writeShopifyExport } from "../test/support/shopify-export.js";
import { startChild } from "./children.js";
import type { Phase, PhaseReport } from "./phase.js";

export const IMPORT_ROWS_PER_SECOND = 5_000;
const RSS_GROWTH_LIMIT_MB = 32;
const BIN = path.resolve("bin", "velvet.js");

interface ImportRun {
  label: string;
  rows: number;
  orders: number;
  newCustomers: number;
  skipped: number;
  errors: number;
  processSeconds: number;
  importSeconds: number;
  rowsPerSecond: number;
  peakRssMb: number;
  rssSamplesMb: number[];
}

function rssMb(pid: number): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
    return kb === undefined ? null : Number(kb) / 1024;
  } catch {
    return null;
  }
}

function createAccount(env: NodeJS.ProcessEnv): string {
  const out = execFileSync(
    process.execPath,
    [BIN, "account", "create", "--name", "Bench", "--owner", "bench@example.com", "--json"],
    { env, encoding: "utf8" },
  );
  return (JSON.parse(out) as { accountId: string }).accountId;
}

async function runImport(
  label: string,
  file: string,
  accountId: string,
  env: NodeJS.ProcessEnv,
  dir: string,
): Promise<ImportRun> {
  const logFile = path.join(dir, `${label}.log`);
  const started = performance.now();
  const child = startChild(
    process.execPath,
    [BIN, "import", "orders", file, "--account", accountId, "--yes", "--json"],
    { env, logFile },
  );
  const samples: number[] = [];
  const pid = child.process.pid ?? 0;
  const sampler = setInterval(() => {
    const mb = rssMb(pid);
    if (mb !== null) samples.push(mb);
  }, 50);
  const code = await new Promise<number | null>((resolve) => child.process.once("exit", resolve));
  clearInterval(sampler);
  const processSeconds = (performance.now() - started) / 1000;
  const lines = fs.readFileSync(logFile, "utf8").trim().split("\n");
  if (code !== 0) throw new Error(`import ${label} exited ${code}: ${lines.slice(-5).join("\n")}`);
  const parsed = lines.flatMap((l) => {
    try {
      return [JSON.parse(l) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
  const summary = parsed.find((o) => "rows" in o && !("progress" in o)) as unknown as ImportRun;
  const progress = parsed.flatMap((o) =>
    "progress" in o ? [o.progress as { rows: number; rowsPerSecond: number }] : [],
  );
  const last = progress.at(-1);
  const importSeconds =
    last && last.rowsPerSecond > 0 ? last.rows / last.rowsPerSecond : processSeconds;
  return {
    label,
    rows: summary.rows,
    orders: summary.orders,
    newCustomers: summary.newCustomers,
    skipped: summary.skipped,
    errors: summary.errors,
    processSeconds,
    importSeconds,
    rowsPerSecond: summary.rows / importSeconds,
    peakRssMb: Math.max(...samples),
    rssSamplesMb: samples,
  };
}

export const importPhase: Phase = {
  name: "import",
  title: "Backfill from a Shopify export (SQLite)",
  budgetSec: () => 900,
  async run({ dir, log }): Promise<PhaseReport> {
    const runs: ImportRun[] = [];
    for (const rows of [20_000, 100_000, 300_000]) {
      const file = path.join(dir, `shopify-${rows}.csv`);
      const made = await writeShopifyExport(file, rows);
      log(
        `generated ${made.rows} rows (${made.orders} orders), ${(fs.statSync(file).size / 1e6).toFixed(1)} MB`,
      );
      const env = {
        ...process.env,
        DATABASE_URL: path.join(dir, `velvet-${rows}.db`),
        LOG_LEVEL: "warn",
      };
      const accountId = createAccount(env);
      const first = await runImport(`${rows}`, file, accountId, env, dir);
      log(
        `${first.label}: ${Math.round(first.rowsPerSecond)} rows/s, peak RSS ${first.peakRssMb.toFixed(1)} MB`,
      );
      runs.push(first);
      if (rows === 100_000) {
        const again = await runImport(`${rows}-again`, file, accountId, env, dir);
        log(`${again.label}: ${Math.round(again.rowsPerSecond)} rows/s, skipped ${again.skipped}`);
        runs.push(again);
      }
      fs.rmSync(file);
    }
    const [, big, again, huge] = runs as [ImportRun, ImportRun, ImportRun, ImportRun];
    const growth = huge.peakRssMb - big.peakRssMb;
    const table = [
      "| Run | Rows | Orders | New customers | Skipped | Import (s) | Process (s) | Rows/s | Peak RSS (MB) |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
      ...runs.map(
        (r) =>
          `| ${r.label === "100000-again" ? "100,000 again (nothing new)" : `${Number(r.label).toLocaleString("en-US")} rows`} | ${r.rows.toLocaleString("en-US")} | ${r.orders.toLocaleString("en-US")} | ${r.newCustomers.toLocaleString("en-US")} | ${r.skipped.toLocaleString("en-US")} | ${r.importSeconds.toFixed(1)} | ${r.processSeconds.toFixed(1)} | ${Math.round(r.rowsPerSecond).toLocaleString("en-US")} | ${r.peakRssMb.toFixed(1)} |`,
      ),
    ].join("\n");
    return {
      table,
      targets: [
        {
          name: `≥ ${IMPORT_ROWS_PER_SECOND.toLocaleString("en-US")} rows/s on SQLite (100,000 rows)`,
          pass: big.rowsPerSecond >= IMPORT_ROWS_PER_SECOND,
          detail: `${Math.round(big.rowsPerSecond).toLocaleString("en-US")} rows/s`,
        },
        {
          name: `resident memory flat (peak at 300,000 rows within ${RSS_GROWTH_LIMIT_MB} MB of 100,000)`,
          pass: growth <= RSS_GROWTH_LIMIT_MB,
          detail: `${big.peakRssMb.toFixed(1)} → ${huge.peakRssMb.toFixed(1)} MB (${growth >= 0 ? "+" : ""}${growth.toFixed(1)} MB)`,
        },
        {
          name: "a second run imports nothing",
          pass: again.newCustomers === 0 && again.skipped === again.orders && again.errors === 0,
          detail: `${again.skipped.toLocaleString("en-US")} of ${again.orders.toLocaleString("en-US")} orders skipped`,
        },
      ],
      raw: runs.map(({ rssSamplesMb, ...r }) => ({
        ...r,
        rssSamplesMb: rssSamplesMb.filter((_, i) => i % 10 === 0),
      })),
    };
  },
};
