/**
 * Creates an account with its one store, its owner (a login when a password is given) and a
 * first API key, in one transaction.
 */
import type { Kysely } from "kysely";
import { isUniqueViolation } from "../../db/errors.js";
import type { Database } from "../../db/schema.js";
import { AppError } from "../../lib/app-error.js";
import { newId } from "../../lib/ids.js";
import { createApiKey } from "../api-keys/create-api-key.js";
import { normalizeEmail } from "../orders/email-address.js";
import { newAccountSettings } from "./settings/read-account-settings.js";

export interface CreateAccountProps {
  name: string;
  ownerEmail: string;
  passwordHash: string | null;
  vipThreshold?: number;
  /**
   * Only if no account exists yet (SIGNUP unset: the first account signs up, then sign-up
   * closes). Checked under a lock row, so two racing sign-ups cannot both be first.
   */
  onlyIfFirst?: boolean;
}

/** Thrown by createAccount({ onlyIfFirst }) when an account already exists. */
export class NotFirstAccountError extends Error {
  override name = "NotFirstAccountError";
}

export interface CreatedAccount {
  accountId: string;
  storeId: string;
  userId: string;
  keyId: string;
  apiKey: string;
}

export async function createAccount(
  db: Kysely<Database>,
  props: CreateAccountProps,
  now: number,
): Promise<CreatedAccount> {
  try {
    return await db.transaction().execute(async (trx) => {
      if (props.onlyIfFirst) {
        await trx
          .insertInto("throttle_locks")
          .values({ key: "signup:first-account", touched_at: now })
          .onConflict((oc) => oc.column("key").doUpdateSet({ touched_at: now }))
          .execute();
        const existing = await trx.selectFrom("accounts").select("id").limit(1).executeTakeFirst();
        if (existing) throw new NotFirstAccountError("an account already exists");
      }
      const accountId = newId(now);
      const storeId = newId(now);
      const userId = newId(now);
      await trx
        .insertInto("accounts")
        .values({
          id: accountId,
          name: props.name,
          ...newAccountSettings({ vipThreshold: props.vipThreshold }),
          created_at: now,
        })
        .execute();
      await trx
        .insertInto("stores")
        .values({ id: storeId, account_id: accountId, name: props.name, created_at: now })
        .execute();
      await trx
        .insertInto("users")
        .values({
          id: userId,
          account_id: accountId,
          email: props.ownerEmail.trim(),
          email_normalized: normalizeEmail(props.ownerEmail),
          password_hash: props.passwordHash,
          created_at: now,
        })
        .execute();
      const key = await createApiKey(trx, storeId, now);
      return { accountId, storeId, userId, ...key };
    });
  } catch (error) {
    if (isUniqueViolation(error)) {
      throw new AppError("conflict", `An account for ${props.ownerEmail.trim()} already exists`);
    }
    throw error;
  }
}
