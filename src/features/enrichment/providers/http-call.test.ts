import { describe, expect, it } from "vitest";
import { classifyStatus, type HttpAnswer } from "./http-call.js";

const answer = (
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): HttpAnswer => ({
  status,
  headers: new Headers(headers),
  body,
  isJson: typeof body !== "string",
});

describe("a provider's refusal, read the common way or in its own words", () => {
  it("reads the error shapes most providers use, and sorts the status", () => {
    expect(
      classifyStatus("pdl", answer(401, { error: { message: "Invalid API key" } }), 0),
    ).toMatchObject({
      kind: "permanent",
      error: "HTTP 401: Invalid API key",
    });
    expect(
      classifyStatus("enrichlayer", answer(503, { description: "Enrichment failed" }), 0),
    ).toMatchObject({
      kind: "transient",
      error: "HTTP 503: Enrichment failed",
    });
    expect(
      classifyStatus("fullcontact", answer(429, "slow down", { "retry-after": "7" }), 0),
    ).toMatchObject({
      kind: "transient",
      cause: "rate_limited",
      retryAfterMs: 7_000,
      error: "HTTP 429: slow down",
    });
    expect(classifyStatus("pdl", answer(404, {}), 0).kind).toBe("not_found");
  });

  it("takes the provider's own reading when its body has another shape, else the common one", () => {
    // A shape the common reading does not know: a list of errors with their details.
    const body = { errors: [{ id: "wrong_params", details: "The email is invalid" }] };
    const said = (b: unknown) =>
      (b as { errors?: Array<{ details?: string }> }).errors?.map((e) => e.details).join("; ");
    expect(classifyStatus("pdl", answer(400, body), 0).kind).toBe("permanent");
    expect(classifyStatus("pdl", answer(400, body), 0)).toMatchObject({ error: "HTTP 400" });
    expect(classifyStatus("pdl", answer(400, body), 0, said)).toMatchObject({
      error: "HTTP 400: The email is invalid",
    });
    expect(classifyStatus("pdl", answer(400, { message: "Bad" }), 0, said)).toMatchObject({
      error: "HTTP 400: Bad",
    });
  });
});
