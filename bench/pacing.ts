/**
 * The `pacing` phase: the timing targets the test suite leaves to a quiet machine, measured with
 * the same real servers, processes and fakes as the tests (test/support):
 *
 * - burst: 250 VIPs found within 5 s (time scaled 25×) alerting one healthy Slack webhook, the
 *   fake Slack applying Slack's per-webhook limit (test/fakes/chat-server.ts) — how many messages
 *   it refuses with 429 (alert-pacing.test.ts; target ≤ 5);
 * - across processes: eight chat alerts to one webhook from two `velvet worker` processes on one
 *   database, on SQLite and (when reachable) PostgreSQL — every gap between arrivals at least
 *   950 ms, the first at least 750 ms, none refused (chat-pacing-across-processes.test.ts). The
 *   first gap's allowance: slots are kept at the sending end, and a process's first message
 *   also pays its outbound client's start (a new connection, code loaded on first use) after
 *   its slot, which arrives as a shorter gap before the next message, sent on time;
 * - write lock: requests needing no write, answered while another process holds SQLite's write
 *   lock for 2 s and orders wait for it — p95 under 50 ms, slowest under 250 ms
 *   (order-write-lock.test.ts).
 */
import { chatPacingAcrossProcesses } from "../test/support/chat-pacing-processes.js";
import { type Engine, postgresEngine, sqliteEngine } from "../test/support/databases.js";
import { ordersUnderHeldLock } from "../test/support/orders-under-held-lock.js";
import { startScaledAlertPacing } from "../test/support/scaled-alert-pacing.js";
import { startTestApp } from "../test/support/test-app.js";
import { adoptChild } from "./children.js";
import { percentile } from "./load.js";
import type { Phase, PhaseContext, PhaseReport, Target } from "./phase.js";

export const MAX_REFUSED = 5;
export const MIN_GAP_MS = 950;
export const MIN_FIRST_GAP_MS = 750;
export const MAX_NO_WRITE_P95_MS = 50;
export const MAX_NO_WRITE_MS = 250;
const SCALE = 25;
const VIPS = 250;
const CHAT_ALERTS = 8;

export const pacingPhase: Phase = {
  name: "pacing",
  title: "Alert pacing and the SQLite write lock",
  budgetSec: () => 240,
  run: runPacingPhase,
};

async function runPacingPhase(context: PhaseContext): Promise<PhaseReport> {
  context.log("pacing: 250 alerts to one webhook, time scaled 25×");
  const burst = await alertBurst();
  const engines = [sqliteEngine, postgresEngine].filter((e) => e.available);
  const across = [];
  for (const engine of engines) {
    context.log(`pacing: ${CHAT_ALERTS} chat alerts from two velvet workers on ${engine.name}`);
    across.push({ engine: engine.name, ...(await twoProcesses(engine)) });
  }
  context.log("pacing: requests needing no write while another process holds the write lock");
  const lock = await underWriteLock();

  const ms = (n: number) => `${Math.round(n)} ms`;
  const rows = [
    `| burst: ${VIPS} alerts, one webhook, time ×${SCALE} | refused with 429 | ${burst.refused} (${burst.delivered} of ${VIPS} delivered) | ≤ ${MAX_REFUSED} |`,
    ...across.map(
      (a) =>
        `| two \`velvet worker\`s, ${CHAT_ALERTS} alerts, ${a.engine} | first gap; smallest later gap; span; 429s | ${ms(a.firstGap)}; ${ms(a.minLaterGap)}; ${ms(a.span)}; ${a.rateLimited} | ≥ ${MIN_FIRST_GAP_MS} ms; ≥ ${MIN_GAP_MS} ms; –; 0 |`,
    ),
    `| write lock held 2 s, ${lock.samples} requests needing no write | p95; slowest | ${ms(lock.p95)}; ${ms(lock.max)} | < ${MAX_NO_WRITE_P95_MS} ms; < ${MAX_NO_WRITE_MS} ms |`,
  ];
  const table = ["| case | measure | result | target |", "|---|---|---|---|", ...rows].join("\n");

  const targets: Target[] = [
    {
      name: `burst: at most ${MAX_REFUSED} refused, every alert delivered`,
      pass: burst.refused <= MAX_REFUSED && burst.delivered === VIPS,
      detail: `${burst.refused} refused with 429, ${burst.delivered} of ${VIPS} delivered`,
    },
    ...across.map((a) => ({
      name: `two processes on ${a.engine}: first gap ≥ ${MIN_FIRST_GAP_MS} ms, every later gap ≥ ${MIN_GAP_MS} ms, no 429`,
      pass: a.firstGap >= MIN_FIRST_GAP_MS && a.minLaterGap >= MIN_GAP_MS && a.rateLimited === 0,
      detail: `gaps ${a.gaps.map((g) => Math.round(g)).join(", ")} ms; ${a.rateLimited} refused`,
    })),
    {
      name: `write lock: no-write p95 < ${MAX_NO_WRITE_P95_MS} ms, slowest < ${MAX_NO_WRITE_MS} ms, every order stored`,
      pass: lock.p95 < MAX_NO_WRITE_P95_MS && lock.max < MAX_NO_WRITE_MS && lock.allStored,
      detail: `p95 ${lock.p95.toFixed(1)} ms, slowest ${lock.max.toFixed(1)} ms over ${lock.samples} requests; ${lock.orders} orders, ${lock.allStored ? "all 200 and stored" : "NOT all 200 and stored"}`,
    },
  ];
  return { table, timing: null, targets, raw: { burst, across, lock } };
}

async function alertBurst() {
  const pacing = await startScaledAlertPacing(sqliteEngine, { scale: SCALE, vips: VIPS });
  try {
    await pacing.findInBursts(10, 5000 / SCALE);
    const rows = await pacing.settled(60_000);
    return {
      refused: pacing.chat.rateLimited(),
      delivered: rows.filter((a) => a.status === "delivered").length,
      requests: pacing.chat.requests.length,
    };
  } finally {
    await pacing.close();
  }
}

async function twoProcesses(engine: Engine) {
  const run = await chatPacingAcrossProcesses(engine, CHAT_ALERTS, {
    onSpawn: (velvet) => adoptChild(velvet.child),
  });
  const [firstGap = 0, ...later] = run.gaps;
  return {
    gaps: run.gaps,
    firstGap,
    minLaterGap: Math.min(...later),
    span: (run.at.at(-1) as number) - (run.at[0] as number),
    rateLimited: run.rateLimited,
  };
}

async function underWriteLock() {
  const app = await startTestApp(sqliteEngine);
  try {
    const target = app.database.target;
    if (target.kind !== "sqlite") throw new Error("expected SQLite");
    const account = await app.createAccount();
    const run = await ordersUnderHeldLock(app, account.apiKey, target.file);
    const stored = await app.deps.db.kysely
      .selectFrom("orders")
      .select((eb) => eb.fn.countAll().as("n"))
      .executeTakeFirstOrThrow();
    const sorted = [...run.noWriteLatencies].sort((x, y) => x - y);
    return {
      samples: sorted.length,
      p95: percentile(sorted, 95),
      max: sorted.at(-1) ?? 0,
      orders: run.orders.length,
      allStored:
        run.orders.every((r) => r.status === 200) &&
        run.refusals.every((r) => r.status === 401) &&
        Number(stored.n) === run.orders.length,
      latenciesMs: run.noWriteLatencies.map((l) => Math.round(l * 10) / 10),
    };
  } finally {
    await app.close();
  }
}
