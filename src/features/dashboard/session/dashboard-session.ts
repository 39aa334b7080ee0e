/** The signed-in user as every dashboard page sees it: who, which account, which store. */
export interface DashboardSession {
  /** The cookie value: never stored; the database keeps only its SHA-256 (`idHash`). */
  rawId: string;
  idHash: string;
  userId: string;
  userEmail: string;
  accountId: string;
  accountName: string;
  /** The account's store (an account has one store today; every query is still scoped by account). */
  storeId: string;
  vipThreshold: number;
  csrfToken: string;
  expiresAt: number;
}

declare module "fastify" {
  interface FastifyRequest {
    dashboardSession?: DashboardSession;
  }
}
