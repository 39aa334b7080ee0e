/**
 * Parses the body of POST /api/v1/orders into an OrderSubmission, or a 400 message.
 *
 * Order of checks: the body must be an object; then missing required fields, reported together
 * in the contract's exact form ("Missing required fields: email, firstName"); then each field in
 * the order the contract lists them, first problem wins. Absent, null and "" count as missing.
 * Unknown fields are ignored.
 */
import { z } from "zod";
import { isDecimalString } from "../../lib/decimal.js";
import { checkEmail } from "./email-address.js";

const REQUIRED = ["email", "firstName", "lastName"] as const;
const CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

const text = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a string` })
    .max(max, { error: `${field} must be at most ${max} characters` });

const optionalText = (field: string, max: number) =>
  text(field, max)
    .nullish()
    .transform((v) => (v === undefined || v === null || v.trim() === "" ? null : v.trim()));

const name = (field: string) =>
  text(field, 200)
    .refine((v) => v.trim() !== "", { error: `${field} must not be blank` })
    .transform((v) => v.trim());

const email = text("email", 254).superRefine((value, ctx) => {
  const verdict = checkEmail(value);
  if (verdict === "invalid")
    ctx.addIssue({ code: "custom", message: "email is not a valid e-mail address" });
  if (verdict === "disposable")
    ctx.addIssue({
      code: "custom",
      message: "email uses a disposable e-mail domain, which is not accepted",
    });
});

const objectOf = <T extends z.ZodRawShape>(field: string, shape: T) =>
  z.object(shape, { error: `${field} must be an object` });

const AddressSchema = objectOf("address", {
  city: optionalText("address.city", 200),
  state: optionalText("address.state", 100),
  zipcode: optionalText("address.zipcode", 20),
  country: optionalText("address.country", 100),
});

const OrderSchema = objectOf("order", {
  id: optionalText("order.id", 255),
  number: optionalText("order.number", 255),
  total: optionalText("order.total", 40).refine((v) => v === null || isDecimalString(v), {
    error: 'order.total must be a non-negative decimal string, such as "129.90"',
  }),
  currency: optionalText("order.currency", 3)
    .transform((v) => (v === null ? "USD" : v.toUpperCase()))
    .refine((v) => CURRENCIES.has(v), {
      error: 'order.currency must be an ISO 4217 currency code, such as "USD"',
    }),
});

const OrderRequestSchema = z.object({
  email,
  firstName: name("firstName"),
  lastName: name("lastName"),
  phone: optionalText("phone", 50),
  address: AddressSchema.nullish(),
  order: OrderSchema.nullish(),
});

export interface Address {
  city: string | null;
  state: string | null;
  zipcode: string | null;
  country: string | null;
}

export interface OrderSubmission {
  email: string;
  firstName: string;
  lastName: string;
  phone: string | null;
  address: Address | null;
  order: {
    id: string | null;
    number: string | null;
    total: string | null;
    currency: string;
  } | null;
}

export type ParseResult = { ok: true; value: OrderSubmission } | { ok: false; message: string };

export function parseOrderRequest(body: unknown): ParseResult {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return { ok: false, message: "Request body must be a JSON object" };
  }
  const record = body as Record<string, unknown>;
  const missing = REQUIRED.filter(
    (f) => record[f] === undefined || record[f] === null || record[f] === "",
  );
  if (missing.length > 0)
    return { ok: false, message: `Missing required fields: ${missing.join(", ")}` };

  const parsed = OrderRequestSchema.safeParse(record);
  if (!parsed.success) {
    return { ok: false, message: parsed.error.issues[0]?.message ?? "Invalid request body" };
  }
  const v = parsed.data;
  const address = v.address ?? null;
  const order = v.order ?? null;
  return {
    ok: true,
    value: {
      email: v.email.trim(),
      firstName: v.firstName,
      lastName: v.lastName,
      phone: v.phone,
      address: address && Object.values(address).some((x) => x !== null) ? address : null,
      // An order object with no field set carries no order data: no order record is made.
      order: order && (order.id ?? order.number ?? order.total) !== null ? order : null,
    },
  };
}
