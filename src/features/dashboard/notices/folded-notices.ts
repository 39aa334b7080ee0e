/**
 * Notices for whoever runs the server (no enrichment provider configured, …) are shown in full
 * on Settings → System; on the pages merchants work in they are brief, and anyone signed in may
 * fold them away. Folding is remembered in this browser for a year, in the `velvet_folded`
 * cookie (the folded notices' ids, comma-separated): a choice about what this screen shows,
 * not a setting of the account or the user, so it needs no table and no audit entry.
 * POST /notices/fold and /notices/unfold (CSRF-checked like every form) answer with a redirect
 * back to the page the form was on.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { Deps } from "../../../deps.js";
import { readCookie, setCookie } from "../http/cookies.js";
import { formField } from "../http/form-body.js";
import { seeOther } from "../http/respond.js";
import { actionOptions, safeNext } from "../session/guards.js";
import { forMembers } from "../session/role-guard.js";

export const FOLDED_COOKIE = "velvet_folded";
/** The notices that fold. */
export const FOLDABLE_NOTICES = ["no-providers"] as const;
export type FoldableNotice = (typeof FOLDABLE_NOTICES)[number];
const YEAR_SECONDS = 365 * 24 * 3600;

function isFoldable(id: string): id is FoldableNotice {
  return (FOLDABLE_NOTICES as readonly string[]).includes(id);
}

/** The notices this browser folded away; unknown ids in the cookie are ignored. */
export function foldedNotices(request: FastifyRequest): Set<FoldableNotice> {
  const raw = readCookie(request, FOLDED_COOKIE) ?? "";
  return new Set(raw.split(",").filter(isFoldable));
}

export function registerNoticeRoutes(app: FastifyInstance, deps: Deps): void {
  const options = { ...actionOptions(deps), ...forMembers };
  for (const [action, fold] of [
    ["fold", true],
    ["unfold", false],
  ] as const) {
    app.post(`/notices/${action}`, options, async (request, reply) => {
      const id = formField(request.body, "notice");
      const back = safeNext(formField(request.body, "back") || "/");
      if (!isFoldable(id)) return seeOther(reply, back);
      const folded = foldedNotices(request);
      if (fold) folded.add(id);
      else folded.delete(id);
      setCookie(request, reply, FOLDED_COOKIE, [...folded].join(","), {
        maxAgeSeconds: YEAR_SECONDS,
      });
      return seeOther(reply, back);
    });
  }
}
