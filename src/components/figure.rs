//! A registry figure on a canvas: recomputed only when a parameter it reads changes, redrawn on
//! change or resize (each redraw measured as `redraw:<figure-id>`), with its text alternative,
//! notes, and "copy link" / "copy embed code".

use amp_chart::draw::{
    draw_chart, draw_chart_legend_below, legend_marks, values_at, Frame, LegendMark, Theme,
};
use amp_format::short_number;
use amp_model::params::{ParamValues, Value};
use amp_site::figures::{Chart, FigureSpec};
use amp_site::pages::{params_query, View};
use leptos::html::Canvas;
use leptos::prelude::*;
use plotters::prelude::*;

use crate::browser;
use crate::canvas::{detached_canvas, AppBackend};
use crate::components::deferred::{deferred_from, Remote, REST};
use crate::sim::{SimRunner, SimStatus};
use crate::state::AppState;
use amp_site::job::Job;

/// Size of the canvas when the page gives it no layout size (tests), in CSS pixels.
const FALLBACK_SIZE: (f64, f64) = (820.0, 512.0);

/// One figure. Its title is a level-3 heading under a page's sections, or the page's one level-1
/// heading when the figure is embedded on its own (`embedded`). The chart is computed here once
/// ([`chart_memo`]) and flows down to the canvas, the status lines and the actions bar.
#[component]
pub fn FigureView(spec: &'static FigureSpec, #[prop(optional)] embedded: bool) -> impl IntoView {
    let canvas_ref = NodeRef::<Canvas>::new();
    // Set by the canvas when painting fails; the last good picture stays, the message shows.
    let draw_error = RwSignal::new(None::<String>);
    // Whether a picture was ever painted (set by the canvas).
    let painted_once = RwSignal::new(false);
    // A figure computed later (once the controls rest, or from the simulation) keeps the
    // pre-rendered picture, caption, legend and notes until its first paint, when the reader's
    // settings for it are the defaults they were drawn at (so they are the reader's): nothing
    // moves or blanks when the app takes over.
    let state = expect_context::<AppState>();
    let placeholder = (spec.is_deferred() || spec.is_simulated())
        .then(|| {
            state
                .values
                .with_untracked(|v| spec.params.iter().all(|p| v.get(p) == p.default))
        })
        .filter(|&defaults| defaults)
        .and_then(|_| browser::static_figure(spec.id.as_str()));
    // The chart the document carries for a figure computed in the worker, at the defaults it was
    // drawn at: adopted, so the first live picture needs no computation.
    let known = placeholder
        .as_ref()
        .filter(|_| spec.is_deferred())
        .and_then(|p| p.chart.as_deref())
        .and_then(Chart::adopt);
    let FigureData { chart, pending } = chart_memo(spec, known);
    let standing_in = {
        let has = placeholder.is_some();
        Signal::derive(move || has && !painted_once.get())
    };
    let static_caption = placeholder.as_ref().map(|p| p.caption.clone());
    let summary = move || {
        if standing_in.get() {
            if let Some(c) = &static_caption {
                return c.clone();
            }
        }
        chart.with(|c| match c {
            Ok(c) => c.summary.clone(),
            // The reason follows on its own line (the status under the caption), said once.
            Err(_) => amp_site::figures::REFUSED_CAPTION.to_string(),
        })
    };
    let (static_svg, static_after, static_notes) = match placeholder {
        Some(p) => (Some(p.svg), Some(p.after), Some(p.notes)),
        None => (None, None, None),
    };
    // The figure does not apply at these settings (not merely waiting for its computation).
    let refused = Signal::derive(move || chart.with(Result::is_err) && pending.get().is_none());
    let title_id = format!("title-{}", spec.id);
    let desc_id = format!("desc-{}", spec.id);
    let (labelled_by, canvas_label, canvas_desc) =
        (title_id.clone(), title_id.clone(), desc_id.clone());
    view! {
        <figure class="figure" class:two-panel=spec.id.two_panels() && !embedded class:two-panel-embed=spec.id.two_panels() && embedded id=format!("fig-{}", spec.id) data-figure=spec.id.as_str() aria-labelledby=labelled_by>
            {if embedded {
                view! { <h1 class="figure-title" id=title_id>{spec.title}</h1> }.into_any()
            } else {
                view! { <h3 class="figure-title" id=title_id>{spec.title}</h3> }.into_any()
            }}
            <PlotCanvas spec=spec chart=chart refused=refused canvas_ref=canvas_ref draw_error=draw_error title_id=canvas_label desc_id=canvas_desc painted_once=painted_once placeholder=static_svg />
            {static_after.map(|html| view! { <Show when=move || standing_in.get()><div class="static-after" inner_html=html.clone()></div></Show> })}
            <figcaption id=desc_id class="figure-summary">{summary}</figcaption>
            {static_notes.map(|html| view! { <Show when=move || standing_in.get()><div class="static-after" inner_html=html.clone()></div></Show> })}
            <FigureStatus spec=spec chart=chart pending=pending draw_error=draw_error standing_in=standing_in />
            <FigureActions spec=spec chart=chart canvas_ref=canvas_ref />
        </figure>
    }
}

/// A figure's chart and, while it is not ready, what it is waiting for.
struct FigureData {
    /// The chart, or why there is none.
    chart: Memo<Result<Chart, String>>,
    /// "Computing…" or the simulation's progress, while the chart on screen is not current.
    pending: Signal<Option<String>>,
}

/// The chart of `spec` from the app's values: recomputed only when a parameter it reads changes
/// (measured as `chart:<figure-id>`); computed in the compute worker for a slow figure (starting
/// from `known`, the chart the document carries, if any), and from the running simulation's result
/// for a simulated one.
fn chart_memo(spec: &'static FigureSpec, known: Option<Chart>) -> FigureData {
    let state = expect_context::<AppState>();
    // Only the parameters this figure reads: changing another leaves the chart memo untouched.
    let inputs = Memo::new(move |_| {
        state
            .values
            .with(|v| spec.params.iter().map(|p| v.get(p)).collect::<Vec<Value>>())
    });
    let runner = use_context::<SimRunner>();
    // Figures too slow to follow a slider are computed once the controls rest.
    let later = spec.is_deferred().then(|| {
        // Computed in the compute worker, bit for bit what the page would compute.
        let remote = Remote::job(
            Job::Chart(spec.id),
            format!("the figure “{}”", spec.title),
            amp_site::job::read_chart,
        );
        deferred_from(inputs, REST, known.map(Ok), Some(remote), move || {
            browser::timed(&format!("chart:{}", spec.id), || {
                state
                    .values
                    .with_untracked(|v| spec.chart_with(v, None).map_err(|e| e.to_string()))
            })
        })
    });
    let chart: Memo<Result<Chart, String>> = Memo::new(move |_| {
        if let Some(d) = later {
            // The last chart computed stays until the next one is ready.
            return d
                .last()
                .unwrap_or_else(|| Err("computing this figure…".into()));
        }
        // Read (not just track) the inputs memo, so it is brought up to date first.
        inputs.with(|_| ());
        let sim = if spec.is_simulated() {
            runner.and_then(|r| r.result.get())
        } else {
            None
        };
        // Measured as `chart:<figure-id>` (the computation; `redraw:` is the painting).
        browser::timed(&format!("chart:{}", spec.id), || {
            state.values.with_untracked(|v| {
                spec.chart_with(v, sim.as_deref())
                    .map_err(|e| e.to_string())
            })
        })
    });
    let pending = Signal::derive(move || -> Option<String> {
        if let Some(d) = later {
            return d.pending().then(|| "Computing…".to_string());
        }
        if !spec.is_simulated() {
            return None;
        }
        match runner.map(|r| r.status.get())? {
            SimStatus::Running { done, total } => Some(format!(
                "Simulating: {} of {} runs ({}%).",
                done,
                total,
                (100 * done) / total.max(1)
            )),
            SimStatus::Cancelled => {
                Some("The simulation was stopped; run it again to draw this figure.".into())
            }
            SimStatus::Idle => Some("The simulation has not started.".into()),
            SimStatus::Done | SimStatus::Failed(_) => None,
        }
    });
    FigureData { chart, pending }
}

/// The canvas: painted when the chart, the theme or the window size changes (measured as
/// `redraw:<figure-id>`), with the pointer readout over it.
#[component]
fn PlotCanvas(
    spec: &'static FigureSpec,
    chart: Memo<Result<Chart, String>>,
    refused: Signal<bool>,
    canvas_ref: NodeRef<Canvas>,
    draw_error: RwSignal<Option<String>>,
    title_id: String,
    desc_id: String,
    /// Whether a picture was ever painted: a figure refused before its first picture shows its
    /// reason without an empty canvas above it; after one, the last picture stays.
    painted_once: RwSignal<bool>,
    /// The pre-rendered picture shown over the canvas until its first paint.
    placeholder: Option<Vec<web_sys::Element>>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    // Where the last paint put the plotting area, for the pointer readout.
    let frame = StoredValue::new(None::<Frame>);
    // Set when the legend fits nowhere inside the plot: it is listed under the canvas instead.
    // At first as the pre-rendered page had it (the list shown on a phone), so that the live
    // figure's first frame has the same height before its first paint decides.
    let legend_hidden = RwSignal::new(browser::static_legend_shown(spec.id.as_str()));
    let hover = RwSignal::new(None::<Hover>);
    let on_move = move |ev: leptos::ev::PointerEvent| {
        let px = ev.offset_x() as f64 * browser::device_pixel_ratio();
        hover.set(frame.get_value().and_then(|f| hover_at(&f, px, chart)));
    };
    Effect::new(move |_| {
        state.resize.track();
        let dark = state.dark();
        let Some(canvas) = canvas_ref.get() else {
            return;
        };
        // An error keeps the last good picture on the canvas; the message shows below it.
        // Borrow the chart rather than cloning it out of the memo.
        let drawn = chart.with(|c| {
            c.as_ref()
                .ok()
                .map(|c| paint(&canvas, c, spec.id.as_str(), dark))
        });
        let Some(drawn) = drawn else { return };
        hover.set(None);
        match drawn {
            Ok(f) => {
                painted_once.set(true);
                frame.set_value(Some(f));
                legend_hidden.set(f.legend_hidden);
                draw_error.set(None);
            }
            Err(e) => draw_error.set(Some(e)),
        }
    });
    view! {
        <div class="plot-wrap" class:refused=move || refused.get() && !painted_once.get()>
            <canvas
                node_ref=canvas_ref
                role="img"
                aria-labelledby=title_id
                aria-describedby=desc_id
                data-testid=format!("canvas-{}", spec.id)
                on:pointermove=on_move
                on:pointerdown=on_move
                on:pointerleave=move |_| hover.set(None)
            ></canvas>
            {placeholder.map(|svg| {
                // The pre-rendered elements moved in as soon as the box exists (an effect, run
                // before the browser paints the live page).
                let held = NodeRef::<leptos::html::Div>::new();
                held.on_load(move |div| {
                    for el in &svg {
                        let _ = div.append_child(el);
                    }
                });
                view! {
                    <div node_ref=held class="plot-placeholder" class:gone=move || painted_once.get() aria-hidden="true"></div>
                }
            })}
            {move || hover.get().map(|h| crosshair(spec, h))}
        </div>
        {move || legend_hidden.get().then(|| outside_legend(spec, chart, state.dark()))}
    }
}

/// The legend as a list under the canvas, for a chart whose legend would cover data wherever it
/// sat inside the plot. Each entry's sample is a small SVG in the series' colour and dash.
fn outside_legend(
    spec: &'static FigureSpec,
    chart: Memo<Result<Chart, String>>,
    dark: bool,
) -> impl IntoView {
    let theme = if dark {
        Theme::dark(1.0)
    } else {
        Theme::light(1.0)
    };
    let entries = chart.with(|c| {
        c.as_ref()
            .map(|c| legend_marks(c, &theme))
            .unwrap_or_default()
    });
    view! {
        <ul class="figure-legend" data-testid=format!("legend-{}", spec.id)>
            {entries
                .into_iter()
                .map(|e| {
                    let sample = match e.mark {
                        LegendMark::Fill => view! {
                            <rect x="0" y="3" width="24" height="8" fill=e.color.clone() fill-opacity="0.35"></rect>
                        }
                        .into_any(),
                        LegendMark::Dot => view! { <circle cx="12" cy="7" r="3" fill=e.color.clone()></circle> }
                            .into_any(),
                        LegendMark::Line => view! {
                            <line x1="0" y1="7" x2="24" y2="7" stroke=e.color.clone() stroke-width="2"></line>
                        }
                        .into_any(),
                        LegendMark::Dashed => view! {
                            <line x1="0" y1="7" x2="24" y2="7" stroke=e.color.clone() stroke-width="2" stroke-dasharray="5 3"></line>
                        }
                        .into_any(),
                    };
                    view! {
                        <li>
                            <svg class="legend-sample" width="24" height="14" viewBox="0 0 24 14" aria-hidden="true">{sample}</svg>
                            {e.label}
                        </li>
                    }
                })
                .collect_view()}
        </ul>
    }
}

/// The readout at device pixel `px` across the canvas, if it is over the plotting area.
fn hover_at(f: &Frame, px: f64, chart: Memo<Result<Chart, String>>) -> Option<Hover> {
    let dpr = browser::device_pixel_ratio();
    let x = f.x_at(px)?;
    let (x_label, lines) = chart.with_untracked(|c| {
        c.as_ref().ok().map(|c| {
            let lines = values_at(c, x)
                .into_iter()
                .map(|(l, v)| (l, short_number(v, 4)))
                .collect::<Vec<_>>();
            (c.x.label.clone(), lines)
        })
    })?;
    Some(Hover {
        left: px / dpr,
        top: f.top / dpr,
        height: (f.bottom - f.top) / dpr,
        flip: px > (f.left + f.right) / 2.0,
        x_text: format!("{x_label}: {}", short_number(x, 4)),
        lines,
    })
}

/// The vertical line at the pointer and the box of values beside it.
fn crosshair(spec: &'static FigureSpec, h: Hover) -> impl IntoView {
    view! {
        <div
            class="crosshair"
            aria-hidden="true"
            style:left=format!("{:.1}px", h.left)
            style:top=format!("{:.1}px", h.top)
            style:height=format!("{:.1}px", h.height)
        ></div>
        <div
            class="crosshair-readout"
            class:flip=h.flip
            aria-hidden="true"
            data-testid=format!("crosshair-{}", spec.id)
            style:left=if h.flip { None } else { Some(format!("{:.1}px", h.left + 10.0)) }
            style:right=if h.flip { Some(format!("calc(100% - {:.1}px)", h.left - 10.0)) } else { None }
            style:top=format!("{:.1}px", h.top + 4.0)
        >
            <div class="crosshair-x">{h.x_text}</div>
            {h
                .lines
                .into_iter()
                .map(|(l, v)| view! { <div>{l} ": " <strong>{v}</strong></div> })
                .collect_view()}
        </div>
    }
}

/// Under the caption: the chart's notes, then what it is waiting for or why it cannot be drawn.
#[component]
fn FigureStatus(
    spec: &'static FigureSpec,
    chart: Memo<Result<Chart, String>>,
    pending: Signal<Option<String>>,
    draw_error: RwSignal<Option<String>>,
    /// The pre-rendered picture and notes stand in: no "computing" line meanwhile.
    standing_in: Signal<bool>,
) -> impl IntoView {
    view! {
        {move || {
            chart
                .with(|c| c.as_ref().map(|c| c.notes.clone()).unwrap_or_default())
                .into_iter()
                .map(|n| view! { <p class="figure-note">{n}</p> })
                .collect_view()
        }}
        {move || match pending.get() {
            // The pre-rendered picture stands in: it is the reader's, nothing to wait for.
            _ if standing_in.get() => None,
            Some(p) => Some(view! { <p class="figure-pending" role="status" data-testid=format!("pending-{}", spec.id)>{p}</p> }.into_any()),
            None => {
                let err = chart.with(|c| c.as_ref().err().cloned()).or_else(|| draw_error.get());
                err.map(|e| view! { <p class="figure-error" role="status">{e}</p> }.into_any())
            }
        }}
    }
}

/// "Copy link", "Copy embed code" and the export buttons (SVG, PNG, CSV, JSON).
#[component]
fn FigureActions(
    spec: &'static FigureSpec,
    chart: Memo<Result<Chart, String>>,
    canvas_ref: NodeRef<Canvas>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let copied = RwSignal::new(None::<String>);
    let export_error = RwSignal::new(None::<String>);
    let share = move |embed: bool| {
        let text = state.values.with_untracked(|v| share_text(spec, v, embed));
        browser::copy_text(&text);
        copied.set(Some(text));
    };
    view! {
        <div class="figure-share">
            <button type="button" on:click=move |_| share(false)>"Copy link"</button>
            <button type="button" on:click=move |_| share(true)>"Copy embed code"</button>
            <span class="figure-export" role="group" aria-label=format!("Export “{}”", spec.title)>
                "Export: "
                {[Format::Svg, Format::Png, Format::Csv, Format::Json]
                    .into_iter()
                    .map(|f| {
                        view! {
                            <button
                                type="button"
                                data-testid=format!("export-{}-{}", f.ext(), spec.id)
                                aria-label=format!("Download “{}” as {}", spec.title, f.name())
                                on:click=move |_| {
                                    let done = chart.with_untracked(|c| match c {
                                        Ok(c) => export(spec, c, f, &canvas_ref),
                                        Err(e) => Err(e.clone()),
                                    });
                                    export_error.set(done.err());
                                }
                            >
                                {f.name()}
                            </button>
                        }
                    })
                    .collect_view()}
            </span>
            {move || export_error.get().map(|e| view! { <p class="figure-error" role="status">{e}</p> })}
            {move || {
                copied
                    .get()
                    .map(|t| {
                        view! {
                            <label class="share-text">
                                <span>"Copied (or select and copy):"</span>
                                <input type="text" readonly prop:value=t data-testid="share-text" />
                            </label>
                        }
                    })
            }}
        </div>
    }
}

/// The link to the figure on its page, or the iframe code that embeds it alone.
fn share_text(spec: &'static FigureSpec, values: &ParamValues, embed: bool) -> String {
    let address =
        |view: View| format!("{}{}", browser::view_href(view), params_query(view, values));
    if embed {
        let (w, h) = embed_size(spec);
        format!(
            "<iframe src=\"{}\" width=\"{w}\" height=\"{h}\" title=\"{}\" loading=\"lazy\" style=\"border:0;max-width:100%\"></iframe>",
            address(View::Embed(spec)),
            spec.title
        )
    } else {
        let view = expect_context::<AppState>().view.get_untracked();
        format!("{}#fig-{}", address(view), spec.id)
    }
}

/// The pointer readout: a vertical line at the pointer and each series' value there.
#[derive(Clone, Debug, PartialEq)]
struct Hover {
    /// Pointer x over the canvas, in CSS pixels.
    left: f64,
    /// Top of the plotting area, in CSS pixels.
    top: f64,
    /// Height of the plotting area, in CSS pixels.
    height: f64,
    /// Put the box to the left of the line (pointer in the right half).
    flip: bool,
    /// The x axis's name and the value under the pointer.
    x_text: String,
    /// Each series' label and value there.
    lines: Vec<(String, String)>,
}

/// An export format of a figure.
#[derive(Clone, Copy)]
enum Format {
    Svg,
    Png,
    Csv,
    Json,
}

impl Format {
    fn ext(self) -> &'static str {
        match self {
            Format::Svg => "svg",
            Format::Png => "png",
            Format::Csv => "csv",
            Format::Json => "json",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Format::Svg => "SVG",
            Format::Png => "PNG",
            Format::Csv => "CSV",
            Format::Json => "JSON",
        }
    }
}

/// Offer the chart on screen as a file: SVG through plotters' SVG backend (the same drawing code),
/// PNG drawn afresh at twice the screen's pixel ratio, CSV or JSON of the plotted series with the
/// figure's parameters and units in a header.
fn export(
    spec: &'static FigureSpec,
    chart: &Chart,
    format: Format,
    canvas_ref: &NodeRef<Canvas>,
) -> Result<(), String> {
    let state = expect_context::<AppState>();
    let name = format!("{}.{}", spec.id, format.ext());
    let href = match format {
        Format::Svg => {
            // plotters' SVG backend, measuring text on a canvas (its own measurement would insert
            // styled spans into the page, which the Content-Security-Policy blocks).
            // An SVG is appended to, not painted over: when the legend fits nowhere inside the
            // plot, the picture is drawn again from scratch with a band for it below.
            let svg = |below: bool| -> Result<(String, bool), String> {
                let mut out = String::new();
                let hidden = {
                    let area = AppBackend::svg(&mut out, amp_chart::svg::SIZE)
                        .ok_or("this browser gave no canvas to measure the SVG's text on")?
                        .into_drawing_area();
                    let draw = if below {
                        draw_chart_legend_below
                    } else {
                        draw_chart
                    };
                    draw(&area, chart, &Theme::light(1.0), Some(spec.title))?.legend_hidden
                };
                Ok((out, hidden))
            };
            let (mut out, hidden) = svg(false)?;
            if hidden {
                out = svg(true)?.0;
            }
            browser::text_data_url("image/svg+xml", &out)
        }
        Format::Csv => browser::text_data_url(
            "text/csv",
            &state
                .values
                .with_untracked(|v| amp_site::export::chart_csv(spec, v, chart)),
        ),
        Format::Json => browser::text_data_url(
            "application/json",
            &state
                .values
                .with_untracked(|v| amp_site::export::chart_json(spec, v, chart)),
        ),
        Format::Png => {
            let (w, h) = css_size(canvas_ref.get_untracked().as_ref());
            let scale = 2.0 * browser::device_pixel_ratio();
            let canvas =
                detached_canvas().ok_or("this browser gave no canvas to draw the PNG on")?;
            canvas.set_width((w * scale).round() as u32);
            canvas.set_height((h * scale).round() as u32);
            let backend = AppBackend::canvas(&canvas)
                .ok_or_else(|| "this browser gave no 2D canvas to draw on".to_string())?;
            let area = backend.into_drawing_area();
            let theme = Theme::light(scale);
            if draw_chart(&area, chart, &theme, Some(spec.title))?.legend_hidden {
                // A canvas is painted over, not appended to: draw again with the legend below.
                draw_chart_legend_below(&area, chart, &theme, Some(spec.title))?;
            }
            canvas
                .to_data_url_with_type("image/png")
                .map_err(|_| "the browser refused to encode the PNG".to_string())?
        }
    };
    if browser::download(&name, &href) {
        Ok(())
    } else {
        Err("the browser refused the download".into())
    }
}

/// The iframe size that fits the figure and its controls without scrolling, in CSS pixels.
pub fn embed_size(spec: &FigureSpec) -> (u32, u32) {
    let controls = spec.params.len() as u32;
    (820, 560 + 96 * controls.div_ceil(2))
}

/// The canvas's layout size in CSS pixels, or [`FALLBACK_SIZE`] when the page gives it none.
fn css_size(canvas: Option<&web_sys::HtmlCanvasElement>) -> (f64, f64) {
    match canvas.map(|c| (c.client_width() as f64, c.client_height() as f64)) {
        Some((w, h)) if w >= 10.0 && h >= 10.0 => (w, h),
        _ => FALLBACK_SIZE,
    }
}

/// Draw `chart` on `canvas` at the canvas's layout size times the device pixel ratio.
fn paint(
    canvas: &web_sys::HtmlCanvasElement,
    chart: &Chart,
    id: &str,
    dark: bool,
) -> Result<Frame, String> {
    let result = browser::timed(&format!("redraw:{id}"), || {
        let dpr = browser::device_pixel_ratio();
        let (w, h) = css_size(Some(canvas));
        let (pw, ph) = ((w * dpr).round() as u32, (h * dpr).round() as u32);
        if canvas.width() != pw {
            canvas.set_width(pw);
        }
        if canvas.height() != ph {
            canvas.set_height(ph);
        }
        let backend = AppBackend::canvas(canvas)
            .ok_or_else(|| "this browser gave no 2D canvas to draw on".to_string())?;
        let theme = if dark {
            Theme::dark(dpr)
        } else {
            Theme::light(dpr)
        };
        draw_chart(&backend.into_drawing_area(), chart, &theme, None)
    });
    if result.is_ok() {
        let _ = canvas.set_attribute("data-painted", "true");
    }
    result
}
