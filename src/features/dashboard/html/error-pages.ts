/** Error pages for people (the API keeps its JSON errors). */
import type { FastifyReply } from "fastify";
import { sendPage } from "../http/respond.js";
import type { DashboardSession } from "../session/dashboard-session.js";
import { html, type SafeHtml } from "./html.js";
import { bareCard, page } from "./layout.js";

function errorPage(title: string, body: SafeHtml, session?: DashboardSession): SafeHtml {
  if (session) {
    return page({
      title,
      session,
      section: "overview",
      body: html`<div class="panel empty"><h1>${title}</h1>${body}</div>`,
    });
  }
  return bareCard(title, html`<h1>${title}</h1>${body}`);
}

export function sendNotFoundPage(reply: FastifyReply, session?: DashboardSession): FastifyReply {
  return sendPage(
    reply,
    errorPage(
      "Page not found",
      html`<p class="muted">There is nothing at this address, or it belongs to another account.</p>
<p><a class="button" href="/">Go to the dashboard</a></p>`,
      session,
    ),
    404,
  );
}

export function sendForbiddenPage(reply: FastifyReply, session?: DashboardSession): FastifyReply {
  return sendPage(
    reply,
    errorPage(
      "This form has expired",
      html`<p class="muted">For your security the form was refused: it was not sent from this page,
or it is older than your current session. Nothing was changed.</p>
<p><a class="button" href="/">Go back to the dashboard</a> and try again.</p>`,
      session,
    ),
    403,
  );
}

/** A signed-in user whose role does not allow the page or action (session/role-guard.ts). */
export function sendRoleForbiddenPage(
  reply: FastifyReply,
  session: DashboardSession,
): FastifyReply {
  return sendPage(
    reply,
    errorPage(
      "You do not have access to this",
      html`<p class="muted">Your role in ${session.accountName} does not allow this page or action. Nothing was changed.
Ask an owner or admin of the account if you need it.</p>
<p><a class="button" href="/">Go to the dashboard</a></p>`,
      session,
    ),
    403,
  );
}

export function sendErrorPage(
  reply: FastifyReply,
  status: number,
  message: string,
  session?: DashboardSession,
): FastifyReply {
  const title = status >= 500 ? "Something went wrong" : "This request could not be handled";
  return sendPage(
    reply,
    errorPage(
      title,
      html`<p class="muted">${message}</p><p><a class="button" href="/">Go to the dashboard</a></p>`,
      session,
    ),
    status,
  );
}
