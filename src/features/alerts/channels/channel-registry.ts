/**
 * Every alert channel, in one list: the order is the order alerts are queued in and channels
 * are listed in. A channel is registered here and nowhere else; what names channels is built
 * from this list (alert-channel.ts), and the compiler holds the list and the `alerts.channel`
 * column's type (db/schema.ts, AlertChannel: the names each channel's folder adds to
 * AlertChannelNames) to the same names. Settings are stored through channel-settings-store.ts.
 */
import type { Kysely, Transaction } from "kysely";
import type { AlertChannel, Database } from "../../../db/schema.js";
import type { AlertChannelDefinition, ChannelSetting, ChannelValues } from "./alert-channel.js";
import {
  clearStoredValues,
  readChannelValues,
  type SettingPlace,
  type SettingsKey,
  writeStoredValues,
} from "./channel-settings-store.js";
import { chatChannel } from "./chat/chat-channel.js";
import { emailChannel } from "./email/email-channel.js";

export const CHANNELS = [
  chatChannel,
  emailChannel,
] as const satisfies readonly AlertChannelDefinition[];

export type ChannelName = (typeof CHANNELS)[number]["name"];

/** A compile error names the side that is missing a channel: the list or AlertChannelNames. */
type Missing<A, B> = Exclude<A, B> extends never ? true : Exclude<A, B>;
const everyStoredChannelRegistered: Missing<AlertChannel, ChannelName> = true;
const everyRegisteredChannelStorable: Missing<ChannelName, AlertChannel> = true;
void everyStoredChannelRegistered;
void everyRegisteredChannelStorable;

export const CHANNEL_NAMES = CHANNELS.map((c) => c.name) as [ChannelName, ...ChannelName[]];

const BY_NAME = Object.fromEntries(CHANNELS.map((c) => [c.name, c])) as {
  [N in ChannelName]: Extract<(typeof CHANNELS)[number], { name: N }>;
};

export function channelNamed<N extends ChannelName>(name: N): (typeof BY_NAME)[N] {
  return BY_NAME[name];
}

/** How the dashboard names each channel ("Team chat"). */
export const CHANNEL_LABELS = Object.fromEntries(CHANNELS.map((c) => [c.name, c.label])) as Record<
  ChannelName,
  string
>;

/** Every channel's settings, in the order the CLI and the forms list them. */
export const CHANNEL_SETTINGS: readonly ChannelSetting[] = CHANNELS.flatMap(
  (c): readonly ChannelSetting[] => c.settings,
);

/** Where each setting is stored: its channel, and whether it is sealed. */
const PLACES: ReadonlyMap<string, SettingPlace> = new Map(
  CHANNELS.flatMap((c) =>
    c.settings.map((s): [string, SettingPlace] => [s.key, { channel: c.name, secret: s.secret }]),
  ),
);

export { readChannelValues };

/** Removes what each channel keeps about an account beyond its settings (account closing). */
export async function closeAccountChannels(
  trx: Transaction<Database> | Kysely<Database>,
  accountId: string,
): Promise<void> {
  const channels: readonly AlertChannelDefinition[] = CHANNELS;
  for (const channel of channels) await channel.closeAccount?.(trx, accountId);
}

/** Stores the settings given (null: removed; secrets sealed when there is a key). */
export function writeChannelValues(
  db: Transaction<Database> | Kysely<Database>,
  accountId: string,
  values: ChannelValues,
  key: SettingsKey,
): Promise<void> {
  return writeStoredValues(db, PLACES, accountId, values, key);
}

/** Removes every channel setting of the account and what each channel keeps beside them. */
export async function clearChannelValues(
  trx: Transaction<Database> | Kysely<Database>,
  accountId: string,
): Promise<void> {
  await clearStoredValues(trx, accountId);
  await closeAccountChannels(trx, accountId);
}

/**
 * Each channel setting as `velvet account set` prints it ("Chat webhook: https://…/…uvwx"):
 * secrets masked, "none" when not set.
 */
export async function describeChannelSettings(
  db: Kysely<Database>,
  accountId: string,
  key: SettingsKey,
): Promise<string[]> {
  const values = await readChannelValues(db, accountId, key);
  const lines: string[] = [];
  for (const setting of CHANNEL_SETTINGS) {
    const stored = values[setting.key] ?? null;
    const shown = setting.describe
      ? await setting.describe(db, accountId, stored)
      : setting.show(stored);
    lines.push(`${setting.cliLabel}: ${shown ?? "none"}`);
  }
  return lines;
}

/** Which channels an account has set up (stored settings, by key). */
export function configuredChannels(values: ChannelValues): Record<ChannelName, boolean> {
  return Object.fromEntries(CHANNELS.map((c) => [c.name, c.target(values) !== null])) as Record<
    ChannelName,
    boolean
  >;
}
