/** CSV records as RFC 4180 writes them, with formula-like text defused (OWASP CSV Injection). */
import { describe, expect, it } from "vitest";
import { csvField, csvRecord, defuseFormula } from "./csv.js";

describe("CSV", () => {
  it("quotes text, doubles its quotes, keeps commas and line breaks inside the field", () => {
    expect(csvRecord(["Doe, Jane", 'say "hi"', "two\nlines"])).toBe(
      '"Doe, Jane","say ""hi""","two\nlines"\r\n',
    );
  });

  it("writes numbers and booleans bare, null as an empty field", () => {
    expect(csvRecord([92, true, false, null, "x"])).toBe('92,true,false,,"x"\r\n');
    expect(csvField(Number.NaN)).toBe("");
  });

  it("writes every cell a spreadsheet would run as a formula as text", () => {
    for (const text of ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx", "\nx"])
      expect(defuseFormula(text)).toBe(`'${text}`);
    expect(csvField('=HYPERLINK("http://evil.example","x")')).toBe(
      `"'=HYPERLINK(""http://evil.example"",""x"")"`,
    );
    for (const text of ["Jane", "a=b", "", "'quoted", " =x"])
      expect(defuseFormula(text)).toBe(text);
  });
});
