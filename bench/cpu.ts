/**
 * CPU accounting around a load run, from /proc (Linux; elsewhere every figure is null): how
 * busy the server process was, how busy the load generator (this process) was, and how busy the
 * whole machine was. Machine minus server minus loader is what *other* processes used, which
 * says whether the figures were taken on a quiet machine.
 */
import fs from "node:fs";
import os from "node:os";

const TICKS_PER_SEC = 100; // USER_HZ on Linux

interface Snapshot {
  at: number;
  server: number | null;
  loader: number;
  machineBusy: number | null;
}

export interface CpuUsage {
  /** In cores: 1.0 = one core fully busy for the whole run. */
  serverCores: number | null;
  loaderCores: number;
  otherCores: number | null;
  machineCores: number;
}

function processSeconds(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the ")" that ends the command name; utime and stime are fields 14 and 15.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SEC;
  } catch {
    return null;
  }
}

function machineBusySeconds(): number | null {
  try {
    const cpu = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]?.trim().split(/\s+/) ?? [];
    const [user, nice, system, , , irq, softirq, steal] = cpu.slice(1).map(Number);
    return (
      ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0) + (steal ?? 0)) /
      TICKS_PER_SEC
    );
  } catch {
    return null;
  }
}

function snapshot(serverPid: number | undefined): Snapshot {
  const usage = process.cpuUsage();
  return {
    at: performance.now(),
    server: serverPid === undefined ? null : processSeconds(serverPid),
    loader: (usage.user + usage.system) / 1e6,
    machineBusy: machineBusySeconds(),
  };
}

/** Runs `fn` and reports the CPU each party used while it ran. */
export async function measureCpu<T>(
  serverPid: number | undefined,
  fn: () => Promise<T>,
): Promise<{ value: T; cpu: CpuUsage }> {
  const before = snapshot(serverPid);
  const value = await fn();
  const after = snapshot(serverPid);
  const wall = (after.at - before.at) / 1000;
  const per = (a: number | null, b: number | null) =>
    a === null || b === null ? null : (b - a) / wall;
  const serverCores = per(before.server, after.server);
  const loaderCores = (after.loader - before.loader) / wall;
  const machine = per(before.machineBusy, after.machineBusy);
  const otherCores =
    machine === null || serverCores === null
      ? null
      : Math.max(0, machine - serverCores - loaderCores);
  return { value, cpu: { serverCores, loaderCores, otherCores, machineCores: os.cpus().length } };
}

export interface GroupCpuUsage {
  /** Cores used by each named group of processes while `fn` ran. */
  groups: Record<string, number>;
  loaderCores: number;
  /** Everything else on the machine (other users' processes). */
  otherCores: number | null;
}

/** Like measureCpu, for several groups of processes (e.g. two servers and PostgreSQL). */
export async function measureCpuOfGroups<T>(
  groups: Record<string, number[]>,
  fn: () => Promise<T>,
): Promise<{ value: T; cpu: GroupCpuUsage }> {
  const read = () =>
    new Map([...new Set(Object.values(groups).flat())].map((pid) => [pid, processSeconds(pid)]));
  const take = () => ({
    at: performance.now(),
    seconds: read(),
    loader: process.cpuUsage(),
    machine: machineBusySeconds(),
  });
  const before = take();
  const value = await fn();
  const after = take();
  const wall = (after.at - before.at) / 1000;
  // A process that ended during the run (another client's backend) counts for nothing.
  const delta = (pid: number) => {
    const [a, b] = [before.seconds.get(pid), after.seconds.get(pid)];
    return a === null || a === undefined || b === null || b === undefined ? 0 : b - a;
  };
  const used = Object.fromEntries(
    Object.entries(groups).map(([name, pids]) => [
      name,
      pids.reduce((s, pid) => s + delta(pid), 0) / wall,
    ]),
  );
  const loaderCores = process.cpuUsage(before.loader);
  const loader = (loaderCores.user + loaderCores.system) / 1e6 / wall;
  const machine =
    before.machine === null || after.machine === null
      ? null
      : (after.machine - before.machine) / wall;
  const known = Object.values(used).reduce((s, c) => s + c, 0) + loader;
  return {
    value,
    cpu: {
      groups: used,
      loaderCores: loader,
      otherCores: machine === null ? null : Math.max(0, machine - known),
    },
  };
}
