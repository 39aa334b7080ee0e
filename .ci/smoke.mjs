// A newcomer's first minutes on one Node.js, run against an installed and built checkout:
// `npm start`, the README's sign-up and order (Jane, 75, a VIP), then 2,000 new customers in a
// burst and 30 s of enrichment work, then SIGTERM: the server must exit 0 with no native abort
// in its output. Plain JavaScript with no dependencies, so it runs on the Node under test.
//
//   node .ci/smoke.mjs            (from the checkout; `node` and `npm` on PATH are the ones tried)
//
// SMOKE_BURST (default 2000) and SMOKE_WORK_SECONDS (default 30) shorten it for a quick look.
import { spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BURST = Number(process.env.SMOKE_BURST ?? 2000);
const WORK_SECONDS = Number(process.env.SMOKE_WORK_SECONDS ?? 30);
const CONCURRENCY = 50;
/** What Node, V8 or a native addon print when they abort or crash instead of exiting. */
const NATIVE_FAILURE =
  /Assertion failed|FATAL ERROR|Segmentation fault|Aborted|node::|v8::|\bSIG(SEGV|ABRT|BUS)\b|core dumped/;

const started = Date.now();
const say = (message) =>
  process.stdout.write(`smoke [${((Date.now() - started) / 1000).toFixed(1)} s] ${message}\n`);
const fail = (message) => {
  process.stderr.write(`smoke FAILED on Node.js ${process.versions.node}: ${message}\n`);
  process.exit(1);
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "velvet-smoke-"));
const env = {
  ...process.env,
  DATABASE_URL: path.join(dir, "velvet.db"),
  PORT: "0",
  HOST: "127.0.0.1",
  LOG_LEVEL: "warn",
};

function velvet(args) {
  const run = spawnSync(process.execPath, ["bin/velvet.js", ...args], {
    cwd: ROOT,
    env,
    encoding: "utf8",
    timeout: 60_000,
  });
  if (run.status !== 0) fail(`velvet ${args[0]} exited ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

async function waitFor(what, check, timeoutMs) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  fail(`timed out waiting for ${what}`);
}

say(`Node.js ${process.versions.node}, npm start in ${ROOT}`);
const server = spawn("npm", ["start", "--silent"], {
  cwd: ROOT,
  env,
  stdio: ["ignore", "pipe", "pipe"],
});
let output = "";
server.stdout.on("data", (chunk) => {
  output += chunk;
});
server.stderr.on("data", (chunk) => {
  output += chunk;
});
const exited = new Promise((resolve) =>
  server.on("close", (code, signal) => resolve({ code, signal })),
);
let running = true;
exited.then(() => {
  running = false;
});

await waitFor("Velvet is running", () => output.includes("Velvet is running") || !running, 60_000);
if (!running) fail(`npm start ended before serving:\n${output}`);
const url = /open (http:\/\/127\.0\.0\.1:\d+)\//.exec(output)?.[1];
if (!url) fail(`no address in the start line:\n${output}`);
say(`serving at ${url}`);

const owner = velvet([
  "account",
  "create",
  "--name",
  "Acme Store",
  "--owner",
  "you@acme.com",
  "--password",
  randomBytes(18).toString("base64"),
  "--json",
]);

const post = (body) =>
  fetch(`${url}/api/v1/orders`, {
    method: "POST",
    headers: { authorization: `Bearer ${owner.apiKey}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });

const jane = await post({
  email: "jane@acme.com",
  firstName: "Jane",
  lastName: "Doe",
  address: { city: "Atherton", state: "CA", zipcode: "94027", country: "US" },
  order: { id: "1001", number: "#1001", total: "2950.00", currency: "USD" },
});
if (jane.status !== 200) fail(`the README's order answered ${jane.status}: ${await jane.text()}`);
let report;
await waitFor(
  "Jane's enrichment",
  () => {
    report = velvet([
      "customer",
      "show",
      "--account",
      owner.accountId,
      "--email",
      "jane@acme.com",
      "--json",
    ]);
    return report.enrichment?.status === "enriched";
  },
  30_000,
);
if (report.enrichment.score !== 75 || report.enrichment.vip !== true) {
  fail(`Jane scored ${report.enrichment.score} (vip: ${report.enrichment.vip}), not 75 and a VIP`);
}
say("the README's order: enriched, 75, a VIP");

let next = 0;
const statuses = new Map();
async function sender() {
  while (next < BURST) {
    const n = next++;
    const res = await post({
      email: `smoke-${n}-${randomBytes(3).toString("hex")}@example.com`,
      firstName: "Burst",
      lastName: `Customer ${n}`,
      address: { city: "Austin", state: "TX", zipcode: "78701", country: "US" },
      order: { id: `smoke-${n}`, number: `#${n}`, total: `${50 + (n % 900)}.00`, currency: "USD" },
    });
    await res.arrayBuffer();
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  }
}
await Promise.all(Array.from({ length: CONCURRENCY }, sender));
if (statuses.get(200) !== BURST) fail(`the burst's answers: ${JSON.stringify([...statuses])}`);
say(`${BURST} new customers in a burst: every one answered 200`);

await new Promise((resolve) => setTimeout(resolve, WORK_SECONDS * 1000));
if (!running) fail(`the server ended during the work:\n${output.slice(-4000)}`);
const usage = velvet(["usage", "--account", owner.accountId, "--json"]);
say(`after ${WORK_SECONDS} s of work: ${JSON.stringify(usage).slice(0, 200)}`);

server.kill("SIGTERM");
const exit = await exited;
if (NATIVE_FAILURE.test(output)) fail(`native failure in the output:\n${output.slice(-4000)}`);
if (exit.code !== 0)
  fail(`npm start exited ${JSON.stringify(exit)} on SIGTERM:\n${output.slice(-4000)}`);
fs.rmSync(dir, { recursive: true, force: true });
say(`SIGTERM: exit 0, no native abort. Smoke run passed on Node.js ${process.versions.node}`);
