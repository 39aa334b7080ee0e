/**
 * Which of an order's two addresses stands for the customer: the billing address when it has a
 * ZIP, else the shipping address when that one has a ZIP (a store that takes no billing address,
 * or only a country for it, still knows where the order went), else whichever has anything, the
 * billing address first. One address is taken whole (city, state, ZIP and country together),
 * never a city from one and a ZIP from the other.
 */

export interface AddressParts {
  city?: string | null;
  state?: string | null;
  zipcode?: string | null;
  country?: string | null;
}

const present = (text: string | null | undefined): boolean =>
  typeof text === "string" && text.trim() !== "";

const anything = (a: AddressParts | null | undefined): a is AddressParts =>
  a != null && [a.city, a.state, a.zipcode, a.country].some(present);

export function customerAddress(
  billing: AddressParts | null | undefined,
  shipping: AddressParts | null | undefined,
): AddressParts | null {
  if (present(billing?.zipcode)) return billing ?? null;
  if (present(shipping?.zipcode)) return shipping ?? null;
  if (anything(billing)) return billing;
  if (anything(shipping)) return shipping;
  return null;
}
