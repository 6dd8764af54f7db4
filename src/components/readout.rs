//! A computed number: rounded text, the full-precision value in `data-value`, and a badge naming
//! the neighbouring relation it holds for.

use amp_format::{compact_number, display_number};
use amp_math::Relation;
use amp_site::pages::{Readings, ReadoutSpec};
use leptos::prelude::*;

/// One readout. `value` is the number or the reason there is none; a number is never shown when
/// it is not finite.
#[component]
pub fn Readout(
    /// `data-testid`, named after the quantity (`epsilon-prime`).
    testid: &'static str,
    /// What the number is, in words with its symbol.
    label: &'static str,
    /// The number, or why it is unavailable.
    value: Signal<Result<f64, String>>,
    /// The neighbouring relation the number holds for (its badge shows the relation's label).
    relation: Signal<Relation>,
    /// Significant digits shown.
    #[prop(default = 4)]
    digits: usize,
) -> impl IntoView {
    // One memo, so the derived value is computed once per change however often it is read.
    let value = Memo::new(move |_| value.get());
    let finite = move || value.get().ok().filter(|v| v.is_finite());
    view! {
        <div class="readout">
            <dt>{label}</dt>
            <dd>
                <output
                    data-testid=testid
                    data-value=move || finite().map(compact_number).unwrap_or_default()
                    class:unavailable=move || finite().is_none()
                    title=move || finite().map(compact_number).unwrap_or_default()
                >
                    {move || finite().map(|v| display_number(v, digits)).unwrap_or_else(|| "—".into())}
                </output>
                <span class="badge" title="neighbouring relation">{move || relation.get().label()}</span>
                {move || {
                    value
                        .get()
                        .err()
                        .map(|msg| view! { <span class="readout-note">{msg}</span> })
                }}
            </dd>
        </div>
    }
}

/// A declared readout of a page, read from the page's [`Readings`].
#[component]
pub fn DeclaredReadout(
    /// The page's numbers.
    readings: Memo<Readings>,
    /// Which one.
    spec: &'static ReadoutSpec,
) -> impl IntoView {
    let reading = move || readings.with(|r| r.get(spec).cloned());
    let value = Signal::derive(move || match reading() {
        Some(r) => r.value.map_err(|e| e.to_string()),
        // A page computes every number it declares: one is missing only while the page's first
        // numbers are on their way from the compute worker (a link with other settings than the
        // defaults, before the compute module has arrived).
        None => Err("computing…".into()),
    });
    let relation =
        Signal::derive(move || reading().map(|r| r.relation).unwrap_or(Relation::AddRemove));
    view! { <Readout testid=spec.id label=spec.label value=value relation=relation digits=spec.digits /> }
}
