/**
 * Caps a process's CPU with a cgroup quota. On the 2-core machine the load generator, PostgreSQL
 * and every node share the same cores, so a second node brings no core of its own; giving each
 * node the same fixed budget stands in for "each node on a machine of its own", the
 * way nodes scale in production. cgroup v2 (`cpu.max`) or v1 (`cpu.cfs_quota_us`); null when
 * neither can be written here (not root, no cpu controller), and the capped runs are skipped.
 */
import fs from "node:fs";
import path from "node:path";

const V2_ROOT = "/sys/fs/cgroup";
const V1_ROOT = "/sys/fs/cgroup/cpu";

export interface CpuCap {
  /** Moves the process back to the root group and removes the group. */
  release(): void;
}

/** `cores` of each `periodMs` (the kernel's default period is 100 ms). */
export function capCpu(name: string, pid: number, cores: number, periodMs = 100): CpuCap | null {
  const periodUs = Math.round(periodMs * 1_000);
  const quota = String(Math.max(1_000, Math.round(cores * periodUs)));
  try {
    if (hasV2CpuController()) {
      fs.appendFileSync(path.join(V2_ROOT, "cgroup.subtree_control"), "+cpu");
      return joinGroup(V2_ROOT, name, pid, { "cpu.max": `${quota} ${periodUs}` });
    }
    if (fs.existsSync(path.join(V1_ROOT, "cpu.cfs_quota_us"))) {
      return joinGroup(V1_ROOT, name, pid, {
        "cpu.cfs_period_us": String(periodUs),
        "cpu.cfs_quota_us": quota,
      });
    }
  } catch {
    // Not root, or the controller is not ours to use: no capped runs on this machine.
  }
  return null;
}

function hasV2CpuController(): boolean {
  try {
    return fs
      .readFileSync(path.join(V2_ROOT, "cgroup.controllers"), "utf8")
      .split(/\s+/)
      .includes("cpu");
  } catch {
    return false;
  }
}

function joinGroup(
  root: string,
  name: string,
  pid: number,
  settings: Record<string, string>,
): CpuCap {
  const dir = path.join(root, name);
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, value] of Object.entries(settings))
    fs.writeFileSync(path.join(dir, file), value);
  fs.writeFileSync(path.join(dir, "cgroup.procs"), String(pid));
  return {
    release() {
      try {
        fs.writeFileSync(path.join(root, "cgroup.procs"), String(pid));
      } catch {
        // The process has ended: the group is empty anyway.
      }
      fs.rmdirSync(dir);
    },
  };
}
