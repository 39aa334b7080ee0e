/** The chat payload: complete at a glance, and customer data escaped for mrkdwn. */
import { describe, expect, it } from "vitest";
import { HOSTILE_CONTENT, SAMPLE_CONTENT } from "../../../test/support/alert-fixtures.js";
import { verdictLinks } from "../verdicts/verdict-links.js";
import {
  buildChatMessage,
  type ChatMessage,
  escapeMrkdwn,
  neutralChatText,
} from "./build-chat-message.js";

/** Every text of the payload that Slack reads as mrkdwn (and Mattermost as Markdown). */
function mrkdwnTextsOf(msg: ChatMessage): string[] {
  return [
    msg.text,
    ...msg.blocks.flatMap((b) =>
      b.type === "section"
        ? [b.text?.text ?? "", ...(b.fields ?? []).map((f) => f.text)]
        : b.type === "context"
          ? b.elements.map((e) => e.text)
          : [],
    ),
  ];
}

describe("buildChatMessage", () => {
  it("shows the customer's tier beside the score, as text", () => {
    const msg = buildChatMessage({ ...SAMPLE_CONTENT, tier: "Gold" });
    expect(msg.text).toContain("score 87 · Gold (threshold 70)");
    expect(JSON.stringify(msg.blocks)).toContain("87 · Gold (threshold 70)");
    const odd = buildChatMessage({ ...SAMPLE_CONTENT, tier: "<!here>" });
    expect(odd.text).toContain("score 87 · &lt;!here&gt; (threshold 70)");
    expect(buildChatMessage({ ...SAMPLE_CONTENT, tier: null }).text).toContain(
      "score 87 (threshold 70)",
    );
  });

  it("has a text fallback and Block Kit blocks with everything needed at a glance", () => {
    const msg = buildChatMessage(SAMPLE_CONTENT);
    expect(msg.text).toContain("Jane Doe");
    expect(msg.text).toContain("score 87 (threshold 70)");
    expect(msg.text).toContain("#1001 · €1,250.00");
    expect(msg.text).toContain("Seniority: c_level (+25)");
    expect(msg.text).toContain(`<${SAMPLE_CONTENT.customerUrl}|Open in Velvet>`);
    const json = JSON.stringify(msg.blocks);
    for (const part of [
      "VIP customer: Jane Doe",
      "87 (threshold 70)",
      "#1001 · €1,250.00",
      "Austin, TX, US",
      "Net worth: $5,000,000 (+20)",
      "jane@acme.com",
    ]) {
      expect(json).toContain(part);
    }
    expect(msg.blocks[0]).toEqual({
      type: "header",
      text: { type: "plain_text", text: "VIP customer: Jane Doe", emoji: true },
    });
    expect(msg.blocks).toContainEqual({
      type: "actions",
      elements: [
        {
          type: "button",
          text: { type: "plain_text", text: "Open in Velvet" },
          url: SAMPLE_CONTENT.customerUrl,
          style: "primary",
        },
      ],
    });
  });

  it("escapes &, < and > in customer data wherever Slack parses mrkdwn", () => {
    const msg = buildChatMessage(HOSTILE_CONTENT);
    const mrkdwnTexts = mrkdwnTextsOf(msg);
    for (const text of mrkdwnTexts) {
      const withoutOurLink = text.replace(`<${SAMPLE_CONTENT.customerUrl}|Open in Velvet>`, "");
      expect(withoutOurLink).not.toMatch(/[<>]/);
    }
    expect(msg.text).toContain("&lt;!channel&gt; &amp; &lt;https:\u200b//evil.example|click&gt;");
    expect(JSON.stringify(msg.blocks)).toContain("&lt;@\u200bU123&gt; boss");
    expect(escapeMrkdwn("a & <b>")).toBe("a &amp; &lt;b&gt;");
  });

  it("neutralises Markdown links, bare URLs and @-mentions for Mattermost and Rocket.Chat", () => {
    const hostile = {
      ...SAMPLE_CONTENT,
      customerName: "[Click here](https://evil.example/login) @all",
      location: "@here ![img](http://evil.example/x.png) www.evil.example",
      storeName: "@channel ~town-square",
      reasons: [{ label: "Seniority", value: "@boss", points: 25 }],
    };
    const msg = buildChatMessage(hostile);
    const texts = mrkdwnTextsOf(msg);
    for (const text of texts) {
      const withoutOurLink = text.replace(`<${SAMPLE_CONTENT.customerUrl}|Open in Velvet>`, "");
      expect(withoutOurLink).not.toMatch(/\]\(/);
      expect(withoutOurLink).not.toMatch(/https?:\/\//);
      expect(withoutOurLink).not.toMatch(/www\./);
      expect(withoutOurLink).not.toMatch(/(^|\s)@\w/);
      expect(withoutOurLink).not.toMatch(/(^|\s)~\w/);
    }
    // Still readable: only invisible characters were added.
    expect(msg.text.replace(/\u200b/g, "")).toContain(
      "[Click here](https://evil.example/login) @all",
    );
    // E-mail addresses are left as they are.
    expect(neutralChatText("jane@acme.com")).toBe("jane@acme.com");
  });

  it("says so when there is no order, location or reason", () => {
    const msg = buildChatMessage({ ...SAMPLE_CONTENT, order: null, location: null, reasons: [] });
    const json = JSON.stringify(msg.blocks);
    expect(json).toContain("*Order*\\nnone");
    expect(json).toContain("*Location*\\nunknown");
    expect(json).toContain("No single signal stood out");
  });

  it("adds Right / Not a VIP buttons and the same links in the text when the alert has them", () => {
    const links = verdictLinks("https://velvet.example.com", {
      id: "0190a000-0000-7000-8000-0000000000aa",
      verdictSecret: "s".repeat(43),
    });
    if (!links) throw new Error("no links");
    const msg = buildChatMessage({ ...SAMPLE_CONTENT, verdictLinks: links });
    expect(msg.blocks).toContainEqual({
      type: "actions",
      elements: [
        {
          type: "button",
          text: { type: "plain_text", text: "Open in Velvet" },
          url: SAMPLE_CONTENT.customerUrl,
          style: "primary",
        },
        { type: "button", text: { type: "plain_text", text: "Right" }, url: links.right },
        { type: "button", text: { type: "plain_text", text: "Not a VIP" }, url: links.wrong },
      ],
    });
    expect(msg.text).toContain(
      `Is this a VIP? <${links.right}|Right> · <${links.wrong}|Not a VIP>`,
    );
    expect(buildChatMessage(SAMPLE_CONTENT).text).not.toContain("Not a VIP");
  });
});
