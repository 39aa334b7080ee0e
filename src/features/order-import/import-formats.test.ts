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
});
