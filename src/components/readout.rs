//! A computed number: rounded text, the full-precision value in `data-value`, and a badge naming
//! the neighbouring relation it holds for.

use amp_plots::format::{compact_number, display_number};
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
    /// The neighbouring relation's label ("add/remove one").
    relation: Signal<&'static str>,
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
                <span class="badge" title="neighbouring relation">{move || relation.get()}</span>
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
