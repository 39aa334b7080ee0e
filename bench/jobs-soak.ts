/**
 * The jobs table under a steady stream of jobs, on PostgreSQL: does it stay lean?
 *
 * Every job is an insert, an update (the claim) and a delete (done): two dead row versions per
 * job, which only vacuum turns back into free space. This phase pushes BENCH_SOAK_RATE jobs a
 * second (300) through an in-process worker for BENCH_SOAK_SEC seconds (240; autovacuum visits
 * a database once per autovacuum_naptime, 60 s by default, so a few minutes show several
 * visits), spread over 20 accounts, and samples every 10 s: pg_total_relation_size('jobs')
 * (table, indexes and TOAST), its live and dead tuples, and autovacuum runs so far. Flat means
 * the last third's largest size is within 2× the first third's largest: dead rows are reclaimed
 * and their space reused, not added to.
 *
 * A server with autovacuum off (test and bench servers often are: this machine's CI cluster
 * sets it off) would show nothing: the phase turns it on for its run (ALTER SYSTEM and a reload,
 * undone at the end), so what it measures is PostgreSQL's own daemon applying migration 0029's
 * settings. Only when it may not (not a superuser) does it stand in for the daemon, applying the
 * table's own rule (more than autovacuum_vacuum_threshold dead rows) at each sample, and say so.
 */
import pg from "pg";
import { pino } from "pino";
import { z } from "zod";
import { loadConfig } from "../src/config.js";
import { enqueueJob } from "../src/jobs/enqueue-job.js";
import type { TaskDefinition } from "../src/jobs/task.js";
import { createWorker } from "../src/jobs/worker.js";
import { buildDeps, closeDeps } from "../src/main.js";
import { createDatabase } from "./orders-postgres.js";
import type { Phase, PhaseReport } from "./phase.js";

const SOAK_SEC = Number(process.env.BENCH_SOAK_SEC ?? 240);
const RATE = Number(process.env.BENCH_SOAK_RATE ?? 300);
const SAMPLE_MS = 10_000;
const TICK_MS = 100;
const ACCOUNTS = 20;

interface Sample {
  atSec: number;
  totalBytes: number;
  liveTuples: number;
  deadTuples: number;
  autovacuums: number;
  /** VACUUMs the phase ran itself (the server's autovacuum is off). */
  standIns: number;
  done: number;
}

/** migration 0029's autovacuum_vacuum_threshold (scale factor 0). */
const VACUUM_THRESHOLD = 5000;

const SOAK_TASK = "soak-noop";

export const jobsSoakPhase: Phase = {
  name: "jobs-soak",
  title: "The jobs table under a steady stream of jobs (PostgreSQL)",
  budgetSec: () => SOAK_SEC + 60,
  async run({ log }): Promise<PhaseReport> {
    const database = await createDatabase();
    const config = {
      ...loadConfig({ LOG_LEVEL: "silent", DATABASE_URL: database.url }),
    };
    const deps = await buildDeps({ config, log: pino({ level: "silent" }) });
    let done = 0;
    const noop: TaskDefinition = {
      task: SOAK_TASK,
      payload: z.unknown(),
      handle: async () => {
        done += 1;
        return { kind: "done" };
      },
    };
    const worker = createWorker(deps, [noop]);
    const stats = new pg.Client({ connectionString: database.url });
    await stats.connect();
    const samples: Sample[] = [];
    const started = performance.now();
    let enqueued = 0;
    let standIns = 0;
    const showAutovacuum = async () =>
      (await stats.query<{ autovacuum: string }>("show autovacuum")).rows[0]?.autovacuum === "on";
    const turnedOn = (await showAutovacuum()) ? false : await turnAutovacuumOn(stats);
    const autovacuumOn = await showAutovacuum();
    if (turnedOn) log("jobs-soak: the server's autovacuum was off; turned on for this phase");
    if (!autovacuumOn) log("jobs-soak: the server's autovacuum is off; the phase stands in for it");
    try {
      worker.start();
      const sample = async () => {
        const { rows } = await stats.query<{
          total: string;
          live: string;
          dead: string;
          av: string;
        }>(`select pg_total_relation_size('jobs') as total, n_live_tup as live,
              n_dead_tup as dead, autovacuum_count as av
            from pg_stat_user_tables where relname = 'jobs'`);
        const r = rows[0];
        const s: Sample = {
          atSec: Math.round((performance.now() - started) / 1000),
          totalBytes: Number(r?.total ?? 0),
          liveTuples: Number(r?.live ?? 0),
          deadTuples: Number(r?.dead ?? 0),
          autovacuums: Number(r?.av ?? 0),
          standIns,
          done,
        };
        samples.push(s);
        if (!autovacuumOn && s.deadTuples > VACUUM_THRESHOLD) {
          await stats.query("vacuum jobs");
          standIns += 1;
        }
        log(
          `jobs-soak ${s.atSec}s: ${(s.totalBytes / 1024).toFixed(0)} KiB, live ${s.liveTuples}, dead ${s.deadTuples}, autovacuums ${s.autovacuums}, stand-in vacuums ${s.standIns}, done ${s.done}`,
        );
      };
      await sample();
      let nextSampleAt = started + SAMPLE_MS;
      const perTick = Math.max(1, Math.round((RATE * TICK_MS) / 1000));
      while (performance.now() - started < SOAK_SEC * 1000) {
        const tickStart = performance.now();
        await deps.db.kysely.transaction().execute(async (trx) => {
          for (let i = 0; i < perTick; i++, enqueued++) {
            const spec = { task: SOAK_TASK, payload: {}, queueKey: `acct-${enqueued % ACCOUNTS}` };
            await enqueueJob(trx, spec, Date.now());
          }
        });
        deps.jobs.notify();
        if (performance.now() >= nextSampleAt) {
          await sample();
          nextSampleAt += SAMPLE_MS;
        }
        const rest = TICK_MS - (performance.now() - tickStart);
        if (rest > 0) await new Promise((r) => setTimeout(r, rest));
      }
      await sample();
    } finally {
      await worker.stop();
      if (turnedOn) {
        await stats.query("alter system reset autovacuum");
        await stats.query("select pg_reload_conf()");
      }
      await stats.end();
      await closeDeps(deps);
      await database.drop();
    }
    const third = Math.max(1, Math.floor(samples.length / 3));
    const firstMax = Math.max(...samples.slice(1, third + 1).map((s) => s.totalBytes));
    const lastMax = Math.max(...samples.slice(-third).map((s) => s.totalBytes));
    const flat = lastMax <= 2 * firstMax;
    const table = [
      "| at (s) | jobs size (KiB) | live | dead | autovacuums | stand-in vacuums | jobs done |",
      "|---:|---:|---:|---:|---:|---:|---:|",
      ...samples.map(
        (s) =>
          `| ${s.atSec} | ${(s.totalBytes / 1024).toFixed(0)} | ${s.liveTuples} | ${s.deadTuples} | ${s.autovacuums} | ${s.standIns} | ${s.done} |`,
      ),
    ].join("\n");
    return {
      table: `${RATE} jobs/s offered for ${SOAK_SEC} s (${enqueued} enqueued, ${done} done)${
        autovacuumOn
          ? ""
          : "; the server's autovacuum is off, so the phase ran VACUUM by the table's rule at each sample"
      }.\n\n${table}`,
      targets: [
        {
          name: "the jobs table stays flat",
          pass: flat,
          detail: `largest size in the first third ${(firstMax / 1024).toFixed(0)} KiB, in the last third ${(lastMax / 1024).toFixed(0)} KiB`,
        },
      ],
      raw: { rate: RATE, soakSec: SOAK_SEC, autovacuumOn, enqueued, done, samples },
    };
  },
};

/**
 * Turns the server's autovacuum on (postgresql.auto.conf, read after the other files) and waits
 * for the reload to take; false when this user may not (ALTER SYSTEM needs a superuser).
 */
async function turnAutovacuumOn(client: pg.Client): Promise<boolean> {
  try {
    await client.query("alter system set autovacuum = on");
    await client.query("select pg_reload_conf()");
  } catch {
    return false;
  }
  for (let i = 0; i < 50; i++) {
    const { rows } = await client.query<{ autovacuum: string }>("show autovacuum");
    if (rows[0]?.autovacuum === "on") return true;
    await new Promise((r) => setTimeout(r, 100));
  }
  return true;
}
