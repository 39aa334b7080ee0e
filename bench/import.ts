/**
 * Backfill from a file: a generated Shopify export of 100,000 rows imported with the
 * real `velvet import orders … --yes --json` (dist/, a process of its own) into a fresh SQLite
 * file; its resident memory is sampled every 50 ms from /proc. The same for 20,000 and 300,000
 * rows, to show that memory does not grow with the file; then the 100,000-row file again, which
 * must import nothing (and shows how fast a resumed run passes what is already there).
 *
 * Last, the next 100,000 rows of the same store imported into a database that already holds
 * 1,000,000 rows' worth (importOnMillion below).
 *
 * Targets: ≥ 5,000 rows/s (rows / the import's own time, as its last progress line gives it:
 * process start-up and migrations are not counted; the whole process's time is reported too),
 * for 100,000 rows into an empty database and into one with a million rows stored; and memory
 * flat. RSS is a sawtooth (the garbage of finished batches builds up in V8's old space until a
 * full collection, then falls back), and a short run ends on the rising edge of its first
 * teeth, so peaks are compared where the saw is steady: within the 300,000-row run, the peak of
 * its last third against its middle third (100,000 rows apart: a leak of 320 bytes a row would
 * show as 32 MB), and the run on a large database against the 300,000-row run.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import SQLite from "better-sqlite3";
import { writeShopifyExport } from "../test/support/shopify-export.js";
import { startChild } from "./children.js";
import type { Phase, PhaseReport } from "./phase.js";

export const IMPORT_ROWS_PER_SECOND = 5_000;
/** The stored history the last run imports on top of: ten 100,000-row exports' worth. */
const STORED_COPIES = 10;
const COPY_ROWS = 100_000;
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
    runs.push(await importOnMillion(dir, log));
    const [, big, again, huge, onMillion] = runs as [
      ImportRun,
      ImportRun,
      ImportRun,
      ImportRun,
      ImportRun,
    ];
    // The 300,000-row run's peaks in its middle and last thirds (100,000 rows apart, both past
    // the first collections), and the run on a large database against the 300,000-row run.
    const thirds = thirdPeaks(huge.rssSamplesMb);
    const growth = thirds.last - thirds.middle;
    const millionGrowth = onMillion.peakRssMb - huge.peakRssMb;
    const table = [
      "| Run | Rows | Orders | New customers | Skipped | Import (s) | Process (s) | Rows/s | Peak RSS (MB) |",
      "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
      ...runs.map(
        (r) =>
          `| ${LABELS[r.label] ?? `${Number(r.label).toLocaleString("en-US")} rows`} | ${r.rows.toLocaleString("en-US")} | ${r.orders.toLocaleString("en-US")} | ${r.newCustomers.toLocaleString("en-US")} | ${r.skipped.toLocaleString("en-US")} | ${r.importSeconds.toFixed(1)} | ${r.processSeconds.toFixed(1)} | ${Math.round(r.rowsPerSecond).toLocaleString("en-US")} | ${r.peakRssMb.toFixed(1)} |`,
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
          name: `resident memory flat (300,000 rows: peak of the last third within ${RSS_GROWTH_LIMIT_MB} MB of the middle third's)`,
          pass: growth <= RSS_GROWTH_LIMIT_MB,
          detail: `${thirds.middle.toFixed(1)} → ${thirds.last.toFixed(1)} MB (${growth >= 0 ? "+" : ""}${growth.toFixed(1)} MB)`,
        },
        {
          name: `≥ ${IMPORT_ROWS_PER_SECOND.toLocaleString("en-US")} rows/s with ${(STORED_COPIES * COPY_ROWS).toLocaleString("en-US")} rows already stored`,
          pass: onMillion.rowsPerSecond >= IMPORT_ROWS_PER_SECOND,
          detail: `${Math.round(onMillion.rowsPerSecond).toLocaleString("en-US")} rows/s`,
        },
        {
          name: `resident memory flat on a large database (peak within ${RSS_GROWTH_LIMIT_MB} MB of the 300,000-row run's)`,
          pass: millionGrowth <= RSS_GROWTH_LIMIT_MB,
          detail: `${huge.peakRssMb.toFixed(1)} → ${onMillion.peakRssMb.toFixed(1)} MB (${millionGrowth >= 0 ? "+" : ""}${millionGrowth.toFixed(1)} MB)`,
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

function thirdPeaks(samples: number[]): { middle: number; last: number } {
  const third = Math.floor(samples.length / 3);
  const peak = (part: number[]) => (part.length === 0 ? 0 : Math.max(...part));
  return {
    middle: peak(samples.slice(third, 2 * third)),
    last: peak(samples.slice(2 * third)),
  };
}

const LABELS: Record<string, string> = {
  "100000-again": "100,000 again (nothing new)",
  "on-million": `100,000 new rows, ${(STORED_COPIES * COPY_ROWS).toLocaleString("en-US")} already stored`,
};

/**
 * A store with a long history: one 100,000-row export imported by the command, copied nine more
 * times in SQL as other customers and orders of the same store (their e-mails and order ids
 * numbered on, so they interleave with the next file's in every index), then the next 100,000
 * rows imported by the command and measured.
 */
async function importOnMillion(dir: string, log: (m: string) => void): Promise<ImportRun> {
  const file = path.join(dir, "shopify-history.csv");
  const made = await writeShopifyExport(file, COPY_ROWS);
  const env = {
    ...process.env,
    DATABASE_URL: path.join(dir, "velvet-million.db"),
    LOG_LEVEL: "warn",
  };
  const accountId = createAccount(env);
  await runImport("history", file, accountId, env, dir);
  const customers = copyHistory(env.DATABASE_URL, made.orders);
  log(
    `stored ${STORED_COPIES} × ${COPY_ROWS.toLocaleString("en-US")} rows' worth: ${customers.toLocaleString("en-US")} customers`,
  );
  await writeShopifyExport(file, COPY_ROWS, {
    customer: STORED_COPIES * customerSpan(made.orders),
    order: STORED_COPIES * made.orders,
  });
  const run = await runImport("on-million", file, accountId, env, dir);
  log(
    `on-million: ${Math.round(run.rowsPerSecond)} rows/s, peak RSS ${run.peakRssMb.toFixed(1)} MB`,
  );
  fs.rmSync(file);
  return run;
}

/** Customers numbered per export: at most one new customer per order. */
function customerSpan(orders: number): number {
  return orders;
}

function copyHistory(file: string, orders: number): number {
  const db = new SQLite(file);
  try {
    db.pragma("journal_mode = WAL");
    const span = customerSpan(orders);
    const columns = (table: string) =>
      (db.pragma(`table_info(${table})`) as Array<{ name: string }>).map((c) => c.name);
    // The copy's customer N + k × span: "customer12@example.com" → "customer(12 + k·span)@…".
    const renumber = (column: string) =>
      `'customer' || (cast(substr(${column}, 9, instr(${column}, '@') - 9) as integer) + :k * ${span}) || substr(${column}, instr(${column}, '@'))`;
    const copy = (table: string, overrides: Record<string, string>) => {
      const names = columns(table);
      const select = names.map((c) => overrides[c] ?? c).join(", ");
      return db.prepare(
        `insert into ${table} (${names.join(", ")}) select ${select} from ${table} where id not like '%-k%'`,
      );
    };
    const statements = [
      copy("customers", {
        id: "id || '-k' || :k",
        email: renumber("email"),
        email_normalized: renumber("email_normalized"),
      }),
      copy("orders", {
        id: "id || '-k' || :k",
        customer_id: "customer_id || '-k' || :k",
        external_order_id: `cast(external_order_id as integer) + :k * ${orders}`,
      }),
      copy("usage_charges", {
        id: "id || '-k' || :k",
        customer_id: "customer_id || '-k' || :k",
      }),
      copy("jobs", {
        id: "id || '-k' || :k",
        job_key: "job_key || '-k' || :k",
        // enrich-customer:<customer id> → the copy's customer id in the key and the payload.
        payload: `case when job_key like 'enrich-customer:%' then replace(payload, substr(job_key, 17), substr(job_key, 17) || '-k' || :k) else payload end`,
      }),
    ];
    db.transaction(() => {
      for (let k = 1; k < STORED_COPIES; k++) for (const s of statements) s.run({ k });
    })();
    return (db.prepare("select count(*) as n from customers").get() as { n: number }).n;
  } finally {
    db.close();
  }
}
