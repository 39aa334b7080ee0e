/**
 * Glossary of tiers:
 * - tier: a name an account gives to a score floor ("Gold" from 90). The VIP threshold stays
 *   the VIP line; a tier may sit above or below it and changes no decision.
 * - a customer's tier: the tier with the highest floor their score reaches; none when the score
 *   is below every floor, or when there is no score yet (`tierOf`).
 *
 * One module for everything tiers mean, so the dashboard, the CLI, alerts, destinations and the
 * lists never disagree: the rules a tier list must follow (`parseTiers`, shared by the CLI flag
 * and the Alerts settings form), how it is stored (`accounts.tiers`, JSON, highest floor first)
 * and `tierOf`, a pure function of the score and the list.
 */

export interface Tier {
  name: string;
  floor: number;
}

export const MAX_TIER_NAME_LENGTH = 40;

export const TIERS_RULE = `Tiers are written NAME:FLOOR, separated by commas (for example "Gold:90, Silver:80"): each name at most ${MAX_TIER_NAME_LENGTH} characters, without commas or colons, and each floor a different whole number from 0 to 100.`;

export type TiersCheck = { ok: true; tiers: Tier[] } | { ok: false; errors: string[] };

/** Highest floor first: the order `tierOf` reads and everything shows. */
function byFloor(tiers: Tier[]): Tier[] {
  return [...tiers].sort((a, b) => b.floor - a.floor);
}

/**
 * "Gold:90, Silver:80" (commas or new lines between tiers) → the tiers, highest floor first; ""
 * → none. Every problem is named, not only the first.
 */
export function parseTiers(text: string): TiersCheck {
  const errors: string[] = [];
  const tiers: Tier[] = [];
  const parts = text
    .split(/[,\n]/)
    .map((p) => p.trim())
    .filter((p) => p !== "");
  for (const part of parts) {
    const pieces = part.split(":");
    if (pieces.length !== 2) {
      errors.push(
        pieces.length < 2
          ? `"${part}" is not NAME:FLOOR (for example Gold:90)`
          : `"${part}": a tier name cannot contain a colon`,
      );
      continue;
    }
    const name = (pieces[0] ?? "").trim();
    const floorText = (pieces[1] ?? "").trim();
    let good = true;
    if (name === "") {
      errors.push(`"${part}" has no tier name before the colon`);
      good = false;
    } else if (name.length > MAX_TIER_NAME_LENGTH) {
      errors.push(`the tier name "${name}" is longer than ${MAX_TIER_NAME_LENGTH} characters`);
      good = false;
    } else if (/\p{Cc}/u.test(name)) {
      errors.push(`the tier name "${name}" contains a control character`);
      good = false;
    }
    if (!/^\d{1,3}$/.test(floorText) || Number(floorText) > 100) {
      errors.push(
        `the floor of "${name || part}" must be a whole number from 0 to 100, not "${floorText}"`,
      );
      good = false;
    }
    if (good) tiers.push({ name, floor: Number(floorText) });
  }
  const names = new Map<string, string>();
  const floors = new Map<number, string>();
  for (const t of tiers) {
    const key = t.name.toLowerCase();
    const sameName = names.get(key);
    if (sameName !== undefined)
      errors.push(`two tiers are named "${sameName}": each tier needs its own name`);
    else names.set(key, t.name);
    const sameFloor = floors.get(t.floor);
    if (sameFloor !== undefined)
      errors.push(
        `"${sameFloor}" and "${t.name}" have the same floor ${t.floor}: each tier needs its own floor`,
      );
    else floors.set(t.floor, t.name);
  }
  return errors.length > 0 ? { ok: false, errors } : { ok: true, tiers: byFloor(tiers) };
}

/** The customer's tier: the highest floor their score reaches; null below every floor. */
export function tierOf(score: number | null | undefined, tiers: readonly Tier[]): string | null {
  if (score === null || score === undefined) return null;
  let best: Tier | null = null;
  for (const t of tiers) if (score >= t.floor && (best === null || t.floor > best.floor)) best = t;
  return best?.name ?? null;
}

/**
 * The scores a tier covers: from its floor up to (not including) the next higher floor; null
 * when the account has no tier of that name (compared without case, as names are unique so).
 */
export function tierRange(
  name: string,
  tiers: readonly Tier[],
): { min: number; below: number | null } | null {
  const tier = tiers.find((t) => t.name.toLowerCase() === name.trim().toLowerCase());
  if (tier === undefined) return null;
  const higher = tiers.filter((t) => t.floor > tier.floor).map((t) => t.floor);
  return { min: tier.floor, below: higher.length === 0 ? null : Math.min(...higher) };
}

/** The stored JSON as tiers; anything unreadable reads as none (the column is only ever ours). */
export function readTiers(json: string | null | undefined): Tier[] {
  try {
    const value: unknown = JSON.parse(json ?? "[]");
    if (!Array.isArray(value)) return [];
    return byFloor(
      value.filter(
        (t): t is Tier =>
          typeof t === "object" &&
          t !== null &&
          typeof (t as Tier).name === "string" &&
          typeof (t as Tier).floor === "number",
      ),
    );
  } catch {
    return [];
  }
}

export function storedTiers(tiers: readonly Tier[]): string {
  return JSON.stringify(byFloor([...tiers]).map(({ name, floor }) => ({ name, floor })));
}

/** "Gold:90, Silver:80": how tiers are typed, so a shown list can be typed back as it is. */
export function formatTiers(tiers: readonly Tier[]): string {
  return tiers.map((t) => `${t.name}:${t.floor}`).join(", ");
}
