//! Widgets of the pages that refine their numbers (`page=training`, `page=risk`, declared in
//! `amp_plots::pages`): the status line saying whether the numbers are quick or refined, and the
//! training page's copyable privacy statement.

use amp_plots::format::compact_number;
use amp_plots::pages::training::STATEMENT;
use leptos::prelude::*;

use crate::browser;
use crate::pages::declared::{PageReadings, Refined};

/// Whether the numbers on screen are quick or refined, and on which grid (`data-state`:
/// `refining` or `final`; `data-step`: the grid step).
#[component]
pub fn AccountingStatus() -> impl IntoView {
    let PageReadings(readings) = expect_context::<PageReadings>();
    let Refined(refined) = expect_context::<Refined>();
    let step = move || readings.with(amp_plots::pages::training::grid_step);
    let status = move || amp_plots::pages::training::accounting_status(step(), refined.get());
    view! {
        <p
            class="small"
            data-testid="accounting-status"
            data-state=move || if refined.get() { "final" } else { "refining" }
            data-step=move || step().map(compact_number).unwrap_or_default()
            role="status"
        >
            {status}
        </p>
    }
}

/// The plain-language statement of the run, with a button that copies it.
#[component]
pub fn Statement() -> impl IntoView {
    let PageReadings(readings) = expect_context::<PageReadings>();
    let text = Memo::new(move |_| readings.with(|r| r.text(&STATEMENT).map(str::to_string)));
    let copied = RwSignal::new(false);
    view! {
        <div class="statement">
            <label for="privacy-statement">"Privacy statement (plain language)"</label>
            <textarea id="privacy-statement" readonly rows="9" data-testid=STATEMENT.id prop:value=move || text.get().unwrap_or_default()></textarea>
            <button type="button" on:click=move |_| {
                if let Some(t) = text.get_untracked() {
                    browser::copy_text(&t);
                    copied.set(true);
                }
            }>"Copy statement"</button>
            {move || copied.get().then(|| view! { <span class="small" role="status">" Copied."</span> })}
        </div>
    }
}
