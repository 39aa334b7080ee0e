/** The tiers: named score floors (features/customers/tiers.ts), stored as JSON. */
import {
  formatTiers,
  MAX_TIER_NAME_LENGTH,
  parseTiers,
  readTiers,
  storedTiers,
  TIERS_RULE,
  type Tier,
} from "../../customers/tiers.js";
import { defineSetting } from "./account-setting.js";

export const tiers = defineSetting({
  column: "tiers",
  label: "Tiers",
  default: [] as Tier[],
  parse(text: string) {
    const checked = parseTiers(text);
    if (!checked.ok) return { ok: false, problem: `${checked.errors.join("; ")}.` };
    return { ok: true, value: checked.tiers };
  },
  text: (value: Tier[]) => formatTiers(value),
  store: storedTiers,
  read: readTiers,
  role: "admin",
  audit: {
    action: "alert_settings.changed",
    detail: "tiers",
    show: (value: Tier[]) => formatTiers(value) || "none",
  },
  form: {
    page: "alerts",
    name: "tiers",
    title: "Tiers",
    label: "Tiers by score",
    help: `Optional names for score ranges, written NAME:FLOOR and separated by commas: a customer's tier is the one with the highest floor their score reaches. Names are unique, at most ${MAX_TIER_NAME_LENGTH} characters, without commas or colons; floors are different whole numbers from 0 to 100, above or below the threshold (the threshold alone decides who is a VIP). Tiers show on the Customers pages, in alerts and go to your destinations. Leave empty for none.`,
    input: { kind: "text", placeholder: "Gold:90, Silver:80", autocomplete: "off" },
  },
  cli: {
    flag: "--tiers <Name:floor,…>",
    description: `named score floors, e.g. "Gold:90,Silver:80" ("" removes them). ${TIERS_RULE}`,
  },
});
