/**
 * The real `velvet` program on a temporary SQLite database: `--json` prints exactly one JSON
 * object, errors exit non-zero with a message on stderr and nothing on stdout, and an account
 * and key made with `velvet` submit orders through the real app.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onlyJson, runVelvet } from "../../test/support/cli.js";
import { sqliteEngine, type TestDatabase } from "../../test/support/databases.js";
import { manualClock, submitJson, UNAUTHORIZED, validBody } from "../../test/support/orders.js";
import { startTestApp } from "../../test/support/test-app.js";
import { openDatabase } from "../db/connect.js";
import { verifyPassword } from "../features/accounts/password.js";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MARCH_2025 = Date.UTC(2025, 2, 15, 12);

// Each spawn is a whole Node process: slow on a busy machine, hence the longer timeout.
describe("velvet (CLI) on sqlite", { timeout: 90_000 }, () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  const velvet = (...args: string[]) => runVelvet(args, env);
  beforeAll(async () => {
    database = await sqliteEngine.create();
    env = { DATABASE_URL: database.url };
  });
  afterAll(() => database?.drop());

  /**
   * Submits `count` new customers through the real app, at a March 2025 clock; with no key,
   * first makes an account (in-process: `account create` itself is tested below).
   */
  async function submitNewCustomers(apiKey: string | null, count: number, price?: string) {
    const app = await startTestApp(sqliteEngine, {
      database,
      clock: manualClock(MARCH_2025),
      env: price ? { ENRICHMENT_PRICE_USD: price } : {},
    });
    try {
      const account = apiKey === null ? await app.createAccount() : null;
      for (let i = 0; i < count; i++) {
        const res = await submitJson(app, apiKey ?? (account?.apiKey as string), validBody());
        expect(res.status).toBe(200);
      }
      return account?.accountId ?? "";
    } finally {
      await app.close();
    }
  }

  it("migrate --json lists what it applied, then nothing", async () => {
    const first = onlyJson(await velvet("migrate", "--json"));
    expect(first.applied).toEqual(expect.arrayContaining(["0001_initial"]));
    expect(first.zipIncomesLoaded).toBeGreaterThan(30_000);
    expect(onlyJson(await velvet("migrate", "--json"))).toEqual({
      applied: [],
      zipIncomesLoaded: 0,
    });
  });

  it("account create, set, key create/list/revoke, and the keys work against the app", async () => {
    const created = onlyJson(
      await velvet(
        "account",
        "create",
        "--name",
        "Acme",
        "--owner",
        "Owner@Example.com",
        "--password",
        "correct horse",
        "--json",
      ),
    );
    expect(Object.keys(created).sort()).toEqual(["accountId", "apiKey", "storeId"]);
    expect(created.accountId).toMatch(UUID);
    expect(created.storeId).toMatch(UUID);
    expect(created.apiKey).toMatch(/^sk_live_[0-9A-Za-z]{38}$/);
    const accountId = created.accountId as string;

    const db = openDatabase(database.target);
    try {
      const user = await db.kysely
        .selectFrom("users")
        .selectAll()
        .where("account_id", "=", accountId)
        .executeTakeFirstOrThrow();
      expect(user.email_normalized).toBe("owner@example.com");
      expect(await verifyPassword(user.password_hash ?? "", "correct horse")).toBe(true);
    } finally {
      await db.close();
    }

    const listedAccounts = onlyJson(await velvet("account", "list", "--json"));
    expect(listedAccounts.accounts).toContainEqual({
      accountId,
      name: "Acme",
      owner: "Owner@Example.com",
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      vipThreshold: 70,
      closedAt: null,
    });
    const human = await velvet("account", "list");
    expect(human.stdout).toMatch(/^ACCOUNT ID\s+NAME\s+OWNER\s+CREATED\s+THRESHOLD$/m);
    expect(human.stdout).toMatch(
      new RegExp(
        `^${accountId}\\s+Acme\\s+Owner@Example\\.com\\s+\\d{4}-\\d\\d-\\d\\d\\s+70$`,
        "m",
      ),
    );

    const set = onlyJson(
      await velvet("account", "set", "--account", accountId, "--threshold", "85", "--json"),
    );
    expect(set).toMatchObject({
      accountId,
      name: "Acme",
      vipThreshold: 85,
      storeId: created.storeId,
    });

    const second = onlyJson(await velvet("key", "create", "--account", accountId, "--json"));
    expect(Object.keys(second).sort()).toEqual(["apiKey", "keyId"]);
    expect(second.apiKey).not.toBe(created.apiKey);

    await submitNewCustomers(created.apiKey as string, 1);
    await submitNewCustomers(second.apiKey as string, 1);

    expect(onlyJson(await velvet("key", "revoke", second.keyId as string, "--json"))).toMatchObject(
      { dryRun: true, keyId: second.keyId, status: "active" },
    );
    const revoked = onlyJson(
      await velvet("key", "revoke", second.keyId as string, "--yes", "--json"),
    );
    expect(revoked).toEqual({ keyId: second.keyId, revoked: true, alreadyRevoked: false });
    const listed = onlyJson(await velvet("key", "list", "--account", accountId, "--json"));
    const keys = listed.keys as Array<Record<string, unknown>>;
    expect(keys).toHaveLength(2);
    const byId = new Map(keys.map((k) => [k.keyId, k]));
    expect(byId.get(second.keyId)).toMatchObject({
      status: "revoked",
      last4: (second.apiKey as string).slice(-4),
    });
    expect(byId.get(second.keyId)?.revokedAt).toEqual(expect.any(String));
    const first = keys.find((k) => k.keyId !== second.keyId);
    expect(first).toMatchObject({
      status: "active",
      revokedAt: null,
      lastUsedAt: expect.any(String),
    });
    expect(JSON.stringify(listed)).not.toContain(created.apiKey as string);

    const app = await startTestApp(sqliteEngine, { database });
    try {
      const refused = await app.submit(second.apiKey as string, validBody());
      expect({ status: refused.status, body: await refused.json() }).toEqual({
        status: 401,
        body: UNAUTHORIZED,
      });
      expect((await submitJson(app, created.apiKey as string, validBody())).status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it("usage counts the month's enrichments at the recorded price, exactly", async () => {
    const a = await submitNewCustomers(null, 3);
    const b = await submitNewCustomers(null, 3, "0.03");
    const at3 = { ...env, ENRICHMENT_PRICE_USD: "0.03" };
    const [usageA, usageB, empty] = await Promise.all([
      velvet("usage", "--account", a, "--month", "2025-03", "--json"),
      runVelvet(["usage", "--account", b, "--month", "2025-03", "--json"], at3),
      runVelvet(["usage", "--account", a, "--month", "2025-04", "--json"], at3),
    ]);
    expect(onlyJson(usageA)).toEqual({
      month: "2025-03",
      enrichments: 3,
      unitPriceUsd: "0.05",
      amountUsd: "0.15",
      providers: [],
      providerCostUsd: "0.00",
    });
    expect(onlyJson(usageB)).toEqual({
      month: "2025-03",
      enrichments: 3,
      unitPriceUsd: "0.03",
      amountUsd: "0.09",
      providers: [],
      providerCostUsd: "0.00",
    });
    // No charges that month: the price in force now is shown.
    expect(onlyJson(empty)).toEqual({
      month: "2025-04",
      enrichments: 0,
      unitPriceUsd: "0.03",
      amountUsd: "0.00",
      providers: [],
      providerCostUsd: "0.00",
    });
  });

  it("--version prints the version; account create without --password prints a set-password link on PUBLIC_BASE_URL", async () => {
    const version = await velvet("--version");
    expect(version).toMatchObject({ code: 0, stdout: "0.1.0\n" });
    // The shell's PORT is not the server's address: never in a link.
    const plain = onlyJson(
      await runVelvet(
        ["account", "create", "--name", "Linked", "--owner", "linked@example.com", "--json"],
        { ...env, PORT: "8999" },
      ),
    );
    expect(plain.setPasswordUrl).toMatch(/^http:\/\/127\.0\.0\.1:3000\/password\/reset\?token=/);
    expect(Date.parse(plain.expiresAt as string)).toBeGreaterThan(Date.now() + 6 * 86_400_000);
    // Bad input is said in words, not as a stack trace.
    const directory = await velvet(
      "import",
      "orders",
      "docs",
      "--account",
      String(plain.accountId),
    );
    expect(directory).toMatchObject({
      code: 1,
      stdout: "",
      stderr: "velvet: Not a file but a directory: docs\n",
    });
    const human = await runVelvet(["user", "reset-password", "--email", "linked@example.com"], {
      ...env,
      PORT: "8999",
    });
    expect(human.stdout).toContain(
      "PUBLIC_BASE_URL is not set: the link assumes Velvet at http://127.0.0.1:3000",
    );
    const configured = onlyJson(
      await runVelvet(["user", "reset-password", "--email", "linked@example.com", "--json"], {
        ...env,
        PORT: "8999",
        PUBLIC_BASE_URL: "https://velvet.example.com/",
      }),
    );
    expect(configured.resetUrl).toMatch(/^https:\/\/velvet\.example\.com\/password\/reset\?token=/);
  });

  it("fails with a message on stderr, nothing on stdout and a non-zero exit", async () => {
    const nobody = "0195a0b0-0000-7000-8000-000000000000";
    const weak = ["account", "create", "--name", "Weak", "--owner", "w@example.com", "--password"];
    const cases: Array<[string[], RegExp, Record<string, string>?]> = [
      [["account", "set", "--account", nobody, "--threshold", "50", "--json"], /No account/],
      [["account", "set", "--account", nobody, "--threshold", "101", "--json"], /threshold/],
      [["usage", "--account", nobody, "--month", "2025-13", "--json"], /YYYY-MM/],
      [["key", "revoke", "not-an-id", "--json"], /expected an id/],
      [["migrate", "--json"], /DATABASE_URL/, { DATABASE_URL: "mysql://localhost/velvet" }],
      // The dashboard's password rule holds for the operator too.
      [[...weak, "12345678"], /--password is refused\. Use at least 10 characters\./],
      [
        [...weak, "password1234"],
        /--password is refused\. Choose a harder password: it is a common password/,
      ],
      [
        ["serve"],
        /TRUST_PROXY=true would trust every X-Forwarded-For entry/,
        { TRUST_PROXY: "true" },
      ],
      [["serve"], /SIGNUP=open needs SMTP_URL/, { SIGNUP: "open" }],
      // A usage error names what is wrong; the usage itself is for --help.
      [["account", "set", "--json"], /^velvet: required option '--account <id>' not specified/],
      [["account"], /^velvet: "account" needs a command: list, create, set, delete/],
      [["acount"], /^velvet: unknown command 'acount' \(Did you mean account\?\)/],
    ];
    const runs = await Promise.all(
      cases.map(([args, , extra]) => runVelvet(args, { ...env, ...extra })),
    );
    runs.forEach((run, i) => {
      const [args, message] = cases[i] as [string[], RegExp];
      const what = args.join(" ");
      expect(run.code, what).not.toBe(0);
      expect(run.stdout, what).toBe("");
      expect(run.stderr, what).toMatch(message);
      expect(run.stderr, what).not.toMatch(/\n\s+at /);
    });
  });
});
