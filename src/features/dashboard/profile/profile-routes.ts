/** Settings → Profile (every role: `forMembers`): change one's password, see and end sessions. */
import type { FastifyInstance, FastifyReply } from "fastify";
import type { Deps } from "../../../deps.js";
import { userActor } from "../../audit/audit-actor.js";
import { changePassword } from "../../team/change-password.js";
import { endUserSessions, listUserSessions } from "../../team/user-sessions.js";
import { throttled } from "../auth/start-session.js";
import type { Notice } from "../html/components.js";
import { formField } from "../http/form-body.js";
import { seeOther, sendPage } from "../http/respond.js";
import type { DashboardSession } from "../session/dashboard-session.js";
import { actionOptions, sessionOf } from "../session/guards.js";
import { forMembers, memberPage } from "../session/role-guard.js";
import { type ProfileViewProps, profileView } from "./profile-view.js";

const PATH = "/settings/profile";

const NOTICES: Record<string, Notice> = {
  "password-changed": {
    kind: "success",
    text: "Your password is changed. Your other sessions are signed out.",
  },
  "sessions-ended": { kind: "success", text: "Signed out." },
};

export function registerProfileRoutes(app: FastifyInstance, deps: Deps): void {
  const action = { ...actionOptions(deps), ...forMembers };

  async function show(
    reply: FastifyReply,
    session: DashboardSession,
    extra: Partial<ProfileViewProps> = {},
    status = 200,
  ) {
    const now = deps.clock.now();
    const sessions = await listUserSessions(deps.db.kysely, session.userId, session.idHash, now);
    return sendPage(reply, profileView({ session, sessions, ...extra }), status);
  }

  app.get<{ Querystring: { notice?: string } }>(PATH, memberPage, async (request, reply) => {
    return show(reply, sessionOf(request), { notice: NOTICES[request.query.notice ?? ""] ?? null });
  });

  app.post(`${PATH}/password`, action, async (request, reply) => {
    const session = sessionOf(request);
    const result = await changePassword(deps, {
      userId: session.userId,
      accountId: session.accountId,
      accountName: session.accountName,
      email: session.userEmail,
      currentSessionHash: session.idHash,
      ip: request.ip,
      currentPassword: formField(request.body, "current"),
      newPassword: formField(request.body, "password"),
    });
    if (result.kind === "throttled") {
      const notice = throttled(reply, result.retryAfterMs);
      return show(reply, session, { errors: { current: notice.text } }, 429);
    }
    if (result.kind === "wrong-current")
      return show(
        reply,
        session,
        { errors: { current: "That is not your current password. Nothing was changed." } },
        400,
      );
    if (result.kind === "weak")
      return show(reply, session, { errors: { password: result.problem } }, 400);
    return seeOther(reply, `${PATH}?notice=password-changed`);
  });

  app.post(`${PATH}/sessions/end`, action, async (request, reply) => {
    const session = sessionOf(request);
    const target = formField(request.body, "session");
    // The current session is ended by logging out; only the user's own other sessions match.
    if (target !== session.idHash) {
      await endUserSessions(
        deps.db.kysely,
        {
          accountId: session.accountId,
          userId: session.userId,
          actor: userActor(session.userEmail),
          only: target,
        },
        deps.clock.now(),
      );
    }
    return seeOther(reply, `${PATH}?notice=sessions-ended`);
  });

  app.post(`${PATH}/sessions/end-others`, action, async (request, reply) => {
    const session = sessionOf(request);
    await endUserSessions(
      deps.db.kysely,
      {
        accountId: session.accountId,
        userId: session.userId,
        actor: userActor(session.userEmail),
        keep: session.idHash,
      },
      deps.clock.now(),
    );
    return seeOther(reply, `${PATH}?notice=sessions-ended`);
  });
}
