/**
 * Vitest's global setup: builds `dist/` when the source is newer (built-velvet.ts), and the run's
 * migrated template databases (template-databases.ts) before any test file runs, removed when
 * the run ends. The PostgreSQL template is a
 * database of the run's own on the test server, so runs beside each other never share one.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { buildIfStale } from "./built-velvet.js";
import { createPgDatabase, PG_BASE, postgresEngine, withDatabase } from "./databases.js";
import { prepareTestDatabase } from "./template-databases.js";

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  // The `velvet` the tests spawn is the build (built-velvet.ts): make it from the source first.
  buildIfStale();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "velvet-template-"));
  const sqliteFile = path.join(dir, "velvet.db");
  const postgres = postgresEngine.available
    ? await createPgDatabase({ prefix: "velvet_template" })
    : null;
  const remove = async () => {
    await postgres?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    // One after the other: SQLite's work holds the event loop, and a PostgreSQL connection
    // opening meanwhile would time out on a loaded machine.
    if (postgres !== null)
      await prepareTestDatabase({
        kind: "postgres",
        url: withDatabase(PG_BASE, postgres.name),
        poolMax: 2,
      });
    await prepareTestDatabase({ kind: "sqlite", file: sqliteFile });
  } catch (error) {
    await remove();
    throw error;
  }
  project.provide("migratedTemplates", {
    sqliteFile,
    postgresDatabase: postgres?.name ?? null,
  });
  return remove;
}
