/**
 * Every alert channel, in one list: the order is the order alerts are queued in and channels
 * are listed in. A channel is registered here and nowhere else; what names channels is built
 * from this list (alert-channel.ts), and the compiler holds the list and the `alerts.channel`
 * column's type (db/schema.ts, AlertChannel) to the same names.
 */
import type { Kysely, Transaction } from "kysely";
import type { AlertChannel, Database } from "../../../db/schema.js";
import type {
  AlertChannelDefinition,
  ChannelColumn,
  ChannelSetting,
  ChannelValues,
} from "./alert-channel.js";
import { chatChannel } from "./chat/chat-channel.js";
import { emailChannel } from "./email/email-channel.js";

export const CHANNELS = [
  chatChannel,
  emailChannel,
] as const satisfies readonly AlertChannelDefinition[];

export type ChannelName = (typeof CHANNELS)[number]["name"];

/** A compile error names the side that is missing a channel: the list or AlertChannel. */
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

/** The `accounts` columns that hold channel settings. */
export const CHANNEL_COLUMNS: readonly ChannelColumn[] = CHANNEL_SETTINGS.map((s) => s.column);

/** Every channel setting removed, as a closed account keeps them. */
export const NO_CHANNEL_SETTINGS: ChannelValues = Object.fromEntries(
  CHANNEL_COLUMNS.map((column) => [column, null]),
);

/** Removes what each channel keeps about an account beyond its settings (account closing). */
export async function closeAccountChannels(
  trx: Transaction<Database> | Kysely<Database>,
  accountId: string,
): Promise<void> {
  const channels: readonly AlertChannelDefinition[] = CHANNELS;
  for (const channel of channels) await channel.closeAccount?.(trx, accountId);
}

/** An account's stored channel settings; undefined when there is no such account. */
export function readChannelValues(
  db: Kysely<Database>,
  accountId: string,
): Promise<ChannelValues | undefined> {
  return db
    .selectFrom("accounts")
    .select(CHANNEL_COLUMNS)
    .where("id", "=", accountId)
    .executeTakeFirst();
}

/**
 * Each channel setting as `velvet account set` prints it ("Chat webhook: https://…/…uvwx"):
 * secrets masked, "none" when not set.
 */
export async function describeChannelSettings(
  db: Kysely<Database>,
  accountId: string,
): Promise<string[]> {
  const values = (await readChannelValues(db, accountId)) ?? {};
  const lines: string[] = [];
  for (const setting of CHANNEL_SETTINGS) {
    const stored = values[setting.column] ?? null;
    const shown = setting.describe
      ? await setting.describe(db, accountId, stored)
      : setting.show(stored);
    lines.push(`${setting.cliLabel}: ${shown ?? "none"}`);
  }
  return lines;
}

/** Which channels an account has set up (stored settings, by column). */
export function configuredChannels(values: ChannelValues): Record<ChannelName, boolean> {
  return Object.fromEntries(CHANNELS.map((c) => [c.name, c.target(values) !== null])) as Record<
    ChannelName,
    boolean
  >;
}
