import { describe, expect, it } from "vitest";
import { normalizeShop, shopDomain } from "./shopify-client.js";

describe("the shop a merchant pastes", () => {
  it("is read from the domain, its address, the admin's address or the bare name", () => {
    for (const pasted of [
      "acme.myshopify.com",
      "  ACME.myshopify.com ",
      "https://acme.myshopify.com",
      "https://acme.myshopify.com/admin/orders?inventory=1",
      "acme.myshopify.com/",
      "https://admin.shopify.com/store/acme",
      "https://admin.shopify.com/store/acme/orders/1234",
      "admin.shopify.com/store/acme/settings/apps/development",
      "acme",
    ])
      expect(shopDomain(pasted), pasted).toBe("acme.myshopify.com");
    expect(normalizeShop("https://admin.shopify.com/store/acme/orders", false)).toBe(
      "acme.myshopify.com",
    );
  });

  it("refuses what is not a Shopify shop, in words a merchant reads", () => {
    for (const pasted of ["https://acme.com", "acme shop", "evil.myshopify.com.example", ""])
      expect(shopDomain(pasted), pasted).toBeNull();
    expect(() => normalizeShop("https://acme.com", false)).toThrow(
      "The shop's address must be its myshopify.com domain",
    );
  });
});
