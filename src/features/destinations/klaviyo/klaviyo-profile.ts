/**
 * What Velvet writes on a Klaviyo profile: its own properties, prefixed `velvet_` so that the
 * merchant's other properties are never touched, set from a customer event and unset (with
 * `meta.patch_properties.unset`) when the person is forgotten. The profile itself is the
 * merchant's and stays.
 */
import { z } from "zod";

export const VELVET_PROPERTIES = [
  "velvet_vip",
  "velvet_score",
  "velvet_threshold",
  "velvet_reasons",
  "velvet_historical",
  "velvet_scored_at",
] as const;

const Reason = z.object({ label: z.string(), value: z.string().nullable(), points: z.number() });

/** The customer event's body as stored with the delivery (enqueue-deliveries.ts). */
export const CustomerEventBody = z.object({
  type: z.string(),
  timestamp: z.string(),
  data: z.object({
    customer: z.object({
      id: z.string(),
      email: z.string(),
      firstName: z.string().optional(),
      lastName: z.string().optional(),
    }),
    score: z.number().optional(),
    threshold: z.number().optional(),
    vip: z.boolean().optional(),
    reasons: z.array(Reason).optional(),
    historical: z.boolean().optional(),
  }),
});
export type CustomerEventBody = z.infer<typeof CustomerEventBody>;

/** "Seniority: c_level (+25)", one line per reason: Klaviyo properties are flat values. */
function reasonLines(reasons: z.infer<typeof Reason>[]): string {
  return reasons
    .map((r) => `${r.label}${r.value === null ? "" : `: ${r.value}`} (+${r.points})`)
    .join("; ");
}

/** A JSON:API `profile` for POST /api/profile-import: an upsert by e-mail. */
export function profileImport(event: CustomerEventBody) {
  const { customer } = event.data;
  if (event.type === "customer.forgotten") {
    return {
      data: {
        type: "profile",
        attributes: { email: customer.email },
        meta: { patch_properties: { unset: [...VELVET_PROPERTIES] } },
      },
    };
  }
  return {
    data: {
      type: "profile",
      attributes: {
        email: customer.email,
        ...(customer.firstName ? { first_name: customer.firstName } : {}),
        ...(customer.lastName ? { last_name: customer.lastName } : {}),
        properties: {
          velvet_vip: event.data.vip ?? false,
          velvet_score: event.data.score ?? null,
          velvet_threshold: event.data.threshold ?? null,
          velvet_reasons: reasonLines(event.data.reasons ?? []),
          velvet_historical: event.data.historical ?? false,
          velvet_scored_at: event.timestamp,
        },
      },
    },
  };
}
