/**
 * `velvet destination …` as an operator runs it, on both engines: add a webhook (the secret
 * printed once, then only its last 4), send a test that a Standard Webhooks library verifies,
 * list, remove (a dry run without --yes); enable one its receiver disabled (410 Gone), audited;
 * refusals for a private URL, an unknown event and a missing STORE_TOKEN_KEY.
 */
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FakeWebhookReceiver,
  startWebhookReceiver,
} from "../../../test/fakes/webhook-receiver.js";
import { onlyJson, runVelvet } from "../../../test/support/cli.js";
import { ENGINES, type TestDatabase } from "../../../test/support/databases.js";
import { STORE_SYNC_ENV } from "../../../test/support/store-sync.js";
import { openDatabase } from "../../db/connect.js";
import type { Deps } from "../../deps.js";
import { cliActor } from "../../features/audit/audit-actor.js";
import { removeDestination } from "../../features/destinations/remove-destination.js";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`velvet destination (${engine.name})`, () => {
    let database: TestDatabase;
    let receiver: FakeWebhookReceiver;
    let env: Record<string, string>;
    let accountId: string;

    beforeAll(async () => {
      database = await engine.createMigrated();
      receiver = await startWebhookReceiver();
      env = { DATABASE_URL: database.url, ...STORE_SYNC_ENV };
      const created = onlyJson(
        await runVelvet(
          ["account", "create", "--name", "Acme", "--owner", "owner@acme.test", "--json"],
          env,
        ),
      );
      accountId = String(created.accountId);
    });
    afterAll(async () => {
      await receiver?.close();
      await database?.drop();
    });

    // Eight runs of the program, each a process of its own (test/support/cli.ts).
    it("adds a webhook, tests it, lists it and removes it", { timeout: 120_000 }, async () => {
      const added = onlyJson(
        await runVelvet(
          [
            "destination",
            "add",
            "webhook",
            "--account",
            accountId,
            "--url",
            receiver.url,
            "--json",
          ],
          env,
        ),
      );
      const secret = String(added.secret);
      expect(secret).toMatch(/^whsec_/);
      expect(added.events).toEqual(["customer.enriched", "customer.vip", "customer.forgotten"]);
      const id = String(added.destinationId);

      const tested = onlyJson(
        await runVelvet(
          ["destination", "test", "--account", accountId, "--destination", id, "--json"],
          env,
        ),
      );
      expect(tested).toMatchObject({ outcome: "delivered", statusCode: 204 });
      const [hook] = receiver.requests;
      expect(new Webhook(secret).verify(hook?.raw ?? "", hook?.headers ?? {})).toMatchObject({
        type: "velvet.test",
        data: { destinationId: id },
      });

      // From a shell without the server's key, or with another one: nothing sent, and why.
      const testArgs = ["destination", "test", "--account", accountId, "--destination", id];
      const [noKey, otherKey] = await Promise.all([
        runVelvet(testArgs, { ...env, STORE_TOKEN_KEY: "" }),
        runVelvet(testArgs, { ...env, STORE_TOKEN_KEY: "ab".repeat(32) }),
      ]);
      expect(noKey.code).toBe(1);
      expect(noKey.stdout).toBe("");
      expect(noKey.stderr).toMatch(
        /^velvet: Not sent: STORE_TOKEN_KEY is not set: .* it needs the STORE_TOKEN_KEY the server runs with .* Send a test under Settings → Integrations → Destinations/,
      );
      expect(otherKey.stderr).toMatch(
        /STORE_TOKEN_KEY is not the key the destination's secret was sealed with/,
      );
      expect(receiver.requests).toHaveLength(1);

      const listed = await runVelvet(["destination", "list", "--account", accountId], env);
      expect(listed.stdout).toContain(receiver.url);
      expect(listed.stdout).not.toContain(secret);
      expect(
        onlyJson(await runVelvet(["destination", "list", "--account", accountId, "--json"], env)),
      ).toMatchObject({
        destinations: [{ destinationId: id, secretHint: `…${secret.slice(-4)}` }],
      });

      // Without --yes: what would go, and nothing changes.
      const unconfirmed = await runVelvet(
        ["destination", "remove", "--account", accountId, "--destination", id],
        env,
      );
      expect(unconfirmed.code).toBe(0);
      expect(unconfirmed.stdout).toContain("Dry run: nothing was changed. Would remove webhook");
      expect(unconfirmed.stdout).toContain("Run again with --yes");
      expect(
        onlyJson(await runVelvet(["destination", "list", "--account", accountId, "--json"], env)),
      ).toMatchObject({ destinations: [{ destinationId: id }] });

      const removed = await runVelvet(
        ["destination", "remove", "--account", accountId, "--destination", id, "--yes"],
        env,
      );
      expect(removed.stdout).toContain(`Destination ${id} removed.`);
      expect(
        onlyJson(await runVelvet(["destination", "list", "--account", accountId, "--json"], env)),
      ).toEqual({ destinations: [] });
    });

    it("enables a webhook its receiver disabled with a 410 Gone, audited", async () => {
      const added = onlyJson(
        await runVelvet(
          [
            "destination",
            "add",
            "webhook",
            "--account",
            accountId,
            "--url",
            receiver.url,
            "--json",
          ],
          env,
        ),
      );
      const id = String(added.destinationId);
      // As a delivery answered 410 Gone leaves it (deliver-to-destination.ts, tested end to end
      // in webhook-gone-flow.test.ts).
      const db = openDatabase(database.target);
      try {
        await db.kysely
          .updateTable("destinations")
          .set({ disabled_at: Date.parse("2026-11-20T10:00:00Z"), disabled_reason: "410 gone" })
          .where("id", "=", id)
          .execute();
        const listed = await runVelvet(["destination", "list", "--account", accountId], env);
        expect(listed.stdout).toContain("DISABLED since 2026-11-20T10:00:00.000Z: 410 gone");
        const enable = ["destination", "enable", "--account", accountId, "--destination", id];
        expect(onlyJson(await runVelvet([...enable, "--json"], env))).toEqual({
          destinationId: id,
          enabled: true,
        });
        expect(
          onlyJson(await runVelvet(["destination", "list", "--account", accountId, "--json"], env)),
        ).toMatchObject({ destinations: [{ destinationId: id, disabledAt: null }] });
        const audit = await db.kysely
          .selectFrom("audit_events")
          .select(["action", "actor_kind"])
          .where("subject", "=", id)
          .where("action", "=", "destination.enabled")
          .execute();
        expect(audit).toEqual([{ action: "destination.enabled", actor_kind: "cli" }]);
      } finally {
        await removeDestination({ db, clock: { now: () => Date.now() } } as unknown as Deps, {
          accountId,
          destinationId: id,
          actor: cliActor("test"),
        });
        await db.close();
      }
    }, 60_000);

    it("refuses a private address, an unknown event and a missing key, saving nothing", async () => {
      const strict = {
        DATABASE_URL: database.url,
        STORE_TOKEN_KEY: STORE_SYNC_ENV.STORE_TOKEN_KEY,
      };
      const add = (url: string, extra: string[], e: Record<string, string>) =>
        runVelvet(
          ["destination", "add", "webhook", "--account", accountId, "--url", url, ...extra],
          e,
        );
      const privateUrl = await add("https://10.0.0.5/hook", [], strict);
      expect(privateUrl.code).toBe(1);
      expect(privateUrl.stderr).toContain("non-public address");
      const unknown = await add(receiver.url, ["--events", "customer.vip,order.paid"], env);
      expect(unknown.stderr).toContain("Unknown event order.paid");
      const noKey = await add("https://hooks.example.com/velvet", [], {
        DATABASE_URL: database.url,
      });
      expect(noKey.stderr).toContain("needs STORE_TOKEN_KEY");
      expect(
        onlyJson(await runVelvet(["destination", "list", "--account", accountId, "--json"], env)),
      ).toEqual({ destinations: [] });
    });
  });
}
