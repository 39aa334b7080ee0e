/**
 * Reading the enrichment's profile (a JSON column) for display. It is written by the enrichment
 * feature; anything that does not have the expected shape is shown as absent, never thrown.
 * (Its signals are read by the enrichment feature's `readStoredSignals`.)
 */
import { z } from "zod";

const SocialSchema = z.object({
  network: z.string(),
  handle: z.string().nullable().optional(),
  url: z.string().nullable().optional(),
  followers: z.number().nullable().optional(),
});

const ProfileSchema = z.object({
  fullName: z.string().optional(),
  title: z.string().optional(),
  seniority: z.string().optional(),
  company: z.string().optional(),
  companyDomain: z.string().optional(),
  companyEmployees: z.number().optional(),
  companyRevenueUsd: z.number().optional(),
  inferredSalaryUsd: z.number().optional(),
  householdIncomeUsd: z.number().optional(),
  netWorthUsd: z.number().optional(),
  homeValueUsd: z.number().optional(),
  location: z.string().optional(),
  social: z.array(SocialSchema).optional(),
});

export type ProfileView = z.infer<typeof ProfileSchema>;

export function parseProfile(json: string | null | undefined): ProfileView {
  if (!json) return {};
  try {
    const value: unknown = JSON.parse(json);
    if (typeof value !== "object" || value === null) return {};
    // Field by field, so one odd field does not hide the others.
    const out: Record<string, unknown> = {};
    for (const [key, schema] of Object.entries(ProfileSchema.shape)) {
      const parsed = schema.safeParse((value as Record<string, unknown>)[key]);
      if (parsed.success && parsed.data !== undefined) out[key] = parsed.data;
    }
    return out as ProfileView;
  } catch {
    return {};
  }
}
