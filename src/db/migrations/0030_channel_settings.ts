import { type Kysely, PostgresAdapter, type RawBuilder, sql } from "kysely";

/**
 * Alert channel settings as data (features/alerts/channels/channel-settings-store.ts).
 * - `channel_settings`: one row per account, channel and setting that has a value (a webhook
 *   URL, an address list); no row: not set. A secret setting's value is sealed under
 *   STORE_TOKEN_KEY when the process that wrote it had the key (`v1:…`), plain text otherwise.
 *   Removed when the account is closed, like its other settings.
 * - The values of `accounts.slack_webhook_url` (channel `chat`) and `accounts.alert_emails`
 *   (channel `email`) are copied as they were stored, then those columns are dropped. A
 *   migration has no key: a webhook URL copied here is sealed on its next write by a process
 *   with STORE_TOKEN_KEY.
 * - `vip_verdicts.source` accepts any name: the application checks it against the sources it
 *   knows (the dashboard, the CLI, the registered channels), so a new channel needs no
 *   migration. SQLite cannot drop a CHECK: the table is rebuilt, inside the migration's
 *   transaction.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("channel_settings")
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
    .addColumn("channel", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .addPrimaryKeyConstraint("channel_settings_pk", ["account_id", "channel", "name"])
    .execute();
  await copyColumn(db, "chat", "slack_webhook_url");
  await copyColumn(db, "email", "alert_emails");
  await db.schema.alterTable("accounts").dropColumn("slack_webhook_url").execute();
  await db.schema.alterTable("accounts").dropColumn("alert_emails").execute();

  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    await sql`alter table vip_verdicts drop constraint vip_verdicts_source_check`.execute(db);
  } else {
    await rebuildVipVerdictsOnSqlite(db);
  }
}

async function copyColumn(db: Kysely<unknown>, channel: string, column: string): Promise<void> {
  const ref: RawBuilder<unknown> = sql.ref(column);
  await sql`insert into channel_settings (account_id, channel, name, value)
    select id, ${channel}, ${column}, ${ref} from accounts
    where ${ref} is not null and ${ref} <> ''`.execute(db);
}

async function rebuildVipVerdictsOnSqlite(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable("vip_verdicts_new")
    .addColumn("customer_id", "text", (c) => c.primaryKey().references("customers.id"))
    .addColumn("account_id", "text", (c) => c.notNull().references("accounts.id"))
    .addColumn("verdict", "text", (c) =>
      c.notNull().check(sql`verdict in (${sql.lit("right")}, ${sql.lit("wrong")})`),
    )
    .addColumn("source", "text", (c) => c.notNull())
    .addColumn("given_by", "text")
    .addColumn("given_at", "bigint", (c) => c.notNull())
    .execute();
  await sql`insert into vip_verdicts_new (customer_id, account_id, verdict, source, given_by, given_at)
    select customer_id, account_id, verdict, source, given_by, given_at from vip_verdicts`.execute(
    db,
  );
  await db.schema.dropTable("vip_verdicts").execute();
  await sql`alter table vip_verdicts_new rename to vip_verdicts`.execute(db);
  await db.schema
    .createIndex("vip_verdicts_account_idx")
    .on("vip_verdicts")
    .columns(["account_id", "given_at"])
    .execute();
}
