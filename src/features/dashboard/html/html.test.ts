import { describe, expect, it } from "vitest";
import { escapeHtml, html, trustedHtml } from "./html.js";

describe("html", () => {
  it("escapes every interpolated string for text and quoted attributes", () => {
    const name = `<img src=x onerror="alert('1')">&\``;
    expect(html`<p title="${name}">${name}</p>`.value).toBe(
      '<p title="&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;&#96;">&lt;img src=x onerror=&quot;alert(&#39;1&#39;)&quot;&gt;&amp;&#96;</p>',
    );
  });

  it("nests templates without escaping them twice, and renders arrays, numbers and nothing", () => {
    const items = ["a<b", "c"].map((s) => html`<li>${s}</li>`);
    expect(html`<ul>${items}</ul>${0}${null}${undefined}${false}`.value).toBe(
      "<ul><li>a&lt;b</li><li>c</li></ul>0",
    );
  });

  it("passes markup through only when explicitly trusted", () => {
    expect(html`${trustedHtml("<b>ok</b>")}${"<b>no</b>"}`.value).toBe(
      "<b>ok</b>&lt;b&gt;no&lt;/b&gt;",
    );
    expect(escapeHtml("plain text")).toBe("plain text");
  });
});
