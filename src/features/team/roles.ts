/**
 * The three roles of a merchant's team, highest first. What each may do is declared per route
 * (dashboard/session/role-guard.ts) and, for what depends on the target (an admin may not
 * remove an owner), checked again in the use case.
 */
import type { UserRole } from "../../db/schema.js";

export type { UserRole };

export const ROLES: readonly UserRole[] = ["owner", "admin", "member"];

const RANK: Record<UserRole, number> = { owner: 3, admin: 2, member: 1 };

export const ROLE_LABELS: Record<UserRole, string> = {
  owner: "Owner",
  admin: "Admin",
  member: "Member",
};

export function isRole(value: unknown): value is UserRole {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** True when `role` may do what `needed` may. */
export function atLeast(role: UserRole, needed: UserRole): boolean {
  return RANK[role] >= RANK[needed];
}

/**
 * Whether `authority` may hand out `role` (invite with it, make someone it, cancel or replace an
 * invitation with it): an owner and the operator any role, an admin admin and member, a member
 * none.
 */
export function mayGrant(authority: UserRole | "operator", role: UserRole): boolean {
  if (authority === "operator" || authority === "owner") return true;
  return authority === "admin" && role !== "owner";
}
