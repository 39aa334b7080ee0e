/**
 * No password in the docs can be pasted and used: every `--password` an example passes is
 * generated on the spot (`"$(openssl rand …)"`) or refused by the password rule.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { passwordProblem } from "../src/features/accounts/password-rule.js";
import { markdownFiles } from "./support/markdown-links.js";

/** The value after each `--password` in a text, unquoted. */
function examplePasswords(text: string): string[] {
  return [...text.matchAll(/--password[ =]+("[^"]*"|'[^']*'|\S+)/g)]
    .map((m) => (m[1] ?? "").replace(/^["']|["']$/g, ""))
    .filter((value) => !value.startsWith("<") && value !== "…" && !value.startsWith("`"));
}

describe("passwords in the docs", () => {
  it("are generated, or refused by the password rule", () => {
    const usable = markdownFiles().flatMap((file) =>
      examplePasswords(readFileSync(file, "utf8"))
        .filter((pw) => !pw.startsWith("$("))
        .filter((pw) => passwordProblem(pw, []) === null)
        .map((pw) => `${file}: ${pw}`),
    );
    expect(usable).toEqual([]);
  });

  it("finds the passwords of an example, and tells a usable one", () => {
    const text =
      "velvet account create --password 'velvet ledger orchard' --password \"$(openssl rand -base64 18)\" [--password <pw>]";
    expect(examplePasswords(text)).toEqual(["velvet ledger orchard", "$(openssl rand -base64 18)"]);
    expect(passwordProblem("velvet ledger orchard", [])).toBeNull();
    expect(passwordProblem("password123", [])).not.toBeNull();
  });
});
