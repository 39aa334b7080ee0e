/**
 * Parses the body of POST /api/v1/orders into an OrderSubmission, or a 400 message.
 *
 * Order of checks: the body must be an object; then missing required fields, reported together
 * in the contract's exact form ("Missing required fields: email, firstName"); then each field in
 * the order the contract lists them, first problem wins. Absent, null and "" count as missing.
 * Unknown fields are ignored.
 */
import { isDecimalString } from "../../lib/decimal.js";
import { checkEmail } from "./email-address.js";

const REQUIRED = ["email", "firstName", "lastName"] as const;
const CURRENCIES = new Set(Intl.supportedValuesOf("currency"));

/**
 * The checks are plain functions made once, each field's messages built when the module loads:
 * this runs on every order, and a general schema library cost several times more per request.
 * A check returns the field's value or throws its first problem as an Invalid.
 */
class Invalid {
  constructor(readonly message: string) {}
}

type Check<T> = (value: unknown) => T;

function text(field: string, max: number): Check<string> {
  const notString = new Invalid(`${field} must be a string`);
  const tooLong = new Invalid(`${field} must be at most ${max} characters`);
  return (value) => {
    if (typeof value !== "string") throw notString;
    if (value.length > max) throw tooLong;
    return value;
  };
}

/** Absent, null, blank: null; else the trimmed string. */
function optionalText(field: string, max: number): Check<string | null> {
  const check = text(field, max);
  return (value) => {
    if (value === undefined || value === null) return null;
    const trimmed = check(value).trim();
    return trimmed === "" ? null : trimmed;
  };
}

function name(field: string): Check<string> {
  const check = text(field, 200);
  const blank = new Invalid(`${field} must not be blank`);
  return (value) => {
    const trimmed = check(value).trim();
    if (trimmed === "") throw blank;
    return trimmed;
  };
}

const emailText = text("email", 254);
const INVALID_EMAIL = new Invalid("email is not a valid e-mail address");
const DISPOSABLE_EMAIL = new Invalid(
  "email uses a disposable e-mail domain, which is not accepted",
);

function email(value: unknown): string {
  const verdict = checkEmail(emailText(value));
  if (verdict === "invalid") throw INVALID_EMAIL;
  if (verdict === "disposable") throw DISPOSABLE_EMAIL;
  return value as string;
}

/** An optional object: absent or null is null; anything but a plain object is its message. */
function objectOf<T>(field: string, read: (o: Record<string, unknown>) => T): Check<T | null> {
  const notObject = new Invalid(`${field} must be an object`);
  return (value) => {
    if (value === undefined || value === null) return null;
    if (typeof value !== "object" || Array.isArray(value)) throw notObject;
    return read(value as Record<string, unknown>);
  };
}

const city = optionalText("address.city", 200);
const state = optionalText("address.state", 100);
const zipcode = optionalText("address.zipcode", 20);
const country = optionalText("address.country", 100);
const readAddress = objectOf("address", (o) => ({
  city: city(o.city),
  state: state(o.state),
  zipcode: zipcode(o.zipcode),
  country: country(o.country),
}));

const orderId = optionalText("order.id", 255);
const orderNumber = optionalText("order.number", 255);
const totalText = optionalText("order.total", 40);
const BAD_TOTAL = new Invalid(
  'order.total must be a non-negative decimal string, such as "129.90"',
);
const currencyText = optionalText("order.currency", 3);
const BAD_CURRENCY = new Invalid('order.currency must be an ISO 4217 currency code, such as "USD"');
const readOrder = objectOf("order", (o) => {
  const id = orderId(o.id);
  const number = orderNumber(o.number);
  const total = totalText(o.total);
  if (total !== null && !isDecimalString(total)) throw BAD_TOTAL;
  const currency = (currencyText(o.currency) ?? "USD").toUpperCase();
  if (!CURRENCIES.has(currency)) throw BAD_CURRENCY;
  return { id, number, total, currency };
});

const firstName = name("firstName");
const lastName = name("lastName");
const phone = optionalText("phone", 50);

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

  try {
    // The contract's order: each field as listed, the first problem wins.
    const value = {
      email: email(record.email).trim(),
      firstName: firstName(record.firstName),
      lastName: lastName(record.lastName),
      phone: phone(record.phone),
      address: readAddress(record.address),
      order: readOrder(record.order),
    };
    const { address, order } = value;
    if (address !== null && Object.values(address).every((x) => x === null)) value.address = null;
    // An order object with no field set carries no order data: no order record is made.
    if (order !== null && (order.id ?? order.number ?? order.total) === null) value.order = null;
    return { ok: true, value };
  } catch (error) {
    if (error instanceof Invalid) return { ok: false, message: error.message };
    throw error;
  }
}
