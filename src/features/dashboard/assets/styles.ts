/** The dashboard's one stylesheet, served from memory under a content hash (see asset-routes). */
export const STYLES = `
:root {
  --bg: #f6f5f9; --panel: #fff; --text: #1d1b26; --muted: #5f5b6e; --line: #e3e0ea;
  --accent: #6b3fd4; --accent-dark: #52289f; --accent-soft: #efe9fc;
  --ok: #17794a; --ok-soft: #e3f5ec; --warn: #8a5a00; --warn-soft: #fdf3dc;
  --bad: #b42318; --bad-soft: #fdecea; --radius: 10px;
  --font: system-ui, -apple-system, "Segoe UI", Roboto, "Liberation Sans", Arial, sans-serif;
  --mono: ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace;
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body { margin: 0; font: 15px/1.5 var(--font); color: var(--text); background: var(--bg); }
a { color: var(--accent-dark); }
a:hover { color: var(--accent); }
:focus-visible { outline: 3px solid var(--accent); outline-offset: 2px; border-radius: 4px; }
h1 { font-size: 1.5rem; margin: 0 0 .25rem; line-height: 1.25; }
h2 { font-size: 1.1rem; margin: 0 0 .75rem; }
h3 { font-size: 1rem; margin: 1rem 0 .5rem; }
p { margin: 0 0 .75rem; }
code, pre { font-family: var(--mono); font-size: .875em; }
.muted { color: var(--muted); }
.small { font-size: .85rem; }
.skip { position: absolute; left: -999px; top: 0; background: var(--panel); padding: .5rem 1rem; z-index: 10; }
.skip:focus { left: .5rem; top: .5rem; }
.visually-hidden { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; }

.topbar { background: #1d1535; color: #fff; }
.topbar-inner { max-width: 1120px; margin: 0 auto; padding: .6rem 1rem; display: flex; align-items: center; gap: 1.25rem; flex-wrap: wrap; }
.brand { color: #fff; text-decoration: none; font-weight: 700; font-size: 1.1rem; letter-spacing: .02em; }
.brand:hover { color: #fff; }
.brand span { color: #b9a2ff; }
.mainnav { display: flex; gap: .25rem; flex: 1; overflow-x: auto; }
.mainnav a { color: #d9d2ef; text-decoration: none; padding: .45rem .7rem; border-radius: 8px; white-space: nowrap; }
.mainnav a:hover { background: rgba(255,255,255,.08); color: #fff; }
.mainnav a[aria-current="page"] { background: rgba(255,255,255,.14); color: #fff; font-weight: 600; }
.account { display: flex; align-items: center; gap: .75rem; font-size: .85rem; color: #d9d2ef; }
.account form { margin: 0; }
.account button { background: transparent; color: #fff; border: 1px solid rgba(255,255,255,.35); padding: .3rem .7rem; border-radius: 8px; font: inherit; cursor: pointer; }
.account button:hover { background: rgba(255,255,255,.1); }

main { max-width: 1120px; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
.page-head { display: flex; justify-content: space-between; align-items: flex-end; gap: 1rem; flex-wrap: wrap; margin-bottom: 1.25rem; }
.page-head p { margin: 0; }
.breadcrumb { font-size: .85rem; color: var(--muted); margin-bottom: .25rem; }
.breadcrumb a { color: var(--muted); }
.subnav { display: flex; gap: .25rem; border-bottom: 1px solid var(--line); margin-bottom: 1.25rem; overflow-x: auto; scrollbar-width: thin;
  /* A strip wider than the screen shows a shadow at the edge that hides tabs (the covers scroll
     with the tabs and uncover the shadows, which stay put): a sign that it scrolls, no script. */
  background: linear-gradient(to right, var(--bg) 40%, rgba(246,245,249,0)) left / 2.5rem 100% no-repeat local,
    linear-gradient(to left, var(--bg) 40%, rgba(246,245,249,0)) right / 2.5rem 100% no-repeat local,
    radial-gradient(farthest-side at 0 50%, rgba(29,27,38,.28), rgba(29,27,38,0)) left / 1rem 100% no-repeat scroll,
    radial-gradient(farthest-side at 100% 50%, rgba(29,27,38,.28), rgba(29,27,38,0)) right / 1rem 100% no-repeat scroll; }
.subnav a { padding: .5rem .85rem; text-decoration: none; color: var(--muted); border-bottom: 2px solid transparent; white-space: nowrap; }
.subnav a[aria-current="page"] { color: var(--text); border-color: var(--accent); font-weight: 600; }

.panel { background: var(--panel); border: 1px solid var(--line); border-radius: var(--radius); padding: 1.25rem; margin-bottom: 1.25rem; }
.panel > :last-child { margin-bottom: 0; }
.panel-head { display: flex; justify-content: space-between; align-items: center; gap: 1rem; flex-wrap: wrap; margin-bottom: .75rem; }
.panel-head h2 { margin: 0; }
.grid { display: grid; gap: 1rem; grid-template-columns: repeat(auto-fit, minmax(190px, 1fr)); margin-bottom: 1.25rem; }
.two-col { display: grid; gap: 1.25rem; grid-template-columns: minmax(0, 2fr) minmax(0, 1fr); }
.two-col > * { min-width: 0; }
.two-col { align-items: start; }
.stat { background: var(--panel); border: 1px solid var(--line); border-radius: var(--radius); padding: 1rem 1.1rem; }
.stat .label { color: var(--muted); font-size: .85rem; }
.stat .value { font-size: 1.65rem; font-weight: 700; line-height: 1.2; font-variant-numeric: tabular-nums; }
.stat .hint { color: var(--muted); font-size: .8rem; }

.table-wrap { overflow-x: auto; -webkit-overflow-scrolling: touch; }
table { width: 100%; border-collapse: collapse; font-variant-numeric: tabular-nums; }
th, td { text-align: left; padding: .6rem .65rem; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); font-weight: 600; white-space: nowrap; }
tbody tr:last-child td { border-bottom: 0; }
tr[aria-current] td { background: var(--accent-soft); }
tfoot th, tfoot td { border-top: 1px solid var(--line); border-bottom: 0; }
.primary-cell .muted, .primary-cell .small { font-weight: 400; }
td.num, th.num { text-align: right; }
td.nowrap { white-space: nowrap; }
td.wrap-anywhere { overflow-wrap: anywhere; }

.badge { display: inline-block; padding: .1rem .5rem; border-radius: 999px; font-size: .78rem; font-weight: 600; background: #eeecf3; color: var(--muted); white-space: nowrap; }
.badge.ok { background: var(--ok-soft); color: var(--ok); }
.badge.warn { background: var(--warn-soft); color: var(--warn); }
.badge.bad { background: var(--bad-soft); color: var(--bad); }
.awaiting ul { list-style: none; padding: 0; margin: 0; }
.awaiting li { margin: .5rem 0; overflow-wrap: anywhere; }
.badge.vip { background: var(--accent); color: #fff; }

.notice { border-radius: var(--radius); padding: .8rem 1rem; margin-bottom: 1.25rem; border: 1px solid; }
.notice.success { background: var(--ok-soft); border-color: #a8dcc0; color: #0f5132; }
.notice.error { background: var(--bad-soft); border-color: #f3b8b2; color: #7a1a12; }
.notice.info { background: var(--accent-soft); border-color: #d6c8f7; color: #3b1f7a; }
.notice.warn { background: var(--warn-soft); border-color: #f0c987; color: #5c3b00; }
fieldset.plain { border: 0; padding: 0; margin: 0; min-width: 0; }
fieldset.plain:disabled { opacity: .6; }
.notice > :last-child { margin-bottom: 0; }
details.notice.folded { padding: .5rem 1rem; }
details.notice.folded summary { cursor: pointer; font-weight: 600; }
details.notice.folded[open] summary { margin-bottom: .5rem; }
.secret-box { background: var(--panel); border: 2px solid var(--accent); border-radius: var(--radius); padding: 1.1rem; margin-bottom: 1.25rem; }
.secret-row { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; margin: .5rem 0; }
.secret { font-family: var(--mono); font-size: .95rem; background: var(--accent-soft); padding: .45rem .6rem; border-radius: 6px; overflow-wrap: anywhere; user-select: all; flex: 1 1 18rem; }
pre.code + p { margin-top: .75rem; }
pre.code { background: #171326; color: #ece8f7; padding: 1rem; border-radius: var(--radius); overflow-x: auto; margin: 0; white-space: pre; }
.code-block { position: relative; }
.code-block .copy-button { position: absolute; right: .5rem; top: .5rem; }

form.inline { display: inline; margin: 0; }
.field { margin-bottom: 1rem; }
.field label, .label-text { display: block; font-weight: 600; margin-bottom: .3rem; }
.field .help { color: var(--muted); font-size: .85rem; margin-top: .25rem; }
.field .error-text { color: var(--bad); font-size: .85rem; margin-top: .25rem; font-weight: 600; }
input[type=text], input[type=email], input[type=password], input[type=url], input[type=number], input[type=search], select, textarea {
  width: 100%; max-width: 34rem; font: inherit; padding: .55rem .7rem; border: 1px solid #c9c4d6; border-radius: 8px; background: #fff; color: var(--text);
}
textarea { min-height: 5.5rem; resize: vertical; }
input[aria-invalid=true], textarea[aria-invalid=true] { border-color: var(--bad); }
input[type=number] { max-width: 8rem; }
.button, button { display: inline-flex; align-items: center; justify-content: center; gap: .35rem; font: inherit; font-weight: 600; padding: .5rem 1rem; border-radius: 8px; border: 1px solid var(--accent); background: var(--accent); color: #fff; cursor: pointer; text-decoration: none; min-height: 2.5rem; }
.button:hover, button:hover { background: var(--accent-dark); color: #fff; }
.button.secondary, button.secondary { background: #fff; color: var(--accent-dark); border-color: #c9c4d6; }
.button.secondary:hover, button.secondary:hover { background: var(--accent-soft); color: var(--accent-dark); }
/* The verdict that holds now ("Right" / "Not a VIP"), pressed. */
button.secondary[aria-pressed=true] { background: var(--accent-soft); border-color: var(--accent); box-shadow: inset 0 0 0 1px var(--accent); }
button.danger { background: #fff; color: var(--bad); border-color: #f0b4ae; }
button.danger:hover { background: var(--bad-soft); color: var(--bad); }
.button.danger-link { color: var(--bad); border-color: #f0b4ae; }
.button.danger-link:hover { background: var(--bad-soft); color: var(--bad); }
ul.goes { margin: 0 0 1rem; padding-left: 1.25rem; }
ul.goes li { margin: .25rem 0; }
button.small, .button.small { padding: .25rem .6rem; min-height: 2rem; font-size: .85rem; }
.actions { display: flex; gap: .5rem; flex-wrap: wrap; align-items: center; }
.copy-button { display: none; }
.js .copy-button { display: inline-flex; }

.filters { display: flex; gap: .75rem; flex-wrap: wrap; align-items: flex-end; margin-bottom: 1rem; }
.filters .field { margin: 0; }
.filters input[type=search] { min-width: 16rem; }
.filters select { width: auto; }
.checkbox { display: flex; gap: .4rem; align-items: center; font-weight: 600; min-height: 2.5rem; }
.checkbox input { width: 1.1rem; height: 1.1rem; }
.pager { display: flex; justify-content: space-between; align-items: center; gap: 1rem; margin-top: 1rem; flex-wrap: wrap; }
.period { display: inline-flex; border: 1px solid #c9c4d6; border-radius: 8px; overflow: hidden; }
.period a { padding: .4rem .8rem; text-decoration: none; color: var(--muted); border-right: 1px solid #c9c4d6; }
.period a:last-child { border-right: 0; }
.period a[aria-current="true"] { background: var(--accent); color: #fff; font-weight: 600; }

.empty { text-align: center; padding: 2rem 1rem; }
.empty h2 { margin-bottom: .5rem; }
.empty .actions { justify-content: center; margin-top: 1rem; }
.steps { counter-reset: step; list-style: none; padding: 0; margin: 0; text-align: left; max-width: 46rem; margin-inline: auto; }
.steps > li { counter-increment: step; position: relative; padding: 0 0 1.1rem 2.6rem; }
.steps > li::before { content: counter(step); position: absolute; left: 0; top: 0; width: 1.8rem; height: 1.8rem; border-radius: 50%; background: var(--accent); color: #fff; display: grid; place-items: center; font-weight: 700; font-size: .9rem; }

.chart-figure { margin: 0; }
.chart-scroll { overflow-x: auto; }
.chart { width: 100%; height: auto; display: block; }
.chart .bar { fill: #b9a2ff; }
.chart .bar.primary { fill: var(--accent); }
.chart .axis { stroke: var(--line); }
.chart .tick { stroke: var(--muted); }
.chart .interval { stroke: var(--accent-dark); stroke-width: 3; }
.chart .point { fill: var(--accent); }
.chart .threshold { stroke: var(--text); stroke-width: 2; stroke-dasharray: 4 3; }
.chart .threshold-label { fill: var(--text); font-weight: 600; }
tr.current td { background: var(--accent-soft); }
.chart text { fill: var(--muted); font-size: 11px; font-family: var(--font); }
.legend { display: flex; gap: 1rem; font-size: .85rem; color: var(--muted); margin-top: .5rem; flex-wrap: wrap; }
.legend i { display: inline-block; width: .75rem; height: .75rem; border-radius: 2px; margin-right: .35rem; vertical-align: -1px; background: #b9a2ff; }
.legend i.primary { background: var(--accent); }
.budget-figure { margin: .5rem 0 1rem; max-width: 40rem; }
.budget-bar { display: block; width: 100%; height: 1.1rem; border-radius: 6px; }
.budget-bar .track { fill: #eeecf3; }
.budget-bar .spent.ok { fill: var(--accent); }
.budget-bar .spent.warn { fill: #b7791f; }
.budget-bar .spent.spent { fill: var(--bad); }
.budget-bar .held { fill: #b9a2ff; }
.budget-bar .warn-mark, .budget-bar .budget-mark { fill: var(--text); }
.legend i.spent.ok { background: var(--accent); }
.legend i.spent.warn { background: #b7791f; }
.legend i.spent.spent { background: var(--bad); }
.legend i.held { background: #b9a2ff; }
.legend i.left { background: #eeecf3; box-shadow: inset 0 0 0 1px #c9c4d6; }
.legend i.mark { width: 3px; background: var(--text); }
.legend i.dot { border-radius: 50%; }
.legend i.whisker { width: 3px; background: var(--accent-dark); }
details.months-table { margin-top: 1rem; }
details.months-table summary { cursor: pointer; font-weight: 600; color: var(--accent-dark); }

.meter { position: relative; height: .75rem; background: #eeecf3; border-radius: 999px; margin: .75rem 0 1.5rem; max-width: 34rem; }
.meter svg { display: block; width: 100%; height: 100%; border-radius: 999px; }
.score-line { display: flex; align-items: baseline; gap: .75rem; flex-wrap: wrap; }
.score-line .score { font-size: 2.2rem; font-weight: 700; line-height: 1; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .35rem 1rem; margin: 0; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }
.points-pos { color: var(--ok); font-weight: 600; }
.points-zero { color: var(--muted); }
.attempts { margin: .35rem 0 0; padding-left: 1.1rem; font-size: .85rem; color: var(--muted); }

.auth { min-height: 100vh; display: grid; place-items: center; padding: 1.5rem 1rem; }
.auth-card { width: 100%; max-width: 26rem; background: var(--panel); border: 1px solid var(--line); border-radius: 14px; padding: 1.75rem; }
.auth-card .brand { color: var(--text); display: block; margin-bottom: 1rem; font-size: 1.3rem; }
.auth-card .brand span { color: var(--accent); }
.auth-card input { max-width: none; }
.auth-card button { width: 100%; margin-top: .25rem; }
.auth-card .switch { margin-top: 1.25rem; text-align: center; color: var(--muted); }

@media (max-width: 760px) {
  body { font-size: 15px; }
  .topbar-inner { gap: .5rem; padding: .5rem .75rem; }
  .mainnav { order: 3; flex-basis: 100%; margin: 0 -.25rem; }
  .account { margin-left: auto; }
  .account .who { display: none; }
  main { padding: 1rem .75rem 2.5rem; }
  .panel { padding: 1rem; }
  .two-col { grid-template-columns: 1fr; }
  .grid { grid-template-columns: repeat(2, minmax(0, 1fr)); gap: .6rem; }
  .stat .value { font-size: 1.35rem; }
  .grid > :last-child:nth-child(odd) { grid-column: span 2; }
  .chart text { font-size: 22px; }
  pre.code { white-space: pre-wrap; overflow-wrap: anywhere; overflow-x: visible; }
  .code-block .copy-button { position: static; margin-top: .5rem; }
  table.stack tr[aria-current], table.stack tr.current { background: var(--accent-soft); padding-left: .5rem; padding-right: .5rem; border-radius: 8px; }
  table.stack tr[aria-current] td, table.stack tr.current td { background: none; }
  .filters .field.half { flex: 1 1 40%; }
  .filters select { width: 100%; }
  .filters input[type=search] { min-width: 0; }
  .filters .field { flex: 1 1 100%; }
  th, td { padding: .5rem .45rem; }
  table.stack thead { display: none; }
  table.stack tr { display: block; border-bottom: 1px solid var(--line); padding: .5rem 0; }
  table.stack tbody tr:last-child { border-bottom: 0; }
  table.stack td { display: inline-flex; gap: .35rem; border: 0; padding: .1rem 1rem .1rem 0; text-align: left; align-items: baseline; flex-wrap: wrap; }
  table.stack td::before { content: attr(data-label); color: var(--muted); font-size: .8rem; text-align: left; font-weight: 600; }
  table.stack td.primary-cell { display: block; text-align: left; font-weight: 600; }
  table.stack td.primary-cell::before { content: none; }
  table.stack td.block { display: block; text-align: left; }
  table.stack td.block::before { display: block; margin-bottom: .15rem; }
  table.stack tfoot tr { display: flex; justify-content: space-between; }
  table.stack tfoot th, table.stack tfoot td { display: block; border: 0; padding: .4rem 0 0; }
  table.stack td:not(.primary-cell)::before { font-weight: 400; }
}
`;
