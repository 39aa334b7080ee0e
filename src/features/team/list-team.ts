/** Settings → Team and `velvet user list`: the members and the pending invitations. */
import type { Kysely } from "kysely";
import type { Database } from "../../db/schema.js";
import type { UserRole } from "./roles.js";

export interface TeamMember {
  userId: string;
  email: string;
  role: UserRole;
  /** Epoch ms, null when never signed in. */
  lastSignInAt: number | null;
  /** False until the person chose a password (a `velvet user add` link not yet used). */
  hasPassword: boolean;
  createdAt: number;
}

export interface PendingInvitation {
  email: string;
  role: UserRole;
  createdAt: number;
  expiresAt: number;
}

export async function listTeam(
  db: Kysely<Database>,
  accountId: string,
  now: number,
): Promise<{ members: TeamMember[]; invitations: PendingInvitation[] }> {
  const [users, invitations] = await Promise.all([
    db
      .selectFrom("users")
      .select(["id", "email", "role", "last_sign_in_at", "password_hash", "created_at"])
      .where("account_id", "=", accountId)
      .orderBy("created_at")
      .orderBy("id")
      .execute(),
    db
      .selectFrom("user_invitations")
      .select(["email", "role", "created_at", "expires_at"])
      .where("account_id", "=", accountId)
      .where("used_at", "is", null)
      .where("expires_at", ">", now)
      .orderBy("created_at")
      .execute(),
  ]);
  return {
    members: users.map((u) => ({
      userId: u.id,
      email: u.email,
      role: u.role,
      lastSignInAt: u.last_sign_in_at,
      hasPassword: u.password_hash !== null,
      createdAt: u.created_at,
    })),
    invitations: invitations.map((i) => ({
      email: i.email,
      role: i.role,
      createdAt: i.created_at,
      expiresAt: i.expires_at,
    })),
  };
}
