/**
 * The ECB's daily file read strictly: the real shape gives the day; everything else (an error
 * page, a body cut short, several days, a bad entry) is refused with a reason.
 */
import { describe, expect, it } from "vitest";
import { ecbDailyXml } from "../../../test/support/fake-ecb.js";
import { BUNDLED_RATES_FILE } from "./load-bundled-rates.js";
import { parseEcbDailyXml } from "./parse-ecb-daily-xml.js";
import { readRatesCsv } from "./read-rates-csv.js";

function reason(body: string): string {
  const parsed = parseEcbDailyXml(body);
  if (parsed.ok) throw new Error("expected a refusal");
  return parsed.reason;
}

describe("parseEcbDailyXml", () => {
  it("reads the day, its date and every currency of the ECB's daily file", async () => {
    const parsed = parseEcbDailyXml(ecbDailyXml("2025-05-09"));
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(parsed.day.date).toBe("2025-05-09");
    expect(parsed.day.source).toBe("ECB");
    expect(parsed.day.rates.get("USD")).toBe("1.1252");
    expect(parsed.day.rates.get("JPY")).toBe("163.36");
    expect(parsed.day.rates.get("IDR")).toBe("18606.59");
    // The same figures as the file Velvet ships.
    const shipped = await readRatesCsv(BUNDLED_RATES_FILE);
    expect(shipped.date).toBe("2025-05-09");
    expect([...parsed.day.rates]).toEqual([...shipped.rates]);
    expect(parsed.day.rates.size).toBe(30);
  });

  it("accepts double quotes and a document on one line", () => {
    const oneLine = ecbDailyXml("2025-05-12").replaceAll("'", '"').replace(/>\s+</g, "><");
    const parsed = parseEcbDailyXml(oneLine);
    expect(parsed.ok && parsed.day.date).toBe("2025-05-12");
  });

  it.each([
    ["an HTML error page", "<html><body>Service unavailable</body></html>", "gesmes:Envelope"],
    ["an empty body", "", "gesmes:Envelope"],
    ["a body cut short", ecbDailyXml().slice(0, 900), "cut short"],
    [
      "the 90-day file",
      ecbDailyXml().replace(
        "<Cube time='2025-05-09'>",
        "<Cube time='2025-05-09'></Cube><Cube time='2025-05-08'>",
      ),
      "holds 2 days",
    ],
    ["a date that is not one", ecbDailyXml("2025-02-30"), '"2025-02-30" is not a date'],
    [
      "a rate that is not a number",
      ecbDailyXml().replace("rate='163.36'", "rate='N/A'"),
      'the rate for JPY ("N/A") is not a positive decimal',
    ],
    [
      "a zero rate",
      ecbDailyXml().replace("rate='163.36'", "rate='0.00'"),
      "not a positive decimal",
    ],
    [
      "a currency twice",
      ecbDailyXml().replace("currency='JPY'", "currency='USD'"),
      "it quotes USD twice",
    ],
    [
      "no US dollar",
      ecbDailyXml().replace("<Cube currency='USD' rate='1.1252'/>", ""),
      "no rate for the US dollar",
    ],
    [
      "something else among the rates",
      ecbDailyXml().replace("<Cube currency='JPY' rate='163.36'/>", "<Note>x</Note>"),
      "unexpected content",
    ],
    [
      "a handful of currencies",
      ecbDailyXml().replace(/\s*<Cube currency='(?!USD|JPY)[A-Z]{3}' rate='[^']*'\/>/g, ""),
      "fewer than the 10 of a whole day",
    ],
  ])("refuses %s", (_name, body, expected) => {
    expect(reason(body)).toContain(expected);
  });
});
