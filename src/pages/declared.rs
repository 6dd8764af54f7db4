//! Any page, rendered from its declaration ([`amp_site::pages::PageSpec`]): no page-specific view
//! code except the widgets.

use amp_model::params::Value;
use amp_site::job::Job;
use amp_site::pages::{
    Controls as ControlBlock, Group, NoteKind, NoteSpec, Page, Precision, Readings, Section,
    TableSpec, Widget, Workbench,
};
use leptos::prelude::*;

use crate::browser;
use crate::components::controls::Controls;
use crate::components::deferred::{deferred_from, Remote, REST};
use crate::components::figure::FigureView;
use crate::components::readout::DeclaredReadout;
use crate::pages::{accuracy, home, training, PageReadings, Refined};
use crate::state::AppState;
use amp_format::compact_number;

/// A page rendered from its declaration. A page that refines shows quick numbers while the
/// controls move and the refined ones once they rest.
#[component]
pub fn DeclaredPage(page: Page) -> impl IntoView {
    let state = expect_context::<AppState>();
    let spec = page.spec();
    // The page's inputs: its numbers are recomputed only when one of them changes.
    let inputs = Memo::new(move |_| {
        state.values.with(|v| {
            page.params()
                .iter()
                .map(|p| v.get(p))
                .collect::<Vec<Value>>()
        })
    });
    // At the defaults, the numbers the pre-rendered document carries are the reader's (refined,
    // computed by the same code at the same values): adopted, so that nothing is computed for
    // them while the app starts; the first change of a setting computes them as always.
    let start = inputs.get_untracked();
    let at_defaults = page
        .params()
        .iter()
        .all(|p| state.values.with_untracked(|v| v.get(p)) == p.default);
    let carried = at_defaults
        .then(browser::static_readings)
        .flatten()
        .and_then(|text| spec.adopt(&text));
    let known = carried.clone();
    let carried = StoredValue::new(carried.map(|r| (start, r)));
    let quick_here = move || {
        state
            .values
            .with_untracked(|v| (spec.readouts)(v, Precision::Quick))
    };
    // Whether the numbers on screen are older than the settings (the worker's quick numbers not yet
    // back): `data-numbers="pending"` on the page, which the end-to-end tests wait out.
    let mut quick_pending: Option<Signal<bool>> = None;
    let quick: Memo<Readings> = if spec.quick_in_worker() && crate::worker::available() {
        // A page that refines has quick numbers that can take longer than a frame (the risk page's
        // attack, balls-in-bins batches), and so has the shuffling page (every published bound and
        // its inverse): they too come from the compute worker. Those for the
        // settings the app opens with are the carried ones or computed once here; after that the
        // last numbers stay, marked as refining, until the worker's for the new settings land.
        // Where the page's module leaves these numbers to the compute module
        // (`amp_site::heavy`), the first ones too come from the worker unless carried.
        let first = carried
            .with_value(|c| c.as_ref().map(|(_, r)| r.clone()))
            .or_else(|| amp_site::heavy::HERE.then(quick_here));
        let remote = Remote::job(Job::Quick(page), "the page's numbers", move |a| {
            amp_site::job::read_readings(page, a)
        });
        let later = deferred_from(
            inputs,
            std::time::Duration::ZERO,
            first,
            Some(remote),
            quick_here,
        );
        quick_pending = Some(Signal::derive(move || later.pending()));
        Memo::new(move |_| later.last().unwrap_or_default())
    } else {
        Memo::new(move |_| {
            // Read (not just track) the inputs memo, so it is brought up to date first.
            let adopted = inputs.with(|now| {
                carried.with_value(|c| {
                    c.as_ref()
                        .filter(|(at, _)| at == now)
                        .map(|(_, r)| r.clone())
                })
            });
            adopted.unwrap_or_else(quick_here)
        })
    };
    let (readings, refined, fine_pending) = if spec.refines {
        // The refined numbers come from the compute worker, bit for bit what the page (and the
        // CLI) would compute.
        let remote = Remote::job(Job::Readings(page), "the refined numbers", move |a| {
            amp_site::job::read_readings(page, a)
        });
        let fine = deferred_from(inputs, REST, known, Some(remote), move || {
            state
                .values
                .with_untracked(|v| (spec.readouts)(v, Precision::Fine))
        });
        (
            Memo::new(move |_| fine.current().unwrap_or_else(|| quick.get())),
            Signal::derive(move || !fine.pending()),
            Some(Signal::derive(move || fine.pending())),
        )
    } else {
        (quick, Signal::derive(|| true), None)
    };
    let numbers = move || {
        let late = quick_pending.map(|s| s.get()).unwrap_or(false)
            || fine_pending.map(|s| s.get()).unwrap_or(false);
        if late {
            "pending"
        } else {
            "current"
        }
    };
    provide_context(PageReadings(readings));
    provide_context(Refined(refined));
    // The opening paragraph, like the prose, from the pre-rendered document or the content file.
    let store = expect_context::<crate::prose::ProseStore>();
    view! {
        <article class=format!("page page-{}", spec.id) data-numbers=numbers>
            <h1>{spec.heading}</h1>
            <p class="lede" inner_html=move || store.html(spec.lede.0)></p>
            {spec.sections.iter().map(|s| section(s, readings)).collect_view()}
        </article>
    }
}

fn section(s: &'static Section, readings: Memo<Readings>) -> AnyView {
    match s {
        Section::Prose(p) => {
            if let Some(from) = crate::prose::take_prerendered(p.0) {
                // The pre-rendered section's content moved in as soon as the section exists (an
                // effect, run before the browser paints the live page): not parsed again.
                let held = NodeRef::<leptos::html::Section>::new();
                held.on_load(move |to| crate::prose::adopt_into(p.0, &from, to.into()));
                return view! { <section node_ref=held class="explain" data-prose=p.0></section> }
                    .into_any();
            }
            let store = expect_context::<crate::prose::ProseStore>();
            let root = crate::browser::app_root();
            let html = move || amp_site::pages::page_links(&store.html(p.0), &root);
            view! { <section class="explain" data-prose=p.0 inner_html=html></section> }.into_any()
        }
        Section::Workbench(w) => workbench(w, readings),
        Section::Figures { label, figures } => view! {
            <section class="figures" aria-label=*label>
                {figures.iter().map(|id| view! { <FigureView spec=id.spec() /> }).collect_view()}
            </section>
        }
        .into_any(),
        Section::Widget(w) => widget(*w),
    }
}

fn workbench(w: &'static Workbench, readings: Memo<Readings>) -> AnyView {
    view! {
        <section class="workbench" aria-label=w.label>
            <div class="panel">
                {w.controls.iter().map(|c| controls(c, readings)).collect_view()}
            </div>
            {(!w.groups.is_empty()).then(|| view! {
                <div class="panel results">
                    {w.results_title.map(|title| view! { <h2>{title}</h2> })}
                    {w.groups.iter().map(|g| group(g, readings)).collect_view()}
                </div>
            })}
        </section>
    }
    .into_any()
}

/// A block of controls under its heading; a block none of whose controls matter at these values
/// (a phase the run does not have) is left out.
fn controls(c: &'static ControlBlock, readings: Memo<Readings>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let shown = Memo::new(move |_| {
        let view = state.view.get();
        state
            .values
            .with(|v| amp_site::pages::block_is_shown(view, v, c))
    });
    view! {
        <Show when=move || shown.get()>
            <h2>{c.title}</h2>
            <Controls names=c.params />
            {c.notes.iter().map(|n| note(n, readings)).collect_view()}
            {c.remark.map(|t| view! { <p class="small">{t}</p> })}
            {c.widget.map(widget)}
        </Show>
    }
}

fn group(g: &'static Group, readings: Memo<Readings>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let readout = move |spec: &'static amp_site::pages::ReadoutSpec| {
        let shown = Memo::new(move |_| state.values.with(|v| g.shows(spec, v)));
        view! {
            <Show when=move || shown.get()>
                <DeclaredReadout readings=readings spec=spec />
            </Show>
        }
    };
    view! {
        {g.heading.map(|h| {
            let shown = Memo::new(move |_| state.values.with(|v| g.heading_shown(v)));
            view! { <Show when=move || shown.get()><h3>{h}</h3></Show> }
        })}
        {g.intro.map(|t| view! { <p class="small">{t}</p> })}
        {g.notes_before.iter().map(|n| note(n, readings)).collect_view()}
        {(!g.readouts.is_empty()).then(|| view! {
            <dl class="readouts">
                {g.readouts.iter().map(|&spec| readout(spec)).collect_view()}
            </dl>
        })}
        {g.remark.map(|t| view! { <p class="small">{t}</p> })}
        {g.notes_after.iter().map(|n| note(n, readings)).collect_view()}
        {g.table.map(|t| table(t, readings))}
        {g.widget.map(widget)}
    }
}

fn note(n: &'static NoteSpec, readings: Memo<Readings>) -> AnyView {
    let text = move || readings.with(|r| r.text(n).map(str::to_string));
    match n.kind {
        // A warning is there only when there is something to warn about; one paragraph a line.
        NoteKind::Warning => (move || {
            text()
                .map(|t| {
                    t.lines()
                        .map(|line| view! { <p class="warning" role="note" data-testid=n.id>{line.to_string()}</p> })
                        .collect_view()
                })
        })
        .into_any(),
        NoteKind::Sentence => {
            view! { <p class="sentence" data-testid=n.id>{move || text().unwrap_or_default()}</p> }
                .into_any()
        }
        NoteKind::Small => {
            view! { <p class="small" data-testid=n.id>{move || text().unwrap_or_default()}</p> }
                .into_any()
        }
    }
}

/// A computed table: a heading cell per row (name over a small tag), the value (muted where it
/// does not hold, full precision in `data-value`), then the note cells.
fn table(t: &'static TableSpec, readings: Memo<Readings>) -> impl IntoView {
    let body = move || {
        readings.with(|r| match r.rows(t) {
            Some(Ok(rows)) => rows
                .iter()
                .map(|row| {
                    let row = row.clone();
                    view! {
                        <tr data-testid=row.testid data-value=row.value.map(compact_number).unwrap_or_default() data-valid=row.valid.to_string()>
                            <th scope="row">{row.name}<br /><span class="small">{row.tag}</span></th>
                            <td class:muted=!row.valid>{row.shown}</td>
                            {row.notes.into_iter().map(|n| view! { <td class="small">{n}</td> }).collect_view()}
                        </tr>
                    }
                })
                .collect_view()
                .into_any(),
            Some(Err(e)) => {
                let e = e.clone();
                view! { <tr><td colspan=t.columns.len().to_string()>{e.to_string()}</td></tr> }.into_any()
            }
            None => ().into_any(),
        })
    };
    view! {
        <table class="compare" data-testid=t.id>
            <caption>{t.caption}</caption>
            <thead>
                <tr>{t.columns.iter().map(|c| view! { <th scope="col">{*c}</th> }).collect_view()}</tr>
            </thead>
            <tbody>{body}</tbody>
        </table>
    }
}

fn widget(w: Widget) -> AnyView {
    match w {
        Widget::Techniques => view! { <home::Techniques /> }.into_any(),
        Widget::SimPanel => view! { <accuracy::SimPanel /> }.into_any(),
        Widget::Reproduction => view! { <accuracy::Reproduction /> }.into_any(),
        Widget::TableOne => view! { <accuracy::TableOne /> }.into_any(),
        Widget::AccountingStatus => view! { <training::AccountingStatus /> }.into_any(),
        Widget::Statement => view! { <training::Statement /> }.into_any(),
        Widget::Phases => view! { <training::Phases /> }.into_any(),
    }
}
