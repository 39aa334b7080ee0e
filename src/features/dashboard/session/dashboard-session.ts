/** The signed-in user as every dashboard page sees it: who, which account, which store. */
import type { UserRole } from "../../../db/schema.js";

export interface DashboardSession {
  /** The cookie value: never stored; the database keeps only its SHA-256 (`idHash`). */
  rawId: string;
  idHash: string;
  userId: string;
  userEmail: string;
  /** Read from `users` on every request: a demotion applies at once (session/role-guard.ts). */
  role: UserRole;
  accountId: string;
  accountName: string;
  /** The account's store (an account has one store today; every query is still scoped by account). */
  storeId: string;
  vipThreshold: number;
  /** This month's lookup budget: 80 % spent ("nearly"), or stopping paid lookups ("spent"). */
  budgetNotice: "nearly" | "spent" | null;
  csrfToken: string;
  expiresAt: number;
}

declare module "fastify" {
  interface FastifyRequest {
    dashboardSession?: DashboardSession;
  }
}
