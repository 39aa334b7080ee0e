/**
 * Summarises V8 CPU profiles (`--cpu-prof`, e.g. BENCH_NODE_FLAGS="--cpu-prof --cpu-prof-dir=…")
 * as the performance docs report them: shares of the samples in which the process was not idle,
 * each sample counted for the package whose code was running, Node's internals (and native code)
 * for the nearest caller that belongs to a package (Velvet's SQLite driver apart: its self time is
 * SQLite's own work); then the functions with the most self time.
 *
 *   node --import tsx bench/profile-summary.ts <file.cpuprofile | dir> [--top N] [--window a,b]
 *
 * `--window a,b` keeps only the samples between a and b seconds after the profile began (a
 * server's profile spans every run of a phase: pick the one to read).
 *
 * `--stalls MS` keeps only the samples inside stalls: stretches in which the thread never went
 * idle for at least MS milliseconds (every request arriving meanwhile waited for the whole
 * stretch), lists how many there were and how long, and adds, for those samples, the outermost
 * Velvet function on the stack (what the stretch was doing, e.g. a job's handler or the order
 * intake) beside the self-time tables. Profile with a short interval for this
 * (`--cpu-prof-interval 250`).
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
}

const IDLE = new Set(["(idle)", "(program)"]);
const SQLITE_CALLERS =
  /\/db\/(sqlite-(driver|statement-cache|group-commit|connection-handle)|prepared-query)\.[jt]s$/;

/** The package a script belongs to, or null for Node's internals and native code. */
function packageOf(url: string): string | null {
  if (url === "") return null;
  if (url.startsWith("node:")) return null;
  const nm = url.lastIndexOf("/node_modules/");
  if (nm !== -1) {
    const rest = url.slice(nm + "/node_modules/".length).split("/");
    const name = rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : (rest[0] ?? "?");
    return name;
  }
  if (url.includes("/dist/") || url.includes("/src/")) return "velvet";
  return "other script";
}

/**
 * Which samples lie in a stretch of at least `minMs` without an idle sample, and the stretches'
 * lengths (ms). Sample i covers the time up to its timestamp from the previous one.
 */
function stallSamples(profile: Profile, isIdle: (i: number) => boolean, minMs: number) {
  const inStall = new Array<boolean>(profile.samples.length).fill(false);
  const lengths: number[] = [];
  let start = -1;
  let startedAt = 0;
  let t = profile.startTime;
  const close = (end: number, endAt: number) => {
    const ms = (endAt - startedAt) / 1000;
    if (start >= 0 && ms >= minMs) {
      lengths.push(ms);
      for (let j = start; j < end; j++) inStall[j] = true;
    }
    start = -1;
  };
  for (let i = 0; i < profile.samples.length; i++) {
    const previous = t;
    t += profile.timeDeltas[i] ?? 0;
    if (isIdle(i)) close(i, previous);
    else if (start < 0) {
      start = i;
      startedAt = previous;
    }
  }
  close(profile.samples.length, t);
  return { inStall, lengths };
}

export function summarise(
  profile: Profile,
  window: [number, number] | null,
  top: number,
  stallMs: number | null = null,
) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const owner = new Map<number, string>();
  const ownerOf = (id: number): string => {
    const known = owner.get(id);
    if (known !== undefined) return known;
    const node = byId.get(id) as ProfileNode;
    const name = node.callFrame.functionName;
    let result: string;
    if (name === "(garbage collector)") result = "(garbage collection)";
    else {
      const pkg = packageOf(node.callFrame.url);
      if (pkg !== null) result = pkg;
      else {
        const up = parent.get(id);
        result = up === undefined ? "node (no caller)" : ownerOf(up);
        if (result === "(root)") result = "node (no caller)";
      }
    }
    if (name === "(root)") result = "(root)";
    owner.set(id, result);
    return result;
  };

  const isIdle = (i: number) =>
    IDLE.has((byId.get(profile.samples[i] as number) as ProfileNode).callFrame.functionName);
  const stalls = stallMs === null ? null : stallSamples(profile, isIdle, stallMs);
  // The outermost Velvet function on a sample's stack: what the thread was doing, as a whole.
  const entry = new Map<number, string>();
  const entryOf = (id: number): string => {
    const known = entry.get(id);
    if (known !== undefined) return known;
    const up = parent.get(id);
    const above = up === undefined ? "" : entryOf(up);
    const f = (byId.get(id) as ProfileNode).callFrame;
    const mine =
      packageOf(f.url) === "velvet"
        ? `${f.functionName || "(anonymous)"} ${f.url.replace(/^.*\/(dist|src)\//, "")}:${f.lineNumber + 1}`
        : "";
    const result = above !== "" ? above : mine;
    entry.set(id, result);
    return result;
  };
  const entries = new Map<string, number>();
  const packages = new Map<string, number>();
  const functions = new Map<string, number>();
  let busy = 0;
  let idle = 0;
  const perSecond: { busy: number; all: number }[] = [];
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    const at = (t - profile.startTime) / 1e6;
    const index = Math.floor(at);
    const second = perSecond[index] ?? { busy: 0, all: 0 };
    perSecond[index] = second;
    second.all++;
    if (!IDLE.has((byId.get(profile.samples[i] as number) as ProfileNode).callFrame.functionName))
      second.busy++;
    if (window !== null && (at < window[0] || at > window[1])) continue;
    if (stalls !== null && !stalls.inStall[i]) continue;
    const node = byId.get(profile.samples[i] as number) as ProfileNode;
    if (IDLE.has(node.callFrame.functionName)) {
      idle++;
      continue;
    }
    busy++;
    let pkg = ownerOf(node.id);
    // Velvet's SQLite driver spends its own time calling into better-sqlite3 (native calls show
    // as the self time of the function that makes them): SQLite's work, counted apart.
    if (pkg === "velvet" && SQLITE_CALLERS.test(node.callFrame.url)) pkg = "velvet: SQLite calls";
    packages.set(pkg, (packages.get(pkg) ?? 0) + 1);
    const f = node.callFrame;
    const where = f.url === "" ? "(native)" : f.url.replace(/^.*\/(node_modules|dist|src)\//, "");
    const key = `${f.functionName || "(anonymous)"} ${where}:${f.lineNumber + 1}`;
    functions.set(key, (functions.get(key) ?? 0) + 1);
    const what = entryOf(node.id) || `(no Velvet frame: ${pkg})`;
    entries.set(what, (entries.get(what) ?? 0) + 1);
  }
  const pct = (n: number) => `${((100 * n) / Math.max(busy, 1)).toFixed(1)} %`;
  const timeline = [...perSecond]
    .map((s) => (s === undefined || s.all === 0 ? "-" : String(Math.round((100 * s.busy) / s.all))))
    .join(" ");
  const lines = [
    `busy % per second since the profile began: ${timeline}`,
    `busy samples ${busy}, idle ${idle}${window === null ? "" : ` (window ${window.join("–")} s)`}`,
    "",
  ];
  if (stalls !== null) {
    const l = [...stalls.lengths].sort((a, b) => b - a);
    const total = l.reduce((a, b) => a + b, 0);
    lines.push(
      `stalls of ≥ ${stallMs} ms without an idle sample: ${l.length}, ${total.toFixed(0)} ms in all; longest ${l
        .slice(0, 10)
        .map((x) => x.toFixed(1))
        .join(", ")} ms`,
      "",
      "| Outermost Velvet function (inside stalls) | Share |",
      "|---|---:|",
      ...[...entries]
        .sort((a, b) => b[1] - a[1])
        .slice(0, top)
        .map(([name, n]) => `| ${name} | ${pct(n)} |`),
      "",
    );
  }
  lines.push("| Package | Share of busy samples |", "|---|---:|");
  for (const [name, n] of [...packages].sort((a, b) => b[1] - a[1])) {
    lines.push(`| ${name} | ${pct(n)} |`);
  }
  lines.push("", `Top ${top} functions by self time:`, "");
  for (const [name, n] of [...functions].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    lines.push(`${pct(n).padStart(8)}  ${name}`);
  }
  return lines.join("\n");
}

function main() {
  const args = process.argv.slice(2);
  let top = 30;
  let window: [number, number] | null = null;
  let stallMs: number | null = null;
  const paths: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === "--top") top = Number(args[++i]);
    else if (a === "--stalls") stallMs = Number(args[++i]);
    else if (a === "--window") {
      const [from, to] = (args[++i] ?? "").split(",").map(Number);
      window = [from ?? 0, to ?? Number.POSITIVE_INFINITY];
    } else paths.push(a);
  }
  const files = paths.flatMap((p) =>
    statSync(p).isDirectory()
      ? readdirSync(p)
          .filter((f) => f.endsWith(".cpuprofile"))
          .map((f) => join(p, f))
      : [p],
  );
  if (files.length === 0) {
    console.error(
      "usage: profile-summary.ts <file.cpuprofile | dir> [--top N] [--window a,b] [--stalls MS]",
    );
    process.exit(2);
  }
  for (const file of files) {
    const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
    console.log(`## ${file}\n`);
    console.log(summarise(profile, window, top, stallMs));
    console.log("");
  }
}

main();
