//! A pre-rendered page's controls and figures: each control as the app shows it (disabled until the
//! app takes over), each figure as inline SVG at the page's and the narrow width, with its legend
//! and caption.

use super::*;

/// The controls of `params` that apply at these values, as the app's `Controls` shows them, at
/// their values, disabled until the app takes over.
pub(super) fn controls_of(
    view: View,
    params: &[&'static ParamSpec],
    values: &ParamValues,
) -> String {
    params
        .iter()
        .filter(|spec| is_relevant(view, values, spec))
        .map(|spec| control(spec, values.get(spec)))
        .collect()
}

fn control(spec: &'static ParamSpec, value: Value) -> String {
    let name = spec.name;
    let label = if spec.unit.is_empty() {
        spec.label.to_string()
    } else {
        format!("{} ({})", spec.label, spec.unit)
    };
    let message = format!(
        "<p class=\"help\" id=\"help-{name}\" data-prose=\"{}\">{}</p><p class=\"error\" id=\"err-{name}\" aria-live=\"polite\" data-testid=\"error-{name}\"></p>",
        spec.help_name(),
        esc(spec.help)
    );
    let input = match spec.domain {
        Domain::Choice(options) => {
            let opts: String = options
                .iter()
                .enumerate()
                .map(|(i, o)| {
                    format!(
                        "<option value=\"{}\"{}>{}</option>",
                        o.id,
                        if value == Value::Choice(i) {
                            " selected"
                        } else {
                            ""
                        },
                        esc(o.label)
                    )
                })
                .collect();
            format!(
                "<select id=\"ctl-{name}\" name=\"{name}\" aria-describedby=\"help-{name} err-{name}\" disabled>{opts}</select>"
            )
        }
        _ => {
            let shown = spec.format(value);
            format!(
                "<div class=\"control-row\"><input type=\"range\" min=\"0\" max=\"{}\" step=\"1\" aria-label=\"{} (slider)\" aria-valuetext=\"{}\" data-testid=\"slider-{name}\" value=\"{}\" disabled><input type=\"text\" inputmode=\"decimal\" autocomplete=\"off\" spellcheck=\"false\" id=\"ctl-{name}\" name=\"{name}\" class=\"number\" aria-describedby=\"help-{name} err-{name}\" aria-invalid=\"false\" data-testid=\"field-{name}\" value=\"{}\" disabled></div>",
                ParamSpec::SLIDER_STEPS,
                esc(spec.label),
                esc(&shown),
                spec.to_slider(value).unwrap_or(0),
                esc(&shown)
            )
        }
    };
    format!(
        "<div class=\"control\"><label for=\"ctl-{name}\">{}</label>{input}{message}</div>",
        esc(&label)
    )
}

/// A figure as the app's `FigureView` shows it, with the picture as an inline SVG.
/// A figure's chart at the defaults, computed once per process for the whole site (each appears
/// on its page, in its embed and in the embed's description), with one median simulation shared by
/// the simulated figures (they all run it at the same defaults).
pub(super) fn default_chart(f: &FigureSpec) -> &'static ChartResult {
    static CHARTS: OnceLock<Vec<ChartResult>> = OnceLock::new();
    let charts = CHARTS.get_or_init(|| {
        let values = ParamValues::default();
        // As `FigureSpec::chart` runs it, once.
        let run = || -> Result<Simulation, ModelError> {
            let mut sim = Simulation::new(amp_model::accuracy::sim_config(&values)?)?;
            sim.run_to_end();
            Ok(sim)
        };
        let sim = FIGURES.iter().any(FigureSpec::is_simulated).then(run);
        FIGURES
            .iter()
            .map(|f| match (&sim, f.is_simulated()) {
                (Some(Ok(s)), true) => f.chart_with(&values, Some(s)),
                (Some(Err(e)), true) => Err(e.clone()),
                _ => f.chart(&values),
            })
            .collect()
    });
    let i = FIGURES.iter().position(|g| g.id == f.id).unwrap_or(0);
    &charts[i]
}

pub(super) fn figure(f: &FigureSpec, values: &ParamValues, embedded: bool) -> String {
    let id = f.id.as_str();
    let heading = if embedded { "h1" } else { "h3" };
    // Every document is drawn at the defaults.
    debug_assert!(*values == ParamValues::default());
    // On a page, a two-panel figure also carries a square picture for phones (style/main.css
    // shows one of the two), as the app draws it there.
    let square = f.id.two_panels() && !embedded;
    let (picture, caption, after) = match default_chart(f) {
        Ok(chart) => match inline_svg(chart, id, FIGURE_SIZE, "static-plot", "static") {
            Ok(svg) => (
                format!(
                    "<div class=\"plot-wrap\">{svg}{}</div>{}",
                    if square {
                        inline_svg(chart, id, SQUARE_SIZE, "static-square", "static-square")
                            .unwrap_or_default()
                    } else {
                        String::new()
                    },
                    narrow_legend(
                        chart,
                        id,
                        match (embedded, square) {
                            (true, _) => NARROW_EMBED,
                            (false, true) => NARROW_SQUARE,
                            (false, false) => NARROW_PAGE,
                        }
                    )
                ),
                chart.summary.clone(),
                chart
                    .notes
                    .iter()
                    .map(|n| format!("<p class=\"figure-note\">{}</p>", esc(n)))
                    .collect::<String>(),
            ),
            Err(e) => refused(&e),
        },
        Err(e) => refused(&e.to_string()),
    };
    let exports: String = ["SVG", "PNG", "CSV", "JSON"]
        .iter()
        .map(|n| format!("<button type=\"button\" disabled>{n}</button>"))
        .collect();
    // A figure the app computes in its worker carries its chart (`Chart::carry`, the same code at
    // the same values), which the app adopts at the defaults: its first live picture then needs
    // neither the worker nor a computation on the page.
    let carried = match default_chart(f) {
        Ok(chart) if f.is_deferred() => format!(" data-chart=\"{}\"", esc(&chart.carry())),
        _ => String::new(),
    };
    format!(
        "<figure class=\"figure{}\" id=\"fig-{id}\" data-figure=\"{id}\"{carried} aria-labelledby=\"title-{id}\"><{heading} class=\"figure-title\" id=\"title-{id}\">{}</{heading}>{picture}<figcaption id=\"desc-{id}\" class=\"figure-summary\">{}</figcaption>{after}<div class=\"figure-share\"><button type=\"button\" disabled>Copy link</button><button type=\"button\" disabled>Copy embed code</button><span class=\"figure-export\" role=\"group\" aria-label=\"Export “{}”\">Export: {exports}</span></div></figure>",
        match (square, f.id.two_panels() && embedded) {
            (true, _) => " two-panel",
            (false, true) => " two-panel-embed",
            _ => "",
        },
        esc(f.title),
        esc(&caption),
        esc(f.title)
    )
}

/// The canvas's size on a phone (412 px wide, `bench/phone.mjs`'s viewport), in CSS pixels: a
/// figure on a page, and an embed's figure at its smallest height (14rem).
const NARROW_PAGE: (u32, u32) = (354, 221);
const NARROW_EMBED: (u32, u32) = (396, 224);
/// A two-panel figure on a phone's page: square (style/main.css), 354 px.
const NARROW_SQUARE: (u32, u32) = (354, 354);
/// The square picture of a two-panel figure, for phones.
pub const SQUARE_SIZE: (u32, u32) = (500, 500);

/// Where the app would list the legend under the canvas on a phone (its legend fits nowhere
/// inside the plot there), the same list, shown on narrow screens only: the live figure then
/// takes the place of the static one without moving the caption and controls below it.
fn narrow_legend(chart: &Chart, id: &str, size: (u32, u32)) -> String {
    if !amp_chart::svg::legend_outside(chart, size) {
        return String::new();
    }
    let items: String = legend_marks(chart, &Theme::light(1.0))
        .into_iter()
        .map(|e| {
            let c = esc(&e.color);
            let sample = match e.mark {
                LegendMark::Fill => format!("<rect x=\"0\" y=\"3\" width=\"24\" height=\"8\" fill=\"{c}\" fill-opacity=\"0.35\"></rect>"),
                LegendMark::Dot => format!("<circle cx=\"12\" cy=\"7\" r=\"3\" fill=\"{c}\"></circle>"),
                LegendMark::Line => format!("<line x1=\"0\" y1=\"7\" x2=\"24\" y2=\"7\" stroke=\"{c}\" stroke-width=\"2\"></line>"),
                LegendMark::Dashed => format!("<line x1=\"0\" y1=\"7\" x2=\"24\" y2=\"7\" stroke=\"{c}\" stroke-width=\"2\" stroke-dasharray=\"5 3\"></line>"),
            };
            format!(
                "<li><svg class=\"legend-sample\" width=\"24\" height=\"14\" viewBox=\"0 0 24 14\" aria-hidden=\"true\">{sample}</svg>{}</li>",
                esc(&e.label)
            )
        })
        .collect();
    format!(
        "<ul class=\"figure-legend narrow-only\" data-testid=\"static-legend-{id}\">{items}</ul>"
    )
}

fn refused(e: &str) -> (String, String, String) {
    (
        "<div class=\"plot-wrap refused\"></div>".to_string(),
        crate::figures::REFUSED_CAPTION.to_string(),
        format!("<p class=\"figure-error\" role=\"status\">{}</p>", esc(e)),
    )
}

/// The SVG of a figure on a page, without its title (the page shows it as a heading): exactly
/// what `amplify plot <id> --no-title --width 800 --height 500` writes.
pub fn figure_svg(chart: &Chart, size: (u32, u32)) -> Result<String, String> {
    amp_chart::svg::draw_svg(chart, None, size)
}

/// [`figure_svg`] made inline: the fixed width and height give way to the viewBox (the page's CSS
/// sizes it like the canvas), with the figure's title and caption as its accessible name.
fn inline_svg(
    chart: &Chart,
    id: &str,
    size: (u32, u32),
    class: &str,
    testid: &str,
) -> Result<String, String> {
    let svg = figure_svg(chart, size)?;
    let (w, h) = size;
    let open = format!("<svg width=\"{w}\" height=\"{h}\" ");
    let rest = svg
        .strip_prefix(&open)
        .ok_or("plotters' SVG does not start as expected")?;
    Ok(format!(
        "<svg class=\"{class}\" role=\"img\" aria-labelledby=\"title-{id}\" aria-describedby=\"desc-{id}\" data-testid=\"{testid}-{id}\" {rest}"
    ))
}

/// Escape text for HTML content and double-quoted attributes.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}
