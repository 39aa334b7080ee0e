import { describe, expect, it } from "vitest";
import { detectFormat, type Row } from "./import-formats.js";

const rowOf =
  (header: string[], values: string[]): Row =>
  (column) => {
    const i = header.findIndex((h) => h.trim().toLowerCase() === column);
    const v = i < 0 ? undefined : values[i];
    return v === undefined || v === "" ? null : v;
  };

describe("detectFormat", () => {
  it("recognises each export by its header, whatever the case, order and a byte-order mark", () => {
    expect(detectFormat(["\uFEFFName", "Email", "Total", "Created at", "Billing Name"])?.name).toBe(
      "shopify",
    );
    expect(detectFormat(["order_date", "ORDER_ID", "billing_email", "order_total"])?.name).toBe(
      "woocommerce",
    );
    expect(detectFormat(["email", "first_name", "last_name", "ordered_at", "total"])?.name).toBe(
      "plain",
    );
    expect(detectFormat(["email", "name", "total"])).toBeNull();
  });

  it("splits Shopify's billing name at the last space and falls back to the shipping name", () => {
    const header = ["Name", "Email", "Total", "Created at", "Billing Name", "Shipping Name", "Id"];
    const shopify = detectFormat(header);
    const read = (values: string[]) => shopify?.read(rowOf(header, values));
    expect(read(["#1", "a@x.com", "1.00", "2024-01-01", "Mary Ann Evans", "", "77"])).toMatchObject(
      {
        firstName: "Mary Ann",
        lastName: "Evans",
        orderId: "77",
        orderNumber: "#1",
      },
    );
    expect(read(["#2", "a@x.com", "1.00", "2024-01-01", "", "George Eliot", ""])).toMatchObject({
      firstName: "George",
      lastName: "Eliot",
      orderId: "#2",
    });
    expect(read(["#3", "a@x.com", "1.00", "2024-01-01", "Cher", "", "9"])).toMatchObject({
      firstName: "Cher",
      lastName: null,
    });
  });

  it("removes Shopify's leading apostrophe from ZIP and phone columns, and reads the shipping address when there is no billing one", () => {
    const header = [
      "Name",
      "Email",
      "Total",
      "Created at",
      "Billing Name",
      "Billing City",
      "Billing Zip",
      "Billing Country",
      "Billing Phone",
      "Shipping City",
      "Shipping Zip",
      "Shipping Country",
      "Shipping Phone",
      "Id",
    ];
    const shopify = detectFormat(header);
    const read = (values: string[]) => shopify?.read(rowOf(header, values));
    const billed = ["#1", "a@x.com", "1.00", "2024-01-01", "Ada Lovelace", "Atherton"];
    expect(
      read([...billed, "'94027", "US", "'+1 650 555 0100", "Boston", "'02134", "US", "", "7"]),
    ).toMatchObject({ city: "Atherton", zipcode: "94027", phone: "+1 650 555 0100" });
    const shipped = ["#2", "a@x.com", "1.00", "2024-01-01", "Ada Lovelace", "", "", "", ""];
    expect(read([...shipped, "Boston", "'02134", "US", "'+1 617 555 0100", "8"])).toMatchObject({
      city: "Boston",
      zipcode: "02134",
      country: "US",
      phone: "+1 617 555 0100",
    });
  });

  it("reads the shipping address, whole, when the billing address has no ZIP", () => {
    const header = [
      "Name",
      "Email",
      "Total",
      "Created at",
      "Billing Name",
      "Billing City",
      "Billing Zip",
      "Billing Province",
      "Billing Country",
      "Shipping City",
      "Shipping Zip",
      "Shipping Province",
      "Shipping Country",
    ];
    const shopify = detectFormat(header);
    const start = ["#1", "a@x.com", "1.00", "2024-01-01", "Ada Lovelace"];
    // Billing without a ZIP (a city and country only): the shipping address, all four parts.
    expect(
      shopify?.read(
        rowOf(header, [...start, "London", "", "", "GB", "Beverly Hills", "'90210", "CA", "US"]),
      ),
    ).toMatchObject({ city: "Beverly Hills", zipcode: "90210", state: "CA", country: "US" });
    // Neither has a ZIP: the billing address as it is, nothing taken from shipping.
    expect(
      shopify?.read(rowOf(header, [...start, "London", "", "", "GB", "Paris", "", "", "FR"])),
    ).toMatchObject({ city: "London", zipcode: null, state: null, country: "GB" });

    const wooHeader = [
      "order_id",
      "billing_email",
      "order_total",
      "order_date",
      "billing_city",
      "billing_state",
      "billing_postcode",
      "billing_country",
      "shipping_city",
      "shipping_state",
      "shipping_postcode",
      "shipping_country",
    ];
    const woo = detectFormat(wooHeader);
    const wooStart = ["7", "a@x.com", "1.00", "2024-01-01"];
    expect(
      woo?.read(rowOf(wooHeader, [...wooStart, "", "", "", "GB", "Boston", "MA", "02134", "US"])),
    ).toMatchObject({ city: "Boston", state: "MA", zipcode: "02134", country: "US" });
    expect(
      woo?.read(
        rowOf(wooHeader, [
          ...wooStart,
          "Atherton",
          "CA",
          "94027",
          "US",
          "Boston",
          "MA",
          "02134",
          "US",
        ]),
      ),
    ).toMatchObject({ city: "Atherton", state: "CA", zipcode: "94027", country: "US" });
  });
});
