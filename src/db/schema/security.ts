/**
 * What guards signing in and signing up (features/security): the browsers known to have signed
 * in as a user, the attempts counted against an e-mail and an address, the locks a throttle's
 * check holds, and the sign-up requests waiting for their mailed link to be followed.
 */
import type { Generated } from "kysely";

/** A browser that signed in as the user (the device cookie's SHA-256): password-reset budget. */
export interface KnownDevicesTable {
  token_hash: string;
  user_id: string;
  created_at: number;
  expires_at: number;
}

/** What is throttled: log-ins, sign-ups, confirmation mails for alert addresses, reset requests. */
export type AuthAction =
  | "login"
  | "signup"
  | "alert-email"
  | "invitation-email"
  | "password-reset"
  | "password-reset-device";
/** pending: reserved, the password is being checked; failed/succeeded: settled. */
export type AuthAttemptState = "pending" | "failed" | "succeeded";

export interface AuthAttemptsTable {
  id: string;
  action: AuthAction;
  /** The normalised e-mail the attempt named (whether or not an account has it). */
  email: string;
  /** The client address, as Fastify determined it under TRUST_PROXY. */
  ip: string;
  attempted_at: number;
  state: AuthAttemptState;
  /** 1 once a successful log-in forgave it: no longer counted against the e-mail. */
  email_forgiven: Generated<number>;
}

export interface ThrottleLocksTable {
  key: string;
  touched_at: number;
}

export interface SignupRequestsTable {
  /** SHA-256 of the token in the mailed link. */
  token_hash: string;
  email: string;
  store_name: string;
  password_hash: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}
