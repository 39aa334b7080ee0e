/**
 * The customer event's body as stored with each delivery (enqueue-deliveries.ts) and read by
 * every driver: `{type, timestamp, data}`, `data` holding the customer and what the event says
 * about them (destination-driver.ts's glossary names the events).
 */
import { z } from "zod";
import { ERASURE_REASONS } from "../privacy/privacy-registry.js";

const Reason = z.object({ label: z.string(), value: z.string().nullable(), points: z.number() });

export const CustomerEventBody = z.object({
  type: z.string(),
  timestamp: z.string(),
  data: z.object({
    customer: z.object({
      id: z.string(),
      email: z.string(),
      firstName: z.string().optional(),
      lastName: z.string().optional(),
      /** The store's customer id, when the store sync knows it (Shopify takes only these). */
      shopifyId: z.string().optional(),
    }),
    score: z.number().optional(),
    threshold: z.number().optional(),
    /** The account's tier the score reached; null: none (absent in bodies from before tiers). */
    tier: z.string().nullable().optional(),
    vip: z.boolean().optional(),
    reasons: z.array(Reason).optional(),
    historical: z.boolean().optional(),
    /** customer.forgotten: why; a body without one is not taken for the person's request. */
    reason: z.enum(ERASURE_REASONS).optional(),
  }),
});
export type CustomerEventBody = z.infer<typeof CustomerEventBody>;
