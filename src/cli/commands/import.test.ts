import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { VELVET_ENTRY } from "../../../test/support/built-velvet.js";
import { onlyJson, runVelvet } from "../../../test/support/cli.js";
import { ENGINES, type TestDatabase } from "../../../test/support/databases.js";
import { writeShopifyExport } from "../../../test/support/shopify-export.js";
import { openDatabase } from "../../db/connect.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "velvet-cli-import-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const SMALL = path.join(dir, "small.csv");
fs.writeFileSync(
  SMALL,
  [
    "Name,Email,Currency,Total,Created at,Lineitem name,Billing Name,Billing Zip,Billing Country,Id",
    "#1,ada@example.com,USD,10.00,2024-01-01 10:00:00 +0000,Hat,Ada Lovelace,10001,US,1",
    "#2,not-an-email,USD,10.00,2024-01-01 10:00:00 +0000,Hat,Bad Row,10001,US,2",
    "#3,grace@example.com,USD,20.00,2024-01-02 10:00:00 +0000,Coat,Grace Hopper,10001,US,3",
  ].join("\n"),
);

/** Spawns an import and stops it with `signal` once it has reported progress. */
function interruptedImport(
  databaseUrl: string,
  accountId: string,
  file: string,
  signal: NodeJS.Signals,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [VELVET_ENTRY, "import", "orders", file, "--account", accountId, "--yes", "--json"],
      {
        env: { ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: "warn" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let stdout = "";
    let stderr = "";
    let sent = false;
    child.stdout.on("data", (c: Buffer) => {
      stdout += c.toString();
    });
    child.stderr.on("data", (c: Buffer) => {
      stderr += c.toString();
      if (!sent && stderr.includes('"progress"')) {
        sent = true;
        child.kill(signal);
      }
    });
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`velvet import orders (${engine.name})`, () => {
    let database: TestDatabase;
    let accountId: string;
    const env = () => ({ DATABASE_URL: database.url });
    const counts = async () => {
      const db = openDatabase(database.target);
      try {
        const n = async (table: "customers" | "orders" | "usage_charges") =>
          Number(
            (
              await db.kysely
                .selectFrom(table)
                .select((eb) => eb.fn.countAll<number | string>().as("n"))
                .executeTakeFirstOrThrow()
            ).n,
          );
        return {
          customers: await n("customers"),
          orders: await n("orders"),
          charges: await n("usage_charges"),
        };
      } finally {
        await db.close();
      }
    };

    beforeAll(async () => {
      database = await engine.createMigrated();
      const created = await runVelvet(
        ["account", "create", "--name", "Shop", "--owner", "owner@example.com", "--json"],
        env(),
      );
      accountId = (JSON.parse(created.stdout) as { accountId: string }).accountId;
    });
    afterAll(async () => {
      await database?.drop();
    });

    it("the dry run shows the most the providers can bill and whether the budget covers it", async () => {
      const paid = {
        ...env(),
        PDL_API_KEY: "pdl-key",
        PDL_PRICE_USD: "0.28",
        FULLCONTACT_API_KEY: "fc-key",
        FULLCONTACT_PRICE_USD: "0.1",
      };
      const budget = (usd: string) =>
        runVelvet(["account", "set", "--account", accountId, "--monthly-budget", usd], env());
      await budget("0.50");
      const short = await runVelvet(["import", "orders", SMALL, "--account", accountId], paid);
      expect(short.stdout).toContain(
        "Provider lookups: at most $0.76 (pdl $0.56, fullcontact $0.20); $0.50 left of the $0.50 monthly budget does not cover it",
      );
      await budget("5");
      const json = await runVelvet(
        ["import", "orders", SMALL, "--account", accountId, "--json"],
        paid,
      );
      expect(JSON.parse(json.stdout)).toMatchObject({
        newCustomers: 2,
        providers: [
          { provider: "pdl", lookups: 2, amountUsd: "0.56" },
          { provider: "fullcontact", lookups: 2, amountUsd: "0.20" },
        ],
        providerCostUsd: "0.76",
        budgetUsd: "5",
        budgetLeftUsd: "5.00",
        budgetCovers: true,
      });
      await budget("");
      expect(await counts()).toEqual({ customers: 0, orders: 0, charges: 0 });
    });

    it("dry run by default: counts and cost, nothing written; --yes --json: JSON lines on stderr, the summary on stdout", async () => {
      const dry = await runVelvet(["import", "orders", SMALL, "--account", accountId], env());
      expect(dry.code).toBe(0);
      expect(dry.stdout).toContain("Dry run: nothing was written. Run again with --yes to import.");
      expect(dry.stdout).toContain("Would charge: 2 enrichments, $0.10");
      expect(dry.stderr).toContain("line 3: email is not a valid e-mail address");
      expect(await counts()).toEqual({ customers: 0, orders: 0, charges: 0 });
      const dryJson = await runVelvet(
        ["import", "orders", SMALL, "--account", accountId, "--json"],
        env(),
      );
      expect(JSON.parse(dryJson.stdout)).toMatchObject({
        dryRun: true,
        newCustomers: 2,
        charges: 2,
      });
      expect(await counts()).toEqual({ customers: 0, orders: 0, charges: 0 });

      const done = await runVelvet(
        ["import", "orders", SMALL, "--account", accountId, "--yes", "--json"],
        env(),
      );
      expect(done.code).toBe(0);
      expect(JSON.parse(done.stdout)).toEqual({
        dryRun: false,
        rows: 3,
        orders: 2,
        customers: 2,
        newCustomers: 2,
        charges: 2,
        amountUsd: "0.10",
        skipped: 0,
        forgotten: 0,
        errors: 1,
        providers: [],
        providerCostUsd: "0.00",
        budgetUsd: null,
        budgetLeftUsd: null,
        budgetCovers: null,
      });
      const events = done.stderr
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(events).toContainEqual({
        rowError: { line: 3, reason: "email is not a valid e-mail address" },
      });
      expect(events.at(-1)).toMatchObject({ progress: { rows: 3, orders: 2, etaSeconds: 0 } });
      expect(await counts()).toEqual({ customers: 2, orders: 2, charges: 2 });

      // The import is in the audit trail, by the OS user who ran it; the dry runs are not.
      const trail = onlyJson(
        await runVelvet(["audit", "list", "--account", accountId, "--json"], env()),
      );
      const imports = (trail.events as Array<Record<string, unknown>>).filter(
        (e) => e.action === "orders.imported",
      );
      expect(imports).toEqual([
        expect.objectContaining({
          actorKind: "cli",
          details: expect.objectContaining({ newCustomers: 2, errors: 1, completed: true }),
        }),
      ]);
    });

    for (const signal of ["SIGINT", "SIGKILL"] as const) {
      it(`after ${signal === "SIGINT" ? "Ctrl-C" : "a crash (SIGKILL)"} the same command finishes the rest: no gap, no duplicate`, async () => {
        const file = path.join(dir, `big-${signal}-${engine.name}.csv`);
        const made = await writeShopifyExport(file, 6_000);
        const other = await runVelvet(
          [
            "account",
            "create",
            "--name",
            `Big ${signal}`,
            "--owner",
            `${signal}@example.com`,
            "--json",
          ],
          env(),
        );
        const account = (JSON.parse(other.stdout) as { accountId: string }).accountId;
        const before = await counts();
        const stopped = await interruptedImport(database.url, account, file, signal);
        if (signal === "SIGINT") {
          expect(stopped.code).toBe(130);
          expect(stopped.stderr).toContain(
            "interrupted; run the same command again to import the rest",
          );
          const partial = JSON.parse(stopped.stdout) as { orders: number };
          expect(partial.orders).toBeLessThan(made.orders);
        } else {
          expect(stopped.code).toBe(null);
        }
        const mid = await counts();
        // Stopped half-way: some batches committed (progress is reported after one), not all.
        expect(mid.orders - before.orders).toBeGreaterThan(0);
        expect(mid.orders - before.orders).toBeLessThan(made.orders);

        const rest = await runVelvet(
          ["import", "orders", file, "--account", account, "--yes", "--json"],
          env(),
        );
        expect(rest.code).toBe(0);
        const summary = JSON.parse(rest.stdout) as {
          orders: number;
          skipped: number;
          newCustomers: number;
        };
        expect(summary.orders).toBe(made.orders);
        const after = await counts();
        // Every order once; one customer and one charge per distinct e-mail (2 of 3 orders are new customers).
        expect(after.orders - before.orders).toBe(made.orders);
        expect(after.customers - before.customers).toBe(Math.ceil((made.orders * 2) / 3));
        expect(after.charges - before.charges).toBe(after.customers - before.customers);
        expect(summary.skipped).toBe(mid.orders - before.orders);
      });
    }
  });
}
