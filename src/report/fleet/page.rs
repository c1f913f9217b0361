//! The fleet report as one self-contained page: the summary's numbers as
//! JSON inside it, and a script of the page's own that sums them under the
//! filters chosen (runtime, kind, date range) and draws every chart as
//! inline SVG. No network, no external asset; text from sessions (file
//! names) only ever reaches the page as text, never as markup.

use maud::{html, PreEscaped};

use super::FleetSummary;

/// The generator the page names, by which a later run knows a page it
/// may replace.
pub(crate) const GENERATOR: &str = "ctxguard audit --fleet-report";

/// Whether `head`, the start of a file, is a page [`page`] wrote.
pub(crate) fn is_page(head: &str) -> bool {
    crate::report::html::written_by(head, GENERATOR)
}

const STYLE: &str = r#"
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem; color: #1b1b1b; background: #fafafa; max-width: 1100px; }
h1 { font-size: 1.4rem; } h2 { font-size: 1.1rem; margin-top: 2rem; }
.headline { display: flex; flex-wrap: wrap; gap: .6rem; }
.headline div { background: #fff; border: 1px solid #ddd; padding: .5rem .8rem; min-width: 7rem; }
.headline strong { display: block; font-size: 1.3rem; }
.filters { background: #fff; border: 1px solid #ddd; padding: .6rem .8rem; margin-top: 1rem; }
.filters fieldset { border: none; display: inline-block; margin: 0 1.5rem 0 0; padding: 0; vertical-align: top; }
.filters legend { font-weight: 600; }
.filters label { margin-right: .8rem; white-space: nowrap; }
table { border-collapse: collapse; margin-top: .5rem; background: #fff; }
th, td { border: 1px solid #ddd; padding: .3rem .6rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f0f0f0; }
svg text { font: 12px system-ui, sans-serif; fill: #1b1b1b; }
.legend span { margin-right: 1rem; } .legend i { display: inline-block; width: .8rem; height: .8rem; margin-right: .3rem; vertical-align: -1px; }
.note { color: #555; font-style: italic; }
"#;

/// Sums the rows under the filters and draws the page's numbers and charts.
const SCRIPT: &str = r#"
const data = JSON.parse(document.getElementById('fleet-data').textContent);
const OUTCOMES = ['verbatim', 'paraphrased', 'altered', 'lost', 'unauditable'];
const COLOURS = { verbatim: '#2e7d32', paraphrased: '#1565c0', altered: '#e65100', lost: '#c62828', unauditable: '#9e9e9e' };
const SORTS = ['path', 'command', 'number', 'name', 'url', 'version'];
const SVG = 'http://www.w3.org/2000/svg';
const el = (tag, attrs, text) => {
  const node = tag.startsWith('svg:') ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
};
const distinct = (rows, key) => [...new Set(rows.map(key))].sort((a, b) => String(a).localeCompare(String(b), 'en', { numeric: true }));
const runtimeOf = r => r.runtime;
const pct = (n, d) => d ? (100 * n / d).toFixed(1) + '%' : '–';
const zero = () => Object.fromEntries(OUTCOMES.map(o => [o, 0]));
const add = (into, row) => { for (const o of OUTCOMES) into[o] += row[o] || 0; return into; };
const total = t => OUTCOMES.reduce((s, o) => s + t[o], 0);

function checkboxes(id, legend, values, label) {
  const set = document.getElementById(id);
  set.append(el('legend', {}, legend));
  for (const value of values) {
    const box = el('input', { type: 'checkbox', id: id + '-' + value, checked: '' });
    box.value = value;
    box.addEventListener('change', () => { remember(); draw(); });
    const tag = el('label', { for: box.id });
    tag.append(box, ' ' + label(value));
    set.append(tag);
  }
}

function chosen(id) {
  return new Set([...document.querySelectorAll('#' + id + ' input:checked')].map(b => b.value));
}

function filters() {
  const from = document.getElementById('from').value, to = document.getElementById('to').value;
  const runtimes = chosen('runtimes'), kinds = chosen('kinds');
  const inDates = r => (!from || (r.date && r.date >= from)) && (!to || (r.date && r.date <= to));
  return {
    event: r => runtimes.has(r.runtime) && inDates(r),
    kind: r => runtimes.has(r.runtime) && kinds.has(r.kind) && inDates(r),
  };
}

// The filters as the page's address fragment, so a view can be shared;
// boxes whose state differs are clicked, as a person would.
function remember() {
  const parts = [];
  for (const id of ['runtimes', 'kinds']) {
    const off = [...document.querySelectorAll('#' + id + ' input:not(:checked)')].map(b => b.value);
    if (off.length) parts.push(id + '=' + off.map(encodeURIComponent).join(','));
  }
  for (const id of ['from', 'to']) {
    const v = document.getElementById(id).value;
    if (v) parts.push(id + '=' + v);
  }
  history.replaceState(null, '', parts.length ? '#' + parts.join('&') : location.pathname);
}

function restore() {
  const state = new URLSearchParams(location.hash.slice(1));
  for (const id of ['runtimes', 'kinds']) {
    const off = new Set((state.get(id) || '').split(',').filter(Boolean).map(decodeURIComponent));
    for (const box of document.querySelectorAll('#' + id + ' input')) {
      if (box.checked === off.has(box.value)) box.click();
    }
  }
  for (const id of ['from', 'to']) {
    if (state.get(id)) document.getElementById(id).value = state.get(id);
  }
}

function groupBy(rows, key) {
  const groups = new Map();
  for (const row of rows) {
    const k = key(row);
    if (!groups.has(k)) groups.set(k, zero());
    add(groups.get(k), row);
  }
  return groups;
}

// One horizontal bar per group, cut by outcome share.
function bars(id, groups, label, keepOrder) {
  const box = document.getElementById(id);
  box.replaceChildren();
  const entries = [...groups.entries()].filter(([, t]) => total(t) > 0);
  if (!keepOrder) entries.sort(([a], [b]) => String(a).localeCompare(String(b), 'en', { numeric: true }));
  if (!entries.length) { box.append(el('p', { class: 'note' }, 'Nothing to draw under these filters.')); return; }
  const width = 1060, left = 210, barWidth = 480, row = 26;
  const svg = el('svg:svg', { width, height: entries.length * row + 8, role: 'img', 'aria-label': id });
  entries.forEach(([key, t], i) => {
    const y = 4 + i * row, n = total(t);
    svg.append(el('svg:text', { x: 0, y: y + 15 }, label(key)));
    let x = left;
    for (const o of OUTCOMES) {
      const w = barWidth * t[o] / n;
      if (w > 0) {
        const rect = el('svg:rect', { x: x.toFixed(2), y, width: w.toFixed(2), height: row - 8, fill: COLOURS[o], 'data-outcome': o });
        rect.append(el('svg:title', {}, `${o}: ${t[o]} (${pct(t[o], n)})`));
        svg.append(rect);
      }
      x += w;
    }
    svg.append(el('svg:text', { x: left + barWidth + 8, y: y + 15 }, `${n} · ${pct(t.verbatim, n)} verbatim · ${pct(t.altered + t.lost, n)} altered or lost`));
  });
  box.append(svg);
}

function set(id, value) { document.getElementById(id).textContent = value; }

function draw() {
  const f = filters();
  const kinds = data.kinds.filter(f.kind), events = data.events.filter(f.event);
  const all = kinds.reduce(add, zero()), n = total(all);
  set('compactions', events.reduce((s, r) => s + r.compactions, 0));
  set('commitments', n);
  for (const o of OUTCOMES) set(o, `${all[o]} (${pct(all[o], n)})`);
  set('invented', events.reduce((s, r) => s + r.invented, 0));
  set('restorable', kinds.reduce((s, r) => s + r.restorable, 0));
  // The table by kind.
  const body = document.querySelector('#by-kind tbody');
  body.replaceChildren();
  for (const [kind, t] of [...groupBy(kinds, r => r.kind)].sort(([a], [b]) => a.localeCompare(b))) {
    const tr = el('tr', { 'data-kind': kind });
    tr.append(el('td', {}, kind), el('td', { 'data-count': 'total' }, String(total(t))));
    for (const o of OUTCOMES) tr.append(el('td', { 'data-outcome': o, 'data-count': String(t[o]) }, `${t[o]} (${pct(t[o], total(t))})`));
    body.append(tr);
  }
  bars('chart-kind', groupBy(kinds, r => r.kind), k => k);
  const sorts = new Map(SORTS.map(s => [s, zero()]));
  for (const r of kinds) for (const [s, t] of Object.entries(r.sorts || {})) add(sorts.get(s) || sorts.set(s, zero()).get(s), t);
  const PLURAL = { path: 'paths', command: 'commands', number: 'numbers', name: 'names', url: 'URLs', version: 'versions' };
  bars('chart-sort', sorts, s => PLURAL[s] || s, true);
  bars('chart-runtime', groupBy(kinds, r => r.runtime + ' ' + (r.version || '(version unrecorded)')), k => k);
  bars('chart-trigger', groupBy(kinds, r => r.trigger || '(unrecorded)'), k => k);
  bars('chart-nth', groupBy(kinds, r => r.compaction), k => k >= 5 ? 'fifth and later' : ['first', 'second', 'third', 'fourth'][k - 1]);
  const dates = distinct(kinds, r => r.date).filter(Boolean);
  const byMonth = dates.length > 40;
  bars('chart-time', groupBy(kinds, r => r.date ? (byMonth ? r.date.slice(0, 7) : r.date) : '(undated)'), k => k);
}

checkboxes('runtimes', 'Runtime', distinct(data.events, runtimeOf), v => v);
checkboxes('kinds', 'Kind', distinct(data.kinds, r => r.kind), v => v);
const dates = distinct(data.events, r => r.date).filter(Boolean);
for (const id of ['from', 'to']) {
  const input = document.getElementById(id);
  if (dates.length) { input.min = dates[0]; input.max = dates[dates.length - 1]; }
  input.addEventListener('change', () => { remember(); draw(); });
}
document.getElementById('legend').append(...OUTCOMES.map(o => { const s = el('span'); s.append(el('i', { style: 'background:' + COLOURS[o] }), o); return s; }));
restore();
draw();
"#;

/// The page for `summary`; `reports` names, for each of the worst
/// sessions in order, its page beside this one (none: no links).
pub fn page(summary: &FleetSummary, reports: &[String]) -> String {
    // The summary as a script's data: `<` escaped, so no text in it can
    // close the element.
    let data = serde_json::to_string(summary)
        .unwrap_or_default()
        .replace('<', "\\u003c");
    let body = html! {
        h1 { "What compaction does to the fleet's commitments" }
        p {
            "Every compaction of " strong #sessions { (summary.sessions) } " sessions, each user commitment still binding judged against what the buffer held after it."
            @if summary.redacted { " Redacted: no user text and no file name." }
        }
        div.headline {
            div { "compactions" strong #compactions { (summary.compactions) } }
            div { "commitments judged" strong #commitments { (summary.commitments) } }
            @for outcome in ctxguard_runtimes::audit::Outcome::ALL {
                div { (outcome.name()) strong id=(outcome.name()) { (summary.outcomes.get(outcome)) } }
            }
            div { "invented" strong #invented { (summary.invented) } }
            div { "the live guard would have restored" strong #restorable { (summary.restorable) } }
        }
        form.filters {
            fieldset #runtimes {}
            fieldset #kinds {}
            fieldset {
                legend { "Dates" }
                label { "from " input #from type="date"; }
                label { "to " input #to type="date"; }
            }
        }
        p #legend .legend {}
        h2 { "Retention by commitment kind" }
        table #by-kind {
            thead { tr { th { "kind" } th { "judged" } @for o in ctxguard_runtimes::audit::Outcome::ALL { th { (o.name()) } } } }
            tbody {}
        }
        div #chart-kind {}
        h2 { "By identifier sort" }
        p.note { "Commitments that name a path, a command, a number, a name, a URL or a version; one may name several." }
        div #chart-sort {}
        h2 { "By runtime and version" }
        div #chart-runtime {}
        h2 { "By trigger" }
        div #chart-trigger {}
        h2 { "By compaction number within a session" }
        p.note { "How commitments decay as a session is compacted again and again." }
        div #chart-nth {}
        h2 { "Over time" }
        div #chart-time {}
        h2 { "The worst sessions" }
        @if summary.worst.is_empty() {
            p.note { "No session lost, altered or invented anything." }
        } @else {
            table #worst {
                thead { tr { th { "session" } th { "compactions" } th { "judged" } th { "altered" } th { "lost" } th { "invented" } } }
                tbody {
                    @for (n, worst) in summary.worst.iter().enumerate() {
                        tr {
                            td {
                                @match reports.get(n) {
                                    Some(href) => a href=(href) { (worst.session) },
                                    None => (worst.session),
                                }
                            }
                            td { (worst.compactions) } td { (worst.commitments) }
                            td { (worst.altered) } td { (worst.lost) } td { (worst.invented) }
                        }
                    }
                }
            }
        }
        script #fleet-data type="application/json" { (PreEscaped(data)) }
        script { (PreEscaped(SCRIPT)) }
    };
    crate::report::html::document(GENERATOR, "ctxguard fleet report", STYLE, body)
}
