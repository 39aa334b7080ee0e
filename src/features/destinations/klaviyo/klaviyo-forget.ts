/**
 * Forgetting a person in Klaviyo without ever creating a profile. With `data-privacy:write` the
 * key asks Klaviyo to delete every profile with the e-mail (POST /api/data-privacy-deletion-jobs,
 * 202: the deletion runs on Klaviyo's side). A key without it is answered 403; then the profile
 * is looked up by e-mail (GET /api/profiles, `profiles:read`) and, only when it exists, Velvet's
 * properties are unset on it (PATCH /api/profiles/{id}, `profiles:write`): a profile the
 * merchant deleted stays deleted. The delivery then carries a note saying the profile itself
 * was not deleted, and why, for the attempt log.
 */
import type { OutboundRequest } from "../../../lib/outbound/outbound-http.js";
import type { DeliveryResult } from "../../alerts/delivery-result.js";
import type { DriverDeps } from "../destination-driver.js";
import { readAnswer } from "./klaviyo-answer.js";
import { deletionJob, emailFilter, ProfileList, unsetVelvetProperties } from "./klaviyo-profile.js";

export const NO_PRIVACY_SCOPE_NOTE =
  "The Klaviyo key lacks the data-privacy:write scope, so the profile itself was not deleted";

interface KlaviyoCall {
  baseUrl: string;
  revision: string;
  headers: Record<string, string>;
}

export async function forgetInKlaviyo(
  deps: DriverDeps,
  call: KlaviyoCall,
  email: string,
  signal: AbortSignal,
): Promise<DeliveryResult> {
  const send = async (request: Omit<OutboundRequest, "headers">) =>
    readAnswerWithBody(
      await deps.http.send({ ...request, headers: call.headers }, signal),
      call.revision,
    );
  const deleted = await send({
    url: `${call.baseUrl}/api/data-privacy-deletion-jobs`,
    method: "POST",
    body: JSON.stringify(deletionJob(email)),
  });
  if (deleted.result.statusCode !== 403) return deleted.result;

  const query = new URLSearchParams({ filter: emailFilter(email), "fields[profile]": "email" });
  const found = await send({ url: `${call.baseUrl}/api/profiles?${query}`, method: "GET" });
  if (found.result.outcome !== "delivered") return found.result;
  const ids = ProfileList.safeParse(safeJson(found.body));
  if (!ids.success)
    return { outcome: "retry", statusCode: found.result.statusCode, error: "unreadable profiles" };
  const profile = ids.data.data[0];
  if (profile === undefined) {
    return {
      outcome: "delivered",
      statusCode: found.result.statusCode,
      error: `${NO_PRIVACY_SCOPE_NOTE}; Klaviyo has no profile with this e-mail, so nothing was changed.`,
    };
  }
  const unset = await send({
    url: `${call.baseUrl}/api/profiles/${encodeURIComponent(profile.id)}`,
    method: "PATCH",
    body: JSON.stringify(unsetVelvetProperties(profile.id)),
  });
  if (unset.result.outcome !== "delivered") return unset.result;
  return {
    outcome: "delivered",
    statusCode: unset.result.statusCode,
    error: `${NO_PRIVACY_SCOPE_NOTE}; Velvet's properties were removed from it.`,
  };
}

function readAnswerWithBody(res: Parameters<typeof readAnswer>[0], revision: string) {
  return { result: readAnswer(res, revision), body: res.kind === "answered" ? res.body : "" };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
