/**
 * Where alert channel settings live: `channel_settings`, one row per account, channel and
 * setting that has a value (no row: not set), so a new channel's settings need no migration.
 * Every read and write of them goes through here.
 *
 * A setting declared `secret` (a webhook URL: whoever holds it can post to the channel) is
 * sealed at rest by lib/sealer.ts under STORE_TOKEN_KEY, the key that protects store
 * credentials and destination secrets, with the account, channel and setting as additional
 * data, so a value copied onto another row does not open. Without the key a secret is stored as
 * typed, as it always could be; once the key is set, each secret is sealed on its next write
 * (a migration has no key). A sealed value (`v1:…`) read by a process without the key, or with
 * another one, is an error that names the key: every process needs the same STORE_TOKEN_KEY.
 * Reading needs no registry: a stored value is sealed exactly when it begins with `v1:` (no
 * setting's check lets such text through: a URL, an address list), and the row names its
 * channel and setting, the sealed value's additional data.
 */
import type { Kysely, Transaction } from "kysely";
import { z } from "zod";
import { preparedQuery } from "../../../db/prepared-query.js";
import type { Database } from "../../../db/schema.js";
import { createSealer } from "../../../lib/sealer.js";
import type { ChannelValues } from "./channel-values.js";

/** The key that seals secret settings (STORE_TOKEN_KEY); null: stored as typed. */
export type SettingsKey = Buffer | null;

type Db = Transaction<Database> | Kysely<Database>;

const sealer = createSealer(z.object({ value: z.string() }));
const SEALED = /^v1:/;

export class ChannelSettingUnreadableError extends Error {
  override name = "ChannelSettingUnreadableError";
}

/** Which channel holds a setting, and whether it is a secret (the registry knows). */
export interface SettingPlace {
  channel: string;
  secret: boolean;
}

function additionalData(accountId: string, channel: string, name: string): string {
  return `${accountId}:${channel}:${name}`;
}

function stored(
  key: SettingsKey,
  accountId: string,
  place: SettingPlace,
  name: string,
  value: string,
): string {
  if (!place.secret || key === null) return value;
  return sealer.seal(key, additionalData(accountId, place.channel, name), { value });
}

function opened(
  key: SettingsKey,
  accountId: string,
  channel: string,
  name: string,
  value: string,
): string {
  if (!SEALED.test(value)) return value;
  if (key === null)
    throw new ChannelSettingUnreadableError(
      `STORE_TOKEN_KEY is not set: the sealed alert setting ${name} cannot be read`,
    );
  try {
    return sealer.open(key, additionalData(accountId, channel, name), value).value;
  } catch {
    throw new ChannelSettingUnreadableError(
      `STORE_TOKEN_KEY is not the key the alert setting ${name} was sealed with: set it again`,
    );
  }
}

/** Prepared once (db/prepared-query.ts): they run for every VIP and every alert sent. */
const accountSettings = preparedQuery(["accountId"], (db, v: { accountId: string }) =>
  db
    .selectFrom("channel_settings")
    .select(["channel", "name", "value"])
    .where("account_id", "=", v.accountId),
);
const channelSettings = preparedQuery(
  ["accountId", "channel"],
  (db, v: { accountId: string; channel: string }) =>
    db
      .selectFrom("channel_settings")
      .select(["channel", "name", "value"])
      .where("account_id", "=", v.accountId)
      .where("channel", "=", v.channel),
);

/**
 * An account's channel settings, by key, secrets opened; a setting not set is absent. `channel`:
 * that channel's only. `unreadable: "omit"` leaves out a sealed secret this process cannot open
 * (its channel is then off here) instead of throwing.
 */
export async function readChannelValues(
  db: Db,
  accountId: string,
  key: SettingsKey,
  options: {
    channel?: string;
    unreadable?: "throw" | "omit";
    /** Told of each secret left out with `unreadable: "omit"`. */
    onOmitted?: (channel: string, name: string) => void;
  } = {},
): Promise<ChannelValues> {
  const rows =
    options.channel === undefined
      ? await accountSettings.execute(db, { accountId })
      : await channelSettings.execute(db, { accountId, channel: options.channel });
  const values: ChannelValues = {};
  for (const row of rows) {
    try {
      values[row.name] = opened(key, accountId, row.channel, row.name, row.value);
    } catch (error) {
      if (!(error instanceof ChannelSettingUnreadableError) || options.unreadable !== "omit")
        throw error;
      options.onOmitted?.(row.channel, row.name);
    }
  }
  return values;
}

/** Writes the settings given (null or "": removed); those not given stay as they are. */
export async function writeStoredValues(
  db: Db,
  places: ReadonlyMap<string, SettingPlace>,
  accountId: string,
  values: ChannelValues,
  key: SettingsKey,
): Promise<void> {
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined) continue;
    const place = places.get(name);
    if (place === undefined) throw new Error(`no alert channel has a setting named ${name}`);
    const where = { account_id: accountId, channel: place.channel, name };
    if (value === null || value === "") {
      await db
        .deleteFrom("channel_settings")
        .where("account_id", "=", accountId)
        .where("channel", "=", place.channel)
        .where("name", "=", name)
        .execute();
      continue;
    }
    const sealed = stored(key, accountId, place, name, value);
    await db
      .insertInto("channel_settings")
      .values({ ...where, value: sealed })
      .onConflict((oc) =>
        oc.columns(["account_id", "channel", "name"]).doUpdateSet({ value: sealed }),
      )
      .execute();
  }
}

/** Removes every channel setting of the account (account closing). */
export async function clearStoredValues(db: Db, accountId: string): Promise<void> {
  await db.deleteFrom("channel_settings").where("account_id", "=", accountId).execute();
}
