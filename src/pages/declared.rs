//! Any page declared as sections ([`amp_plots::pages::Body::Sections`]), rendered from its
//! declaration: no page-specific view code except the widgets.

use amp_plots::pages::{
    Body, Group, NoteKind, NoteSpec, Page, Precision, Readings, Section, Widget, Workbench,
};
use leptos::prelude::*;

use crate::components::controls::Controls;
use crate::components::figure::FigureView;
use crate::components::readout::DeclaredReadout;
use crate::pages::{accuracy, home};
use crate::state::AppState;

/// The numbers of the page on screen, for its widgets.
#[derive(Clone, Copy)]
pub struct PageReadings(pub Memo<Readings>);

/// A page rendered from its declaration.
#[component]
pub fn DeclaredPage(page: Page) -> impl IntoView {
    let state = expect_context::<AppState>();
    let spec = page.spec();
    let readings = Memo::new(move |_| state.values.with(|v| (spec.readouts)(v, Precision::Quick)));
    provide_context(PageReadings(readings));
    let sections: &'static [Section] = match spec.body {
        Body::Sections(s) => s,
        Body::Custom(_) => &[],
    };
    view! {
        <article class=format!("page page-{}", spec.id)>
            <h1>{spec.heading}</h1>
            <p class="lede">{spec.lede}</p>
            {sections.iter().map(|s| section(s, readings)).collect_view()}
        </article>
    }
}

fn section(s: &'static Section, readings: Memo<Readings>) -> AnyView {
    match s {
        Section::Prose(html) => {
            view! { <section class="explain" inner_html=*html></section> }.into_any()
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
                <h2>{w.controls_title}</h2>
                <Controls names=w.params />
                {w.under_controls.map(widget)}
            </div>
            {w.results_title.map(|title| view! {
                <div class="panel results">
                    <h2>{title}</h2>
                    {w.groups.iter().map(|g| group(g, readings)).collect_view()}
                </div>
            })}
        </section>
    }
    .into_any()
}

fn group(g: &'static Group, readings: Memo<Readings>) -> impl IntoView {
    view! {
        {g.heading.map(|h| view! { <h3>{h}</h3> })}
        {g.intro.map(|t| view! { <p class="small">{t}</p> })}
        {g.notes_before.iter().map(|n| note(n, readings)).collect_view()}
        {(!g.readouts.is_empty()).then(|| view! {
            <dl class="readouts">
                {g.readouts.iter().map(|&spec| view! { <DeclaredReadout readings=readings spec=spec /> }).collect_view()}
            </dl>
        })}
        {g.remark.map(|t| view! { <p class="small">{t}</p> })}
        {g.notes_after.iter().map(|n| note(n, readings)).collect_view()}
        {g.widget.map(widget)}
    }
}

fn note(n: &'static NoteSpec, readings: Memo<Readings>) -> AnyView {
    let text = move || readings.with(|r| r.text(n).map(str::to_string));
    match n.kind {
        // A warning is there only when there is something to warn about.
        NoteKind::Warning => (move || {
            text().map(|t| view! { <p class="warning" role="note" data-testid=n.id>{t}</p> })
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

fn widget(w: Widget) -> AnyView {
    match w {
        Widget::Techniques => view! { <home::Techniques /> }.into_any(),
        Widget::SimPanel => view! { <accuracy::SimPanel /> }.into_any(),
        Widget::Reproduction => view! { <accuracy::Reproduction /> }.into_any(),
        Widget::TableOne => view! { <accuracy::TableOne /> }.into_any(),
    }
}
