/** Where channel settings are stored: `accounts` columns, one a setting (alert-channel.ts). */
import type { Selectable } from "kysely";
import type { AccountsTable } from "../../../db/schema.js";

type AccountRow = Selectable<AccountsTable>;

/** The `accounts` columns a channel may keep a setting in: the text ones that may be empty. */
export type ChannelColumn = {
  [K in keyof AccountRow]: AccountRow[K] extends string | null
    ? null extends AccountRow[K]
      ? K
      : never
    : never;
}[keyof AccountRow];

/** An account's stored channel settings, by column. */
export type ChannelValues = Partial<Record<ChannelColumn, string | null>>;
