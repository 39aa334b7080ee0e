import { describe, expect, it } from "vitest";
import { excerpt } from "./excerpt.js";
import { withoutSecrets } from "./without-secrets.js";

describe("withoutSecrets", () => {
  const secret = "shpat_0123456789abcdef";

  it("takes every secret out of a message, and leaves short input alone", () => {
    expect(withoutSecrets(`refused (401 bad token ${secret}, ${secret})`, [secret])).toBe(
      "refused (401 bad token [secret hidden], [secret hidden])",
    );
    expect(withoutSecrets("Shopify did not accept", ["a"])).toBe("Shopify did not accept");
  });

  it("hides the start of a secret that an excerpt cut short", () => {
    const answer = `${"x".repeat(186)} token ${secret} refused`;
    const cut = `refused (401 ${excerpt(answer)})`;
    expect(cut).toContain(secret.slice(0, 3));
    const shown = withoutSecrets(cut, [secret]);
    expect(shown).toBe(`refused (401 ${"x".repeat(186)} token [secret hidden]…)`);
    // Text that merely ends where an excerpt stopped stays as it was.
    expect(withoutSecrets(`refused (401 ${excerpt("y".repeat(300))})`, [secret])).toBe(
      `refused (401 ${"y".repeat(200)}…)`,
    );
  });
});
