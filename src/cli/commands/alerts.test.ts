/**
 * The real `velvet` program on a temporary SQLite database: alert settings through
 * `account set` (validated, the webhook never printed in full, "" clears) and `alerts list`.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { onlyJson, runVelvet } from "../../../test/support/cli.js";
import { sqliteEngine, type TestDatabase } from "../../../test/support/databases.js";
import { openDatabase } from "../../db/connect.js";

const SECRET = "https://hooks.slack.com/services/T0001/B0002/abcdefghijklmnopqrstuvwx";

describe("velvet account set (alerts) and velvet alerts list", () => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let accountId: string;
  const velvet = (...args: string[]) => runVelvet(args, env);
  beforeAll(async () => {
    database = await sqliteEngine.createMigrated();
    env = { DATABASE_URL: database.url, SMTP_URL: "" };
    const created = onlyJson(
      await velvet("account", "create", "--name", "Acme", "--owner", "owner@acme.com", "--json"),
    );
    accountId = created.accountId as string;
  });
  afterAll(() => database?.drop());

  it("sets, shows masked, and clears the alert channels", async () => {
    const set = await velvet(
      "account",
      "set",
      "--account",
      accountId,
      "--slack-webhook",
      SECRET,
      "--alert-email",
      "team@acme.com, ceo@acme.com",
      "--threshold",
      "80",
      "--json",
    );
    expect(onlyJson(set)).toMatchObject({
      accountId,
      vipThreshold: 80,
      slackWebhook: "https://hooks.slack.com/…uvwx",
      alertEmails: ["team@acme.com", "ceo@acme.com"],
    });
    expect(set.stdout + set.stderr).not.toContain("abcdefghijklmnopqrst");
    const human = await velvet("account", "set", "--account", accountId);
    expect(human.stdout).toContain("Chat webhook: https://hooks.slack.com/…uvwx");
    expect(human.stdout).toContain("Alert e-mail: team@acme.com, ceo@acme.com\n");
    expect(human.stdout).not.toContain("abcdefghijklmnopqrst");
    expect(onlyJson(set).alertEmailsAwaitingConfirmation).toEqual([]);

    // An address added on the dashboard that its owner has not confirmed yet: said as such.
    const db = openDatabase(database.target);
    try {
      const now = Date.now();
      await db.kysely
        .insertInto("alert_email_confirmations")
        .values({
          account_id: accountId,
          email_normalized: "ceo@acme.com",
          email: "ceo@acme.com",
          token_hash: "0".repeat(64),
          expires_at: now + 86_400_000,
          sent_at: now,
          created_at: now,
        })
        .execute();
    } finally {
      await db.close();
    }
    const shown = await velvet("account", "set", "--account", accountId, "--json");
    expect(onlyJson(shown)).toMatchObject({
      alertEmails: ["team@acme.com", "ceo@acme.com"],
      alertEmailsAwaitingConfirmation: ["ceo@acme.com"],
    });
    expect((await velvet("account", "set", "--account", accountId)).stdout).toContain(
      "Alert e-mail: team@acme.com, ceo@acme.com (awaiting confirmation: no alerts yet)\n",
    );

    // What the database says, whatever this command's own environment holds: the CLI is not the
    // server, and an operator's shell without SMTP_URL says nothing about it.
    const withoutSmtp = await velvet("alerts", "list", "--account", accountId, "--json");
    const withSmtp = await runVelvet(["alerts", "list", "--account", accountId, "--json"], {
      ...env,
      SMTP_URL: "smtp://127.0.0.1:2525",
    });
    expect(onlyJson(withoutSmtp)).toEqual({
      alerts: [],
      channels: { chat: "configured", email: "configured" },
    });
    expect(withSmtp.stdout).toBe(withoutSmtp.stdout);

    const cleared = onlyJson(
      await velvet(
        "account",
        "set",
        "--account",
        accountId,
        "--slack-webhook",
        "",
        "--alert-email",
        "",
        "--json",
      ),
    );
    expect(cleared).toMatchObject({ slackWebhook: null, alertEmails: [], vipThreshold: 80 });
  });

  it("refuses a bad webhook or address, changing nothing", async () => {
    const runs = await Promise.all([
      velvet(
        "account",
        "set",
        "--account",
        accountId,
        "--slack-webhook",
        "http://hooks.slack.com/x",
        "--json",
      ),
      velvet(
        "account",
        "set",
        "--account",
        accountId,
        "--slack-webhook",
        "https://169.254.169.254/latest",
        "--json",
      ),
      velvet(
        "account",
        "set",
        "--account",
        accountId,
        "--alert-email",
        "team@acme.com,nope",
        "--threshold",
        "10",
        "--json",
      ),
    ]);
    expect(runs.map((r) => r.code)).toEqual([1, 1, 1]);
    expect(runs.map((r) => r.stdout)).toEqual(["", "", ""]);
    expect(runs[0]?.stderr).toMatch(/must use https/);
    expect(runs[1]?.stderr).toMatch(/non-public address \(169\.254\.169\.254\)/);
    expect(runs[2]?.stderr).toMatch(/not valid e-mail addresses: nope/);
    const after = onlyJson(await velvet("account", "set", "--account", accountId, "--json"));
    expect(after).toMatchObject({ slackWebhook: null, alertEmails: [], vipThreshold: 80 });
  });
});
