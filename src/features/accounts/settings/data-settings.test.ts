/**
 * A setting declared without a column (a test-only declaration beside the product's settings):
 * its default read while it has no row, the one update path writing its row of
 * `account_settings` and telling the change in the audit trail beside a column setting's, and
 * its row removed when the account is closed, on both engines.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ENGINES } from "../../../../test/support/databases.js";
import { startTestDeps, type TestDeps } from "../../../../test/support/test-deps.js";
import { cliActor } from "../../audit/audit-actor.js";
import { closeAccount } from "../../privacy/close-account.js";
import { createAccount } from "../create-account.js";
import { defineSetting } from "./account-setting.js";
import { ACCOUNT_SETTINGS } from "./account-settings.js";
import { changeAccountSettings } from "./change-account-settings.js";
import { readAccountSettings } from "./read-account-settings.js";

const HOURS = /^(\d\d:\d\d-\d\d:\d\d)?$/;

/** Its key is no product setting's, so the product's own reads cannot know it. */
const testQuietSpan = defineSetting({
  label: "Test quiet span",
  default: "",
  parse(text: string) {
    const v = text.trim();
    return HOURS.test(v) ? { ok: true, value: v } : { ok: false, problem: "HH:MM-HH:MM" };
  },
  text: (value: string) => value,
  role: "admin",
  audit: { action: "alert_settings.changed", detail: "testQuietSpan" },
  form: null,
  cli: null,
});

const SETTINGS = { ...ACCOUNT_SETTINGS, testQuietSpan };

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`a setting stored as data on ${engine.name}`, () => {
    let t: TestDeps;
    let accountId: string;
    let accounts = 0;
    beforeAll(async () => {
      t = await startTestDeps(engine);
    });
    afterAll(() => t?.close());
    beforeEach(async () => {
      accounts += 1;
      ({ accountId } = await createAccount(
        t.deps.db.kysely,
        { name: "Data", ownerEmail: `owner${accounts}@data.example`, passwordHash: null },
        t.deps.clock.now(),
      ));
    });

    const rows = () =>
      t.deps.db.kysely
        .selectFrom("account_settings")
        .select(["key", "value", "updated_at"])
        .where("account_id", "=", accountId)
        .execute();
    const events = async () =>
      (
        await t.deps.db.kysely
          .selectFrom("audit_events")
          .select(["action", "details"])
          .where("account_id", "=", accountId)
          .where("action", "=", "alert_settings.changed")
          .execute()
      ).map((e) => JSON.parse(e.details ?? "null"));

    it("reads its default while it has no row", async () => {
      expect(await readAccountSettings(t.deps.db.kysely, accountId, SETTINGS)).toMatchObject({
        vipThreshold: 70,
        testQuietSpan: "",
      });
      expect(await rows()).toEqual([]);
    });

    it("is written, audited and read back through the one update path", async () => {
      const actor = cliActor("test");
      const start = t.deps.clock.now();
      const change = (values: { testQuietSpan?: string; vipThreshold?: number }) =>
        changeAccountSettings(t.deps, { accountId, values, actor }, SETTINGS);
      expect(await change({ vipThreshold: 75, testQuietSpan: "22:00-07:00" })).toEqual({
        changed: ["vipThreshold", "testQuietSpan"],
      });
      expect(await readAccountSettings(t.deps.db.kysely, accountId, SETTINGS)).toMatchObject({
        vipThreshold: 75,
        testQuietSpan: "22:00-07:00",
      });
      // The product's own reads do not know it, and still read the column setting.
      expect(await readAccountSettings(t.deps.db.kysely, accountId)).not.toHaveProperty(
        "testQuietSpan",
      );
      const [row, ...more] = await rows();
      expect(more).toEqual([]);
      expect(row).toMatchObject({ key: "testQuietSpan", value: '"22:00-07:00"' });
      expect(Number(row?.updated_at)).toBeGreaterThanOrEqual(start);
      expect(Number(row?.updated_at)).toBeLessThanOrEqual(t.deps.clock.now());
      // The same value again: nothing written, nothing recorded.
      expect(await change({ testQuietSpan: "22:00-07:00" })).toEqual({ changed: [] });
      // Back to its default: a row that says so, so the change is told too.
      expect(await change({ testQuietSpan: "" })).toEqual({ changed: ["testQuietSpan"] });
      expect((await rows()).map((r) => r.value)).toEqual(['""']);
      const recorded = await events();
      expect(recorded).toHaveLength(2);
      expect(recorded).toEqual(
        expect.arrayContaining([
          { threshold: { from: 70, to: 75 }, testQuietSpan: { from: "", to: "22:00-07:00" } },
          { testQuietSpan: { from: "22:00-07:00", to: "" } },
        ]),
      );
    });

    it("loses its row when the account is closed, like the alert channels' settings", async () => {
      await changeAccountSettings(
        t.deps,
        { accountId, values: { testQuietSpan: "23:00-06:00" }, actor: cliActor("test") },
        SETTINGS,
      );
      expect(await rows()).toHaveLength(1);
      expect(await closeAccount(t.deps, { accountId, actor: cliActor("test") })).toMatchObject({
        kind: "closed",
      });
      expect(await rows()).toEqual([]);
    });
  });
}
