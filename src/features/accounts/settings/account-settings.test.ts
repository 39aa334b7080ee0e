/**
 * The account settings as declared: each one's rule for what a person types, its storage
 * (read back as written, a new account's default), and the one update path on both engines
 * (only what changed is written and audited, one event per audit action, `afterChange` in the
 * same transaction). The declarations' types are checked too: a value its column, or JSON for a
 * setting without one, cannot hold must say how it is stored. A setting stored as data:
 * data-settings.test.ts.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ENGINES } from "../../../../test/support/databases.js";
import { startTestDeps, type TestDeps } from "../../../../test/support/test-deps.js";
import { auditDetailsText } from "../../audit/audit-actions.js";
import { cliActor } from "../../audit/audit-actor.js";
import { monthOf } from "../../billing/get-usage.js";
import { createAccount } from "../create-account.js";
import { defineSetting } from "./account-setting.js";
import {
  ACCOUNT_SETTINGS,
  SETTING_DETAIL_LABELS,
  SETTING_KEYS,
  settingOf,
} from "./account-settings.js";
import { changeAccountSettings } from "./change-account-settings.js";
import { readAccountSettings } from "./read-account-settings.js";

describe("the declared settings", () => {
  it("reads what a person types by one rule, and writes it back the same", () => {
    const { vipThreshold, tiers, apiRateLimitPerMinute, monthlyBudgetUsd } = ACCOUNT_SETTINGS;
    expect(vipThreshold.parse(" 80 ")).toEqual({ ok: true, value: 80 });
    for (const bad of ["", "101", "-1", "7.5", "ten"])
      expect(vipThreshold.parse(bad)).toEqual({
        ok: false,
        problem: "the threshold is a whole number from 0 to 100",
      });
    expect(tiers.parse("Silver:80, Gold:90")).toEqual({
      ok: true,
      value: [
        { name: "Gold", floor: 90 },
        { name: "Silver", floor: 80 },
      ],
    });
    expect(tiers.parse("")).toEqual({ ok: true, value: [] });
    const refused = tiers.parse("Gold:90,gold:80");
    expect(refused.ok ? "" : refused.problem).toMatch(/two tiers are named "Gold".*\.$/);
    expect(apiRateLimitPerMinute.parse("")).toEqual({ ok: true, value: null });
    expect(apiRateLimitPerMinute.parse("0")).toEqual({ ok: true, value: 0 });
    expect(apiRateLimitPerMinute.parse("-5").ok).toBe(false);
    expect(monthlyBudgetUsd.parse("$49.99")).toEqual({ ok: true, value: "49.99" });
    expect(monthlyBudgetUsd.parse("")).toEqual({ ok: true, value: null });
    expect(monthlyBudgetUsd.parse("ten dollars")).toEqual({
      ok: false,
      problem: "a monthly budget is an amount in USD such as 50 or 49.99",
    });
    for (const key of SETTING_KEYS) {
      const setting = settingOf(key);
      expect(setting.parse(setting.text(setting.default)), key).toEqual({
        ok: true,
        value: setting.default,
      });
    }
  });

  it("names each audited detail in the audit trail by its setting's label", () => {
    expect(SETTING_DETAIL_LABELS).toEqual({
      threshold: "VIP threshold",
      apiRateLimit: "API rate limit",
      tiers: "Tiers",
    });
    // The audit trail's own names come first; a detail it does not know takes the label given.
    expect(
      auditDetailsText(
        { threshold: { from: 70, to: 80 }, quiet: { from: "none", to: "22:00-07:00" } },
        { ...SETTING_DETAIL_LABELS, quiet: "Quiet hours" },
      ),
    ).toBe("VIP threshold 70 → 80, Quiet hours none → 22:00-07:00");
  });

  it("makes a value its column cannot hold say how it is stored and read", () => {
    const base = {
      label: "Quiet",
      parse: () => ({ ok: true as const, value: [1] }),
      text: (v: number[]) => v.join(","),
      role: "admin" as const,
      audit: false as const,
      form: null,
      cli: null,
    };
    // @ts-expect-error: number[] is not what the tiers column holds; store and read are required.
    defineSetting({ ...base, column: "tiers", default: [1] });
    defineSetting({
      ...base,
      column: "tiers",
      default: [1],
      store: (v: number[]) => JSON.stringify(v),
      read: (s: string) => JSON.parse(s) as number[],
    });
    defineSetting({
      ...base,
      column: "vip_threshold",
      default: [1],
      store: (v: number[]) => v.length,
      read: (s: number) => [s],
      // @ts-expect-error: the audit trail cannot hold a list as it is; `show` is required.
      audit: { action: "alert_settings.changed", detail: "quiet" },
    });
    // Without a column: stored as JSON, which holds a list of numbers as it is.
    defineSetting({ ...base, default: [1] });
    const asSet = {
      ...base,
      parse: () => ({ ok: true as const, value: new Set([1]) }),
      text: (v: Set<number>) => [...v].join(","),
    };
    // @ts-expect-error: JSON cannot hold a Set as it is; store and read are required.
    defineSetting({ ...asSet, default: new Set([1]) });
    defineSetting({
      ...asSet,
      default: new Set([1]),
      store: (v: Set<number>) => [...v],
      read: (s) => new Set(s as number[]),
    });
    expect(base.label).toBe("Quiet");
  });
});

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`changing settings on ${engine.name}`, () => {
    let t: TestDeps;
    let accountId: string;
    let accounts = 0;
    /** Each test its own account, so its audit events are its own. */
    beforeEach(async () => {
      accounts += 1;
      ({ accountId } = await createAccount(
        t.deps.db.kysely,
        { name: "Settings", ownerEmail: `owner${accounts}@settings.example`, passwordHash: null },
        t.deps.clock.now(),
      ));
    });
    beforeAll(async () => {
      t = await startTestDeps(engine);
    });
    afterAll(() => t?.close());

    const events = () =>
      t.deps.db.kysely
        .selectFrom("audit_events")
        .select(["action", "details"])
        .where("account_id", "=", accountId)
        .orderBy("action")
        .execute();

    // Names every setting: a new one's default belongs here.
    it("starts from every setting's default", async () => {
      expect(await readAccountSettings(t.deps.db.kysely, accountId)).toEqual({
        vipThreshold: 70,
        tiers: [],
        apiRateLimitPerMinute: null,
        monthlyBudgetUsd: null,
      });
    });

    it("writes and audits only what changed, one event per action, in one transaction", async () => {
      const actor = cliActor("test");
      const first = await changeAccountSettings(t.deps, {
        accountId,
        values: {
          vipThreshold: 80,
          tiers: [{ name: "Gold", floor: 90 }],
          apiRateLimitPerMinute: null,
          monthlyBudgetUsd: "50",
        },
        actor,
      });
      expect(first).toEqual({ changed: ["vipThreshold", "monthlyBudgetUsd", "tiers"] });
      expect(await readAccountSettings(t.deps.db.kysely, accountId)).toMatchObject({
        vipThreshold: 80,
        tiers: [{ name: "Gold", floor: 90 }],
        apiRateLimitPerMinute: null,
        monthlyBudgetUsd: "50",
      });
      const recorded = (await events()).map((e) => ({
        action: e.action,
        details: JSON.parse(e.details ?? "null"),
      }));
      expect(recorded).toEqual([
        {
          action: "alert_settings.changed",
          details: {
            threshold: { from: 70, to: 80 },
            tiers: { from: "none", to: "Gold:90" },
          },
        },
        { action: "monthly_budget.changed", details: { from: null, to: "50" } },
      ]);
      // The same values again: nothing written, nothing recorded.
      const again = await changeAccountSettings(t.deps, {
        accountId,
        values: { vipThreshold: 80, tiers: [{ name: "Gold", floor: 90 }], monthlyBudgetUsd: "50" },
        actor,
      });
      expect(again).toEqual({ changed: [] });
      expect(await events()).toHaveLength(2);
    });

    it("runs a setting's afterChange in the same transaction (a new budget's notices start afresh)", async () => {
      const month = monthOf(t.deps.clock.now());
      await t.deps.db.kysely
        .insertInto("budget_months")
        .values({ account_id: accountId, month, notified_80: 1, notified_100: 1 })
        .execute();
      await changeAccountSettings(t.deps, {
        accountId,
        values: { monthlyBudgetUsd: "60" },
        actor: cliActor("test"),
      });
      const row = await t.deps.db.kysely
        .selectFrom("budget_months")
        .select(["notified_80", "notified_100"])
        .where("account_id", "=", accountId)
        .executeTakeFirstOrThrow();
      expect(row).toEqual({ notified_80: 0, notified_100: 0 });
    });

    it("answers false for an account that does not exist", async () => {
      const missing = await changeAccountSettings(t.deps, {
        accountId: "00000000-0000-7000-8000-000000000000",
        values: { vipThreshold: 10 },
        actor: cliActor("test"),
      });
      expect(missing).toBe(false);
    });
  });
}
