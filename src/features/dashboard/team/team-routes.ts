/**
 * Settings → Team (owners and admins; the default access). Whom an admin may touch (not owners)
 * is the use case's rule: its refusal comes back on the page with the matching status.
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import type { Deps } from "../../../deps.js";
import { AppError } from "../../../lib/app-error.js";
import type { AlertsDeps } from "../../alerts/alert-deps.js";
import { userActor } from "../../audit/audit-actor.js";
import { cancelInvitation } from "../../team/cancel-invitation.js";
import { inviteMember } from "../../team/invite-member.js";
import { listTeam } from "../../team/list-team.js";
import { changeRole, removeMember } from "../../team/manage-member.js";
import type { TeamActor } from "../../team/team-actor.js";
import type { Notice } from "../html/components.js";
import { formField } from "../http/form-body.js";
import { seeOther, sendPage } from "../http/respond.js";
import type { DashboardSession } from "../session/dashboard-session.js";
import { actionOptions, pageOptions, sessionOf } from "../session/guards.js";
import { type TeamViewProps, teamView } from "./team-view.js";

const PATH = "/settings/team";

const NOTICES: Record<string, Notice> = {
  removed: { kind: "success", text: "The member is removed and signed out." },
  "invitation-cancelled": {
    kind: "success",
    text: "The invitation is cancelled: its link no longer works.",
  },
  "role-changed": {
    kind: "success",
    text: "The role is changed; it applies from their next page.",
  },
};

/** The statuses of the refusals the team use cases raise. */
const STATUS: Partial<Record<AppError["code"], number>> = {
  bad_request: 400,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
};

export function teamActorOf(session: DashboardSession): TeamActor {
  return { audit: userActor(session.userEmail), authority: session.role, userId: session.userId };
}

export function registerTeamRoutes(app: FastifyInstance, deps: Deps & AlertsDeps): void {
  async function show(
    reply: FastifyReply,
    session: DashboardSession,
    extra: Partial<TeamViewProps> = {},
    status = 200,
  ) {
    const team = await listTeam(deps.db.kysely, session.accountId, deps.clock.now());
    return sendPage(reply, teamView({ session, ...team, ...extra }), status);
  }

  /** Runs a change; a refusal is shown on the page (nothing was changed). */
  async function attempt(
    reply: FastifyReply,
    session: DashboardSession,
    change: () => Promise<FastifyReply>,
    onError: (message: string) => Partial<TeamViewProps> = (text) => ({
      notice: { kind: "error", text },
    }),
  ) {
    try {
      return await change();
    } catch (error) {
      if (!(error instanceof AppError) || STATUS[error.code] === undefined) throw error;
      return show(reply, session, onError(error.message), STATUS[error.code]);
    }
  }

  app.get<{ Querystring: { notice?: string } }>(PATH, pageOptions, async (request, reply) => {
    return show(reply, sessionOf(request), { notice: NOTICES[request.query.notice ?? ""] ?? null });
  });

  app.post(`${PATH}/invite`, actionOptions(deps), async (request, reply) => {
    const session = sessionOf(request);
    const email = formField(request.body, "email");
    const role = formField(request.body, "role");
    return attempt(
      reply,
      session,
      async () => {
        const invited = await inviteMember(deps, {
          accountId: session.accountId,
          accountName: session.accountName,
          email,
          role,
          actor: teamActorOf(session),
        });
        // Shown in this answer only (the page is no-store): the link is not kept anywhere.
        return show(reply, session, {
          invited: {
            email: email.trim(),
            url: invited.inviteUrl,
            emailed: invited.emailed,
            mailThrottled: invited.mailThrottled,
          },
        });
      },
      (text) => ({ inviteError: text, inviteValues: { email, role } }),
    );
  });

  app.post(`${PATH}/invitations/cancel`, actionOptions(deps), async (request, reply) => {
    const session = sessionOf(request);
    return attempt(reply, session, async () => {
      await cancelInvitation(deps, {
        accountId: session.accountId,
        email: formField(request.body, "email"),
        actor: teamActorOf(session),
      });
      return seeOther(reply, `${PATH}?notice=invitation-cancelled`);
    });
  });

  app.post<{ Params: { userId: string } }>(
    `${PATH}/:userId/role`,
    actionOptions(deps),
    async (request, reply) => {
      const session = sessionOf(request);
      return attempt(reply, session, async () => {
        await changeRole(deps, {
          accountId: session.accountId,
          member: { userId: request.params.userId },
          role: formField(request.body, "role"),
          actor: teamActorOf(session),
        });
        return seeOther(reply, `${PATH}?notice=role-changed`);
      });
    },
  );

  app.post<{ Params: { userId: string } }>(
    `${PATH}/:userId/remove`,
    actionOptions(deps),
    async (request, reply) => {
      const session = sessionOf(request);
      return attempt(reply, session, async () => {
        await removeMember(deps, {
          accountId: session.accountId,
          member: { userId: request.params.userId },
          actor: teamActorOf(session),
        });
        return seeOther(reply, `${PATH}?notice=removed`);
      });
    },
  );
}
