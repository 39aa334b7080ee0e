/**
 * The example Grafana dashboard and Prometheus rules in ops/ name only series Velvet really
 * exposes, so a renamed metric cannot leave them silently empty.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { sqliteEngine } from "../../../test/support/databases.js";
import { loadConfig } from "../../config.js";
import { buildDeps, closeDeps } from "../../main.js";

const OPS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../ops");
const SERIES = /\b(?:velvet|nodejs|process)_[a-z0-9_]+/g;

function exprsOf(value: unknown): string[] {
  if (typeof value !== "object" || value === null) return [];
  return Object.entries(value).flatMap(([key, v]) =>
    key === "expr" && typeof v === "string" ? [v] : exprsOf(v),
  );
}

async function exposedMetricNames(): Promise<Set<string>> {
  const database = await sqliteEngine.createMigrated();
  const config = { ...loadConfig({ LOG_LEVEL: "silent" }), database: database.target };
  const deps = await buildDeps({
    config,
    log: pino({ level: "silent" }),
    metrics: true,
    providers: [],
  });
  try {
    const { body } = await deps.metrics.render();
    return new Set([...body.matchAll(/^# TYPE (\S+)/gm)].map((m) => m[1] as string));
  } finally {
    await closeDeps(deps);
    await database.drop();
  }
}

describe("ops/ examples", () => {
  it("use only exposed metrics, and every rule has a summary", async () => {
    const names = await exposedMetricNames();
    const rules = parse(fs.readFileSync(path.join(OPS, "prometheus-alerts.yml"), "utf8")) as {
      groups: Array<{
        rules: Array<{ alert: string; expr: string; annotations: { summary?: string } }>;
      }>;
    };
    const dashboard = JSON.parse(fs.readFileSync(path.join(OPS, "grafana-dashboard.json"), "utf8"));
    const exprs = [...exprsOf(rules), ...exprsOf(dashboard)];
    expect(exprs.length).toBeGreaterThan(15);
    for (const expr of exprs) {
      for (const series of expr.match(SERIES) ?? []) {
        const metric = series.replace(/_(bucket|count|sum)$/, "");
        expect(names.has(metric) || names.has(series), `${series} in ${expr}`).toBe(true);
      }
    }
    const alerts = rules.groups.flatMap((g) => g.rules);
    expect(alerts.map((r) => r.alert)).toEqual(
      expect.arrayContaining([
        "VelvetJobsNotKeepingUp",
        "VelvetJobsGaveUp",
        "VelvetProviderCircuitOpen",
      ]),
    );
    for (const rule of alerts) expect(rule.annotations.summary, rule.alert).toBeTruthy();
  });
});
