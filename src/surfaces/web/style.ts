/**
 * The inspector's whole stylesheet, inlined by the layout: no external assets, nothing fetched.
 * The Content-Security-Policy allows exactly this stylesheet (by its hash) and no scripts.
 */
import { createHash } from 'node:crypto';

/** Every rule of every page; a change here changes `STYLESHEET_HASH`, and so the policy, with it. */
export const STYLESHEET = `
:root { --ink: #1d232b; --muted: #5f6b7a; --line: #dde2e8; --soft: #f4f6f9; --accent: #2459c2; --warn: #a8431c; --good: #1f7a4d; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #fff; overflow-wrap: break-word; }
header.top { display: flex; align-items: center; gap: 18px; padding: 10px 24px; border-bottom: 1px solid var(--line); background: var(--soft); flex-wrap: wrap; }
header.top .brand { font-weight: 700; letter-spacing: .02em; color: var(--ink); text-decoration: none; }
header.top nav { display: flex; gap: 4px; flex-wrap: wrap; }
header.top nav a { padding: 4px 9px; border-radius: 6px; color: var(--ink); text-decoration: none; }
header.top nav a.current { background: #fff; box-shadow: inset 0 0 0 1px var(--line); font-weight: 600; }
header.top .who { margin-left: auto; color: var(--muted); display: flex; gap: 10px; align-items: center; }
main { padding: 18px 24px 48px; max-width: 1280px; }
@media (max-width: 600px) { header.top { padding: 8px 12px; gap: 8px; } main { padding: 14px 12px 40px; } input[type=search] { min-width: 0; width: 100%; } }
h1 { font-size: 20px; margin: 4px 0 14px; }
h2 { font-size: 16px; margin: 26px 0 8px; }
h3 { font-size: 14px; margin: 18px 0 6px; }
a { color: var(--accent); }
p.lead, .muted { color: var(--muted); }
table { border-collapse: collapse; width: 100%; margin: 6px 0 12px; }
.scroll { overflow-x: auto; max-width: 100%; margin: 6px 0 12px; }
.scroll > table { margin: 0; }
th[title] { cursor: help; text-decoration: underline dotted; text-underline-offset: 3px; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { font-weight: 600; color: var(--muted); font-size: 12px; text-transform: uppercase; letter-spacing: .03em; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.fields th { width: 150px; text-transform: none; font-size: 13px; letter-spacing: 0; }
code, pre, .id { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: 12.5px; }
pre { background: var(--soft); border: 1px solid var(--line); border-radius: 6px; padding: 10px 12px; white-space: pre-wrap; word-break: break-word; margin: 6px 0 12px; }
.text { white-space: pre-wrap; word-break: break-word; }
.badge { display: inline-block; padding: 0 7px; border-radius: 10px; font-size: 12px; line-height: 19px; background: var(--soft); border: 1px solid var(--line); margin: 0 3px 2px 0; white-space: nowrap; }
.badge.must { background: #fdecec; border-color: #f2c4c4; }
.badge.nice { background: #eaf4ec; border-color: #c4e2cc; }
.badge.flag { background: #eef2fd; border-color: #c9d5f5; }
.badge.gone { background: #f6efe3; border-color: #e7d3ad; }
form.filters { display: flex; gap: 8px; flex-wrap: wrap; align-items: end; padding: 10px 12px; background: var(--soft); border: 1px solid var(--line); border-radius: 8px; margin-bottom: 12px; }
form.filters label { display: flex; flex-direction: column; font-size: 12px; color: var(--muted); gap: 2px; }
input, select, button, textarea { font: inherit; }
input[type=text], input[type=search], input[type=password], input[type=date], select { padding: 5px 7px; border: 1px solid #c5ccd6; border-radius: 6px; background: #fff; }
input[type=search] { min-width: 260px; max-width: 100%; }
button { padding: 5px 12px; border: 1px solid #c5ccd6; border-radius: 6px; background: #fff; cursor: pointer; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
button.danger { color: var(--warn); border-color: #e3b7a6; }
button.link { border: 0; background: none; color: var(--accent); padding: 0; text-decoration: underline; }
.notice { padding: 8px 12px; border-radius: 6px; background: #eaf4ec; border: 1px solid #c4e2cc; margin-bottom: 12px; }
.notice.error { background: #fdecec; border-color: #f2c4c4; }
.pager { display: flex; gap: 14px; align-items: center; margin: 10px 0; color: var(--muted); }
.grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: 14px; }
.card { border: 1px solid var(--line); border-radius: 8px; padding: 10px 14px; }
.card h3 { margin-top: 2px; }
.kv { display: grid; grid-template-columns: max-content minmax(0, 1fr); gap: 2px 14px; }
.legend .kv dt { font-weight: 600; color: var(--ink); }
.kv dt { color: var(--muted); }
.kv dd { margin: 0; }
form.inline { display: inline; }
form.edit { display: grid; grid-template-columns: max-content 1fr; gap: 8px 14px; align-items: center; max-width: 560px; }
form.edit .actions { grid-column: 2; }
form.edit input[type=checkbox] { justify-self: start; }
.card h2 { margin-top: 4px; }
.actions-row { display: flex; gap: 10px; align-items: center; margin: 8px 0 16px; }
details summary { cursor: pointer; color: var(--muted); }
svg text { font-family: system-ui, sans-serif; }
svg.picture { max-width: 100%; height: auto; }
.signin { max-width: 380px; margin: 60px auto; }
.signin form { display: flex; flex-direction: column; gap: 10px; }
`;

/** The stylesheet's hash, as the Content-Security-Policy names it. */
export const STYLESHEET_HASH = `'sha256-${createHash('sha256').update(STYLESHEET).digest('base64')}'`;

/** The policy of every inspector page: this stylesheet, forms to this server, nothing else. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  `style-src ${STYLESHEET_HASH}`,
  "img-src 'self' data:",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');
