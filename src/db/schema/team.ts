/**
 * The people who sign in to an account (features/team): users and their roles, their dashboard
 * sessions, invitations to join the team, and the links to choose a new password.
 */
import type { Generated } from "kysely";

export interface UsersTable {
  id: string;
  account_id: string;
  email: string;
  email_normalized: string;
  password_hash: string | null;
  created_at: number;
  /** owner, admin or member (features/team/roles.ts); read on every request. */
  role: Generated<UserRole>;
  last_sign_in_at: Generated<number | null>;
}

export type UserRole = "owner" | "admin" | "member";

export interface SessionsTable {
  /** SHA-256 of the cookie value: a stolen database does not yield live sessions. */
  id_hash: string;
  user_id: string;
  account_id: string;
  csrf_token: string;
  created_at: number;
  expires_at: number;
  /** Where and with what it signed in (Profile's session list); null for older sessions. */
  ip: Generated<string | null>;
  browser: Generated<string | null>;
  last_seen_at: Generated<number | null>;
}

/** A pending invitation to join an account's team: single use, 7 days. */
export interface UserInvitationsTable {
  /** SHA-256 of the token in the link. */
  token_hash: string;
  account_id: string;
  email: string;
  email_normalized: string;
  role: UserRole;
  /** The inviter's user id (or "cli:<os user>"). */
  invited_by: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** A link to choose a new password: single use, 1 hour. */
export interface PasswordResetsTable {
  /** SHA-256 of the token in the link. */
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}
