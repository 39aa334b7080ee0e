/**
 * Which ZIP Code Tabulation Area an address falls in, for the affluent-area signal. Only US
 * addresses have ZCTAs: the country must be empty (the contract's default market), a spelling
 * of the United States, or Puerto Rico (US ZIP codes, and the Census publishes its ZCTAs).
 * A ZIP+4 ("02139-4307") counts by its first five digits.
 */
export type ZipLookupKey =
  | { kind: "zcta"; zcta: string }
  | { kind: "no_zip" }
  | { kind: "not_us"; country: string }
  | { kind: "invalid_zip"; zipcode: string };

const US_COUNTRIES = new Set([
  "us",
  "usa",
  "united states",
  "united states of america",
  "pr",
  "pri",
  "puerto rico",
]);

const US_ZIP = /^(\d{5})(?:[-\s]?\d{4})?$/;

export function isUsCountry(country: string | null): boolean {
  const c = (country ?? "").trim().toLowerCase().replaceAll(".", "");
  return c === "" || US_COUNTRIES.has(c);
}

export function zipLookupKey(zipcode: string | null, country: string | null): ZipLookupKey {
  const zip = (zipcode ?? "").trim();
  if (!isUsCountry(country)) return { kind: "not_us", country: (country ?? "").trim() };
  if (zip === "") return { kind: "no_zip" };
  const m = US_ZIP.exec(zip);
  return m?.[1] ? { kind: "zcta", zcta: m[1] } : { kind: "invalid_zip", zipcode: zip };
}
