/** The Customers list's filters, read from the query string with safe defaults. */
import type { EnrichmentStatus } from "../../../db/schema.js";
import { MAX_TIER_NAME_LENGTH } from "../../customers/tiers.js";

export type CustomerSort = "recent" | "score";

export interface CustomerListQuery {
  q: string;
  vip: boolean;
  status: EnrichmentStatus | null;
  /** A tier's name ("" in the URL: any tier); an unknown one matches nobody. */
  tier: string | null;
  sort: CustomerSort;
  page: number;
}

const STATUSES: ReadonlySet<string> = new Set(["pending", "enriched", "failed"]);
export const MAX_PAGE = 10_000;

export function parseCustomerListQuery(raw: Record<string, unknown>): CustomerListQuery {
  const str = (v: unknown) => (typeof v === "string" ? v : "");
  const page = Number.parseInt(str(raw.page), 10);
  const status = str(raw.status);
  return {
    q: str(raw.q).trim().slice(0, 200),
    vip: str(raw.vip) === "1",
    status: STATUSES.has(status) ? (status as EnrichmentStatus) : null,
    tier: str(raw.tier).trim().slice(0, MAX_TIER_NAME_LENGTH) || null,
    sort: str(raw.sort) === "score" ? "score" : "recent",
    page: Number.isFinite(page) && page >= 1 ? Math.min(page, MAX_PAGE) : 1,
  };
}

export function customerListParams(q: CustomerListQuery, page = q.page) {
  return {
    q: q.q,
    vip: q.vip ? "1" : null,
    status: q.status,
    tier: q.tier,
    sort: q.sort === "score" ? "score" : null,
    page: page > 1 ? page : null,
  };
}
