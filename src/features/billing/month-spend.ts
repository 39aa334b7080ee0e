/**
 * What an account's paid lookups cost in a month, as the provider spend ledger adds it up
 * (provider-spend.ts): the sum of the month's rows, one per provider. It is the one figure of
 * spend: the budget's reservations (monthly-budget.ts), its notices and the Billing page read it
 * here, inside the statement that needs it.
 */
import { type Expression, type RawBuilder, sql } from "kysely";

/**
 * The month's spend in micro-dollars (0 with no lookups), as a subquery: the account and month
 * are values, or references to the outer statement's columns (`sql.ref("accounts.id")`). A
 * number on SQLite, a string on PostgreSQL (a bigint sum).
 */
export function monthSpendMicros(
  accountId: Expression<string> | string,
  month: Expression<string> | string,
): RawBuilder<number | string> {
  return sql<number | string>`(select coalesce(sum(amount_micros), 0) from provider_spend
    where provider_spend.account_id = ${accountId} and provider_spend.month = ${month})`;
}
