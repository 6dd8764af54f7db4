//! Pre-rendered HTML: every page and every figure's embed as a static document, written at build
//! time (`amplify prerender`) from the same declarations the app renders, so that a reader sees the
//! prose, the controls at their defaults, the numbers and the figures (inline SVG, drawn by the
//! same plotters code) before the WebAssembly arrives, and so do search engines, link previews,
//! reader modes and printers without any script.
//!
//! The markup mirrors the app's components class for class, so that the live app can replace it
//! without moving anything. Every top-level element written here carries `data-prerendered`; the
//! app removes those elements in the same task in which it mounts its own (`src/lib.rs`).
//! Controls are `disabled` until the app takes over. `public/early.js` marks the static numbers as
//! updating when the link asks for settings other than the defaults.

use amp_chart::draw::{legend_marks, LegendMark, Theme};
use std::sync::OnceLock;

use amp_math::median_sim::Simulation;

use crate::figures::{Chart, ChartResult, FigureSpec, ModelError, FIGURES};
use crate::pages::{
    home, is_relevant, page_links, training, Controls, Group, NoteKind, NoteSpec, Page, Precision,
    Readings, Section, TableSpec, View, Widget, Workbench,
};
use crate::prose::{content_json, prose_html};
use amp_format::{compact_number, display_number};
use amp_model::params::{Domain, ParamSpec, ParamValues, Value};

mod controls;
pub use controls::*;

/// The size a pre-rendered figure is drawn at, in SVG user units: the canvas's 16:10 box
/// (`.figure canvas { aspect-ratio: 16 / 10 }`), scaled to the column's width by the browser.
pub const FIGURE_SIZE: (u32, u32) = (800, 500);

/// The site's name, after each page's title.
pub const SITE: &str = "Amplification Explorer";

/// One file of the pre-rendered site.
pub struct Document {
    /// Where it goes under `dist/`: `index.html`, `training/index.html`, `embed/<id>/index.html`.
    pub path: String,
    /// The whole document.
    pub html: String,
}

/// Every view the app has: the pages in navigation order, then one embed per registry figure.
pub fn views() -> Vec<View> {
    Page::ALL
        .into_iter()
        .map(View::Page)
        .chain(FIGURES.iter().map(View::Embed))
        .collect()
}

/// The whole site from Trunk's `index.html` (its `<head>` is kept, with the title and description
/// of each view and its relative URLs rewritten for the view's depth), and `content.json`: every
/// page's prose, which the app reads instead of carrying it in the wasm.
pub fn site(template: &str) -> Result<Vec<Document>, String> {
    let mut docs = views()
        .into_iter()
        .map(|view| {
            Ok(Document {
                path: format!("{}index.html", crate::pages::view_path(view)),
                html: document(view, template)?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    docs.push(Document {
        path: "content.json".into(),
        html: content_json(),
    });
    Ok(docs)
}

/// The relative path from a view's directory back to the app's root (`""`, `"../"`, `"../../"`).
pub fn root_of(view: View) -> String {
    "../".repeat(crate::pages::view_path(view).matches('/').count())
}

/// The document title of a view: the page's heading or the figure's title, then the site's name.
pub fn title(view: View) -> String {
    match view {
        View::Page(Page::Home) => SITE.to_string(),
        View::Page(p) => format!("{} · {SITE}", p.spec().heading),
        View::Embed(f) => format!("{} · {SITE}", f.title),
    }
}

/// A page's opening paragraph (plain text, its fragment's trailing line break dropped).
fn lede_text(page: Page) -> &'static str {
    prose_html(page.spec().lede).unwrap_or_default().trim_end()
}

/// The search engines' description of a view: the page's opening paragraph, or the figure's
/// caption at the defaults.
pub fn description(view: View) -> String {
    match view {
        View::Page(p) => lede_text(p).to_string(),
        View::Embed(f) => match default_chart(f) {
            Ok(c) => format!("{}: {}", f.title, c.summary),
            Err(_) => f.title.to_string(),
        },
    }
}

/// One view's document.
pub fn document(view: View, template: &str) -> Result<String, String> {
    let head = template
        .split_once("<head>")
        .and_then(|(_, rest)| rest.split_once("</head>"))
        .map(|(head, _)| head)
        .ok_or("the template has no <head>")?;
    let root = root_of(view);
    let head = head
        .replace("href=\"./", &format!("href=\"{root}"))
        .replace("src=\"./", &format!("src=\"{root}"));
    let head = replace_between(&head, "<title>", "</title>", &esc(&title(view)))?;
    let head = replace_between(
        &head,
        "<meta name=\"description\" content=\"",
        "\">",
        &esc(&description(view)),
    )?;
    let id = match view {
        View::Page(p) => p.id().to_string(),
        View::Embed(f) => format!("embed/{}", f.id),
    };
    // An embed's figure fills the height its controls leave, so a first paint before the
    // controls have arrived (a slow network delivers the document in pieces) would show a tall
    // figure that then shrinks. Chromium holds the first paint until the end of the embed is
    // parsed (`rel=expect`, render-blocking); other browsers ignore the hint.
    let head = match view {
        View::Embed(_) => {
            format!("{head}<link rel=\"expect\" href=\"#embed-end\" blocking=\"render\">")
        }
        View::Page(_) => head,
    };
    // Every view's id, for public/early.js to redirect an old link only to a view that exists.
    let views: Vec<String> = views()
        .into_iter()
        .map(|v| match v {
            View::Page(p) => p.id().to_string(),
            View::Embed(f) => format!("embed/{}", f.id),
        })
        .collect();
    // A view that uses the compute worker says so, for the app to start it once live.
    let compute = if view.uses_worker() {
        " data-compute=\"worker\""
    } else {
        ""
    };
    Ok(format!(
        "<!DOCTYPE html>\n<html lang=\"en\"{compute} data-root=\"{root}\" data-view=\"{id}\" data-views=\"{}\">\n<head>{head}</head>\n<body>\n{}\n</body>\n</html>\n",
        views.join(" "),
        body(view, &root)
    ))
}

fn replace_between(s: &str, open: &str, close: &str, with: &str) -> Result<String, String> {
    let start = s
        .find(open)
        .ok_or_else(|| format!("the template has no {open}"))?
        + open.len();
    let len = s[start..]
        .find(close)
        .ok_or_else(|| format!("the template has no {close}"))?;
    Ok(format!("{}{with}{}", &s[..start], &s[start + len..]))
}

/// The body of a view (what the app's `App` component renders at the default settings).
pub fn body(view: View, root: &str) -> String {
    let values = ParamValues::default();
    let noscript =
        "<noscript><p class=\"static-note\">This page is shown at its default settings: \
                    moving the controls needs JavaScript (the app runs in your browser with \
                    WebAssembly).</p></noscript>";
    let status = "<p class=\"static-status\" role=\"status\" data-testid=\"static-status\">\
                  Updating the numbers and figures to the settings in the link…</p>";
    match view {
        View::Embed(f) => format!(
            "{noscript}\n<main class=\"embed\" id=\"main\" data-prerendered>{status}{}<div class=\"controls\">{}</div><p class=\"embed-credit\" id=\"embed-end\"><a href=\"{root}{}#fig-{}\" target=\"_blank\" rel=\"noopener\">Open in {SITE}</a></p></main>",
            figure(f, &values, true),
            controls_of(view, f.params, &values),
            crate::pages::view_path(View::Page(crate::pages::Page::of(f.id))),
            f.id
        ),
        View::Page(page) => {
            let spec = page.spec();
            let readings = (spec.readouts)(&values, Precision::Fine);
            let ctx = Ctx {
                view,
                values: &values,
                readings: &readings,
                root,
            };
            let sections: String = spec.sections.iter().map(|s| section(s, &ctx)).collect();
            format!(
                "{noscript}\n<a class=\"skip\" href=\"#main\" data-prerendered>Skip to content</a>\n{}\n<main id=\"main\" tabindex=\"-1\" data-prerendered>{status}<article class=\"page page-{}\" data-readings=\"{}\"><h1>{}</h1><p class=\"lede\" data-prose=\"{}\">{}</p>{sections}</article></main>\n<footer class=\"site-footer\" data-prerendered><p>Runs entirely in your browser: no server, no requests, nothing stored.</p></footer>",
                nav(page, root),
                spec.id,
                esc(&spec.carry(&readings)),
                esc(spec.heading),
                spec.lede.0,
                lede_text(page)
            )
        }
    }
}

/// What every part of a page needs.
struct Ctx<'a> {
    view: View,
    values: &'a ParamValues,
    readings: &'a Readings,
    root: &'a str,
}

fn nav(current: Page, root: &str) -> String {
    let items: String = Page::ALL
        .into_iter()
        .map(|p| {
            let label = if p == Page::Home { SITE } else { p.title() };
            format!(
                "<li{}><a href=\"{}\"{} data-testid=\"nav-{}\">{}</a></li>",
                if p == Page::Home {
                    " class=\"brand\""
                } else {
                    ""
                },
                page_href(root, p),
                if p == current {
                    " aria-current=\"page\""
                } else {
                    ""
                },
                p.id(),
                esc(label)
            )
        })
        .collect();
    format!(
        "<header class=\"site-header\" data-prerendered><nav aria-label=\"Pages\"><ul>{items}<li><button type=\"button\" class=\"theme-toggle\" disabled>Theme: system</button></li></ul></nav></header>"
    )
}

/// A page's address from a document whose way back to the root is `root` (`"../"`, or `""` at
/// the root, where home is `"./"`).
fn page_href(root: &str, p: Page) -> String {
    let path = crate::pages::view_path(View::Page(p));
    if root.is_empty() && path.is_empty() {
        "./".to_string()
    } else {
        format!("{root}{path}")
    }
}

fn section(s: &Section, ctx: &Ctx) -> String {
    match s {
        Section::Prose(p) => format!(
            "<section class=\"explain\" data-prose=\"{}\">{}</section>",
            p.0,
            page_links(prose_html(*p).unwrap_or_default(), ctx.root)
        ),
        Section::Workbench(w) => workbench(w, ctx),
        Section::Figures { label, figures } => format!(
            "<section class=\"figures\" aria-label=\"{}\">{}</section>",
            esc(label),
            figures
                .iter()
                .map(|id| figure(id.spec(), ctx.values, false))
                .collect::<String>()
        ),
        Section::Widget(w) => widget(*w, ctx),
    }
}

fn workbench(w: &Workbench, ctx: &Ctx) -> String {
    let controls: String = w.controls.iter().map(|c| control_block(c, ctx)).collect();
    let results = if w.groups.is_empty() {
        String::new()
    } else {
        format!(
            "<div class=\"panel results\">{}{}</div>",
            w.results_title
                .map(|t| format!("<h2>{}</h2>", esc(t)))
                .unwrap_or_default(),
            w.groups.iter().map(|g| group(g, ctx)).collect::<String>()
        )
    };
    format!(
        "<section class=\"workbench\" aria-label=\"{}\"><div class=\"panel\">{controls}</div>{results}</section>",
        esc(w.label)
    )
}

fn control_block(c: &Controls, ctx: &Ctx) -> String {
    if !crate::pages::block_is_shown(ctx.view, ctx.values, c) {
        return String::new();
    }
    format!(
        "<h2>{}</h2><div class=\"controls\">{}</div>{}{}{}",
        esc(c.title),
        controls_of(ctx.view, c.params, ctx.values),
        c.notes.iter().map(|n| note(n, ctx)).collect::<String>(),
        c.remark
            .map(|t| format!("<p class=\"small\">{}</p>", esc(t)))
            .unwrap_or_default(),
        c.widget.map(|w| widget(w, ctx)).unwrap_or_default()
    )
}

fn group(g: &Group, ctx: &Ctx) -> String {
    let mut out = String::new();
    if let Some(h) = g.heading.filter(|_| g.heading_shown(ctx.values)) {
        out += &format!("<h3>{}</h3>", esc(h));
    }
    if let Some(t) = g.intro {
        out += &format!("<p class=\"small\">{}</p>", esc(t));
    }
    for n in g.notes_before {
        out += &note(n, ctx);
    }
    if !g.readouts.is_empty() {
        out += "<dl class=\"readouts\">";
        for spec in g.readouts.iter().filter(|s| g.shows(s, ctx.values)) {
            let (value, relation) = match ctx.readings.get(spec) {
                Some(r) => (r.value.clone().map_err(|e| e.to_string()), r.relation),
                None => (
                    Err("not computed".to_string()),
                    amp_math::Relation::AddRemove,
                ),
            };
            out += &readout(spec.id, spec.label, &value, relation, spec.digits);
        }
        out += "</dl>";
    }
    if let Some(t) = g.remark {
        out += &format!("<p class=\"small\">{}</p>", esc(t));
    }
    for n in g.notes_after {
        out += &note(n, ctx);
    }
    if let Some(t) = g.table {
        out += &table(t, ctx);
    }
    if let Some(w) = g.widget {
        out += &widget(w, ctx);
    }
    out
}

/// A readout as the app's `Readout` component shows it.
fn readout(
    testid: &str,
    label: &str,
    value: &Result<f64, String>,
    relation: amp_math::Relation,
    digits: usize,
) -> String {
    let finite = value.as_ref().ok().copied().filter(|v| v.is_finite());
    let full = finite.map(compact_number).unwrap_or_default();
    let shown = finite
        .map(|v| display_number(v, digits))
        .unwrap_or_else(|| "—".into());
    let note = value
        .as_ref()
        .err()
        .map(|m| format!("<span class=\"readout-note\">{}</span>", esc(m)))
        .unwrap_or_default();
    format!(
        "<div class=\"readout\"><dt>{}</dt><dd><output data-testid=\"{testid}\" data-value=\"{full}\"{} title=\"{full}\">{}</output><span class=\"badge\" title=\"neighbouring relation\">{}</span>{note}</dd></div>",
        esc(label),
        if finite.is_none() { " class=\"unavailable\"" } else { "" },
        esc(&shown),
        esc(relation.label())
    )
}

fn note(n: &NoteSpec, ctx: &Ctx) -> String {
    let text = ctx.readings.text(n);
    match n.kind {
        NoteKind::Warning => text
            .map(|t| {
                t.lines()
                    .map(|line| {
                        format!(
                            "<p class=\"warning\" role=\"note\" data-testid=\"{}\">{}</p>",
                            n.id,
                            esc(line)
                        )
                    })
                    .collect()
            })
            .unwrap_or_default(),
        NoteKind::Sentence => format!(
            "<p class=\"sentence\" data-testid=\"{}\">{}</p>",
            n.id,
            esc(text.unwrap_or_default())
        ),
        NoteKind::Small => format!(
            "<p class=\"small\" data-testid=\"{}\">{}</p>",
            n.id,
            esc(text.unwrap_or_default())
        ),
    }
}

fn table(t: &TableSpec, ctx: &Ctx) -> String {
    let body = match ctx.readings.rows(t) {
        Some(Ok(rows)) => rows
            .iter()
            .map(|row| {
                format!(
                    "<tr data-testid=\"{}\" data-value=\"{}\" data-valid=\"{}\"><th scope=\"row\">{}<br><span class=\"small\">{}</span></th><td{}>{}</td>{}</tr>",
                    esc(&row.testid),
                    row.value.map(compact_number).unwrap_or_default(),
                    row.valid,
                    esc(&row.name),
                    esc(&row.tag),
                    if row.valid { "" } else { " class=\"muted\"" },
                    esc(&row.shown),
                    row.notes
                        .iter()
                        .map(|n| format!("<td class=\"small\">{}</td>", esc(n)))
                        .collect::<String>()
                )
            })
            .collect(),
        Some(Err(e)) => format!(
            "<tr><td colspan=\"{}\">{}</td></tr>",
            t.columns.len(),
            esc(&e.to_string())
        ),
        None => String::new(),
    };
    format!(
        "<table class=\"compare\" data-testid=\"{}\"><caption>{}</caption><thead><tr>{}</tr></thead><tbody>{body}</tbody></table>",
        t.id,
        esc(t.caption),
        t.columns
            .iter()
            .map(|c| format!("<th scope=\"col\">{}</th>", esc(c)))
            .collect::<String>()
    )
}

/// The widgets the app renders itself; here what they show at the defaults before the app runs.
fn widget(w: Widget, ctx: &Ctx) -> String {
    match w {
        Widget::Techniques => {
            let rows: String = home::TECHNIQUES
                .iter()
                .enumerate()
                .map(|(i, t)| {
                    let live = match home::technique_sentence(i, ctx.values, ctx.readings) {
                        Some((before, spec, v, after)) => format!(
                            "<span>{}<output data-testid=\"{}\" data-value=\"{}\">{}</output>{}</span>",
                            esc(&before),
                            spec.id,
                            compact_number(v),
                            esc(&display_number(v, spec.digits)),
                            esc(&after)
                        ),
                        None => "<span>—</span>".to_string(),
                    };
                    format!(
                        "<tr><th scope=\"row\"><a href=\"{}\">{}</a></th><td>{}</td><td>{live}</td></tr>",
                        page_href(ctx.root, t.page),
                        esc(t.name),
                        esc(t.what)
                    )
                })
                .collect();
            format!(
                "<table class=\"techniques\"><caption>Three ways to amplify privacy</caption><thead><tr><th scope=\"col\">Technique</th><th scope=\"col\">What happens</th><th scope=\"col\">A live number</th></tr></thead><tbody>{rows}</tbody></table>"
            )
        }
        Widget::AccountingStatus => {
            let step = training::grid_step(ctx.readings);
            format!(
                "<p class=\"small\" data-testid=\"accounting-status\" data-state=\"final\" data-step=\"{}\" role=\"status\">{}</p>",
                step.map(compact_number).unwrap_or_default(),
                esc(&training::accounting_status(step, true))
            )
        }
        Widget::Statement => format!(
            "<div class=\"statement\"><label for=\"privacy-statement\">Privacy statement (plain language)</label><textarea id=\"privacy-statement\" readonly rows=\"9\" data-testid=\"{}\">{}</textarea><button type=\"button\" disabled>Copy statement</button></div>",
            training::STATEMENT.id,
            esc(ctx.readings.text(&training::STATEMENT).unwrap_or_default())
        ),
        // The simulation runs in the app; its panel and tables fill in once it has.
        Widget::SimPanel => "<div class=\"sim-panel\"><div class=\"sim-status\"><span>Waiting to start.</span></div></div>".to_string(),
        Widget::Reproduction | Widget::TableOne => String::new(),
        // The same markup as the app's (one phase: nothing to remove).
        Widget::Phases => "<div class=\"phases\"><button type=\"button\" data-testid=\"add-phase\">Add a phase</button><button type=\"button\" data-testid=\"remove-phase\" disabled>Remove the last phase</button><button type=\"button\" data-testid=\"download-run\">Download run</button><label class=\"file-button\">Open run<input type=\"file\" accept=\".json,application/json\" data-testid=\"open-run\"></label><p class=\"error\" data-testid=\"run-file-error\" aria-live=\"polite\"></p></div>".to_string(),
    }
}
