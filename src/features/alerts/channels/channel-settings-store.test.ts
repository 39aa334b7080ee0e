/**
 * Channel settings at rest, on both engines: a secret setting is sealed under STORE_TOKEN_KEY
 * when there is one and opened on read; one stored without the key (an install that never set
 * it, or a value the migration copied) keeps working and is sealed on its next write with the
 * key; a sealed value does not open without the key, with another key, or on another account;
 * a setting that is not a secret is stored as typed; closing clears every setting.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ENGINES, type TestDatabase } from "../../../../test/support/databases.js";
import { type Db, openDatabase } from "../../../db/connect.js";
import { newId } from "../../../lib/ids.js";
import { clearChannelValues, readChannelValues, writeChannelValues } from "./channel-registry.js";
import { ChannelSettingUnreadableError } from "./channel-settings-store.js";

const KEY = randomBytes(32);
const WEBHOOK = "https://hooks.slack.com/services/T000/B000/abcdefghijklmnopqrstuvwx";

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`channel settings at rest (${engine.name})`, () => {
    let database: TestDatabase;
    let db: Db;

    beforeAll(async () => {
      database = await engine.createMigrated();
      db = openDatabase(database.target);
    });
    afterAll(async () => {
      await db?.close();
      await database?.drop();
    });

    async function newAccount(): Promise<string> {
      const id = newId();
      await db.kysely.insertInto("accounts").values({ id, name: "A", created_at: 1 }).execute();
      return id;
    }

    function rows(accountId: string) {
      return db.kysely
        .selectFrom("channel_settings")
        .select(["channel", "name", "value"])
        .where("account_id", "=", accountId)
        .orderBy("name")
        .execute();
    }

    /** A new account with both settings written by a process that has the key. */
    async function accountWithBoth(): Promise<string> {
      const id = await newAccount();
      await writeChannelValues(
        db.kysely,
        id,
        { slack_webhook_url: WEBHOOK, alert_emails: "team@acme.com" },
        KEY,
      );
      return id;
    }

    it("seals a secret with the key, opens it on read, and stores the rest as typed", async () => {
      const id = await accountWithBoth();
      const stored = await rows(id);
      expect(stored[0]).toEqual({ channel: "email", name: "alert_emails", value: "team@acme.com" });
      expect(stored[1]?.value).toMatch(/^v1:/);
      expect(JSON.stringify(stored)).not.toContain("abcdefghijklmnopqrstuvwx");
      expect(await readChannelValues(db.kysely, id, KEY)).toEqual({
        slack_webhook_url: WEBHOOK,
        alert_emails: "team@acme.com",
      });
    });

    it("keeps a secret stored without the key readable, and seals it on its next write", async () => {
      const id = await newAccount();
      await writeChannelValues(db.kysely, id, { slack_webhook_url: WEBHOOK }, null);
      expect((await rows(id))[0]?.value).toBe(WEBHOOK);
      expect(await readChannelValues(db.kysely, id, KEY)).toEqual({ slack_webhook_url: WEBHOOK });
      await writeChannelValues(db.kysely, id, { slack_webhook_url: WEBHOOK }, KEY);
      expect((await rows(id))[0]?.value).toMatch(/^v1:/);
      expect(await readChannelValues(db.kysely, id, KEY)).toEqual({ slack_webhook_url: WEBHOOK });
    });

    it("refuses to read a sealed secret without the key, with another key or on another account", async () => {
      const id = await newAccount();
      await writeChannelValues(db.kysely, id, { slack_webhook_url: WEBHOOK }, KEY);
      await expect(readChannelValues(db.kysely, id, null)).rejects.toThrow(
        ChannelSettingUnreadableError,
      );
      await expect(readChannelValues(db.kysely, id, randomBytes(32))).rejects.toThrow(
        /STORE_TOKEN_KEY is not the key/,
      );
      const other = await newAccount();
      const sealed = (await rows(id))[0]?.value as string;
      await db.kysely
        .insertInto("channel_settings")
        .values({ account_id: other, channel: "chat", name: "slack_webhook_url", value: sealed })
        .execute();
      await expect(readChannelValues(db.kysely, other, KEY)).rejects.toThrow(
        ChannelSettingUnreadableError,
      );
    });

    it("reads one channel's settings, or leaves out a secret it cannot open when asked", async () => {
      const id = await accountWithBoth();
      expect(await readChannelValues(db.kysely, id, null, { channel: "email" })).toEqual({
        alert_emails: "team@acme.com",
      });
      const omitted: string[] = [];
      const readable = await readChannelValues(db.kysely, id, null, {
        unreadable: "omit",
        onOmitted: (channel, name) => omitted.push(`${channel}.${name}`),
      });
      expect(readable).toEqual({ alert_emails: "team@acme.com" });
      // The caller hears what was left out (the VIP alert handler logs it).
      expect(omitted).toEqual(["chat.slack_webhook_url"]);
    });

    it("removes a setting written empty, leaves the others, and clears all at closing", async () => {
      const id = await accountWithBoth();
      await writeChannelValues(db.kysely, id, { slack_webhook_url: null }, KEY);
      expect(await readChannelValues(db.kysely, id, KEY)).toEqual({
        alert_emails: "team@acme.com",
      });
      await clearChannelValues(db.kysely, id);
      expect(await rows(id)).toEqual([]);
    });

    it("refuses a setting no channel declares", async () => {
      const id = await newAccount();
      await expect(writeChannelValues(db.kysely, id, { nope: "x" }, KEY)).rejects.toThrow(
        /no alert channel has a setting named nope/,
      );
    });
  });
}
