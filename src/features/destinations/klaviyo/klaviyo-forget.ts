/**
 * Forgetting a person in Klaviyo without ever creating a profile, by why they were forgotten
 * (the body's `reason`, an ErasureReason):
 * - the person's own erasure request (`erasure_request`): with `data-privacy:write` the key asks
 *   Klaviyo to delete every profile with the e-mail (POST /api/data-privacy-deletion-jobs, 202:
 *   the deletion runs on Klaviyo's side). A key without it is answered 403; then Velvet's
 *   properties are unset as below, and the delivery carries a note saying the profile itself
 *   was not deleted, and why, for the attempt log;
 * - any other reason (Velvet's retention, the account closed), or a body without a reason: the
 *   profile is the merchant's and stays. It is looked up by e-mail
 *   (GET /api/profiles, `profiles:read`) and, only when it exists, Velvet's properties are unset
 *   on it (PATCH /api/profiles/{id}, `profiles:write`): no profile is deleted, and one the
 *   merchant deleted is not created again.
 */
import type { OutboundRequest } from "../../../lib/outbound/outbound-http.js";
import type { DeliveryResult } from "../../alerts/delivery-result.js";
import type { ErasureReason } from "../../privacy/privacy-registry.js";
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

type Send = (
  request: Omit<OutboundRequest, "headers">,
) => Promise<{ result: DeliveryResult; body: string }>;

export async function forgetInKlaviyo(
  deps: DriverDeps,
  call: KlaviyoCall,
  forgotten: { email: string; reason: ErasureReason | undefined },
  signal: AbortSignal,
): Promise<DeliveryResult> {
  const send: Send = async (request) =>
    readAnswerWithBody(
      await deps.http.send({ ...request, headers: call.headers }, signal),
      call.revision,
    );
  // Only the person's own request deletes the profile; anything else (no reason included) keeps it.
  if (forgotten.reason !== "erasure_request")
    return unsetOnExistingProfile(send, call.baseUrl, forgotten.email, null);

  const deleted = await send({
    url: `${call.baseUrl}/api/data-privacy-deletion-jobs`,
    method: "POST",
    body: JSON.stringify(deletionJob(forgotten.email)),
  });
  if (deleted.result.statusCode !== 403) return deleted.result;
  return unsetOnExistingProfile(send, call.baseUrl, forgotten.email, NO_PRIVACY_SCOPE_NOTE);
}

/**
 * Velvet's properties unset on the profile with this e-mail, only if there is one; `note`
 * (why the profile itself stays, when that needs saying) heads what the attempt log shows.
 */
async function unsetOnExistingProfile(
  send: Send,
  baseUrl: string,
  email: string,
  note: string | null,
): Promise<DeliveryResult> {
  const query = new URLSearchParams({ filter: emailFilter(email), "fields[profile]": "email" });
  const found = await send({ url: `${baseUrl}/api/profiles?${query}`, method: "GET" });
  if (found.result.outcome !== "delivered") return found.result;
  const ids = ProfileList.safeParse(safeJson(found.body));
  if (!ids.success)
    return { outcome: "retry", statusCode: found.result.statusCode, error: "unreadable profiles" };
  const profile = ids.data.data[0];
  if (profile === undefined) {
    return {
      outcome: "delivered",
      statusCode: found.result.statusCode,
      error:
        note === null
          ? null
          : `${note}; Klaviyo has no profile with this e-mail, so nothing was changed.`,
    };
  }
  const unset = await send({
    url: `${baseUrl}/api/profiles/${encodeURIComponent(profile.id)}`,
    method: "PATCH",
    body: JSON.stringify(unsetVelvetProperties(profile.id)),
  });
  if (unset.result.outcome !== "delivered") return unset.result;
  return {
    outcome: "delivered",
    statusCode: unset.result.statusCode,
    error: note === null ? null : `${note}; Velvet's properties were removed from it.`,
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
