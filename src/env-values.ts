/** The shapes of environment values that config.ts and the declared kinds' variables share. */
import { z } from "zod";

/** A yes/no variable: `true`, `1` and `yes` are yes. */
export const boolish = z
  .enum(["true", "false", "1", "0", "yes", "no", ""])
  .transform((v) => v === "true" || v === "1" || v === "yes");

/** An amount in USD, such as a price per lookup. */
export const decimalUsd = z
  .string()
  .regex(/^\d{1,6}(\.\d{1,6})?$/, "must be a non-negative decimal such as 0.05");
