/**
 * A notice for whoever runs the server, as a merchant's page shows it: brief, with a button to
 * fold it away (folded-notices.ts); folded, one line that still opens to the text and offers
 * to keep it open again. Works without script (a <details> element and two small forms).
 */
import { atLeast } from "../../team/roles.js";
import { NO_PROVIDERS_TITLE, noProvidersBrief } from "../html/enrichment-sources.js";
import { html, type SafeHtml } from "../html/html.js";
import { csrfField } from "../html/layout.js";
import type { DashboardSession } from "../session/dashboard-session.js";
import type { FoldableNotice } from "./folded-notices.js";

export interface OperatorNoticeProps {
  id: FoldableNotice;
  session: DashboardSession;
  /** The notice's first sentence: its heading when folded. */
  title: string;
  brief: SafeHtml;
  folded: boolean;
  /** The page the notice is on, to come back to after folding. */
  back: string;
}

function foldForm(p: OperatorNoticeProps, action: "fold" | "unfold", label: string): SafeHtml {
  return html`<form class="inline" method="post" action="/notices/${action}">${csrfField(p.session)}<input type="hidden" name="notice" value="${p.id}"><input type="hidden" name="back" value="${p.back}"><button type="submit" class="secondary small">${label}</button></form>`;
}

export function operatorNotice(p: OperatorNoticeProps): SafeHtml {
  if (p.folded) {
    return html`<details class="notice info folded" id="${p.id}">
<summary>${p.title}</summary>
<p>${p.brief}</p>
<p>${foldForm(p, "unfold", "Keep this notice open")}</p>
</details>`;
  }
  return html`<div class="notice info" role="status" id="${p.id}">
<p><strong>${p.title}.</strong> ${p.brief}</p>
<p>${foldForm(p, "fold", "Fold this notice away")}</p>
</div>`;
}

/** "No enrichment provider is configured", briefly, where merchants work; "" with providers. */
export function noProvidersOnPage(
  session: DashboardSession,
  providers: readonly string[],
  folded: ReadonlySet<string>,
  back: string,
): SafeHtml {
  if (providers.length > 0) return html``;
  return operatorNotice({
    id: "no-providers",
    session,
    title: NO_PROVIDERS_TITLE,
    brief: noProvidersBrief(session.vipThreshold, atLeast(session.role, "admin")),
    folded: folded.has("no-providers"),
    back,
  });
}
