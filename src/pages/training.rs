//! Widgets of the pages that refine their numbers (`page=training`, `page=risk`, declared in
//! `amp_site::pages`): the status line saying whether the numbers are quick or refined, the
//! training page's copyable privacy statement, and its phases (add, remove, the run file).

use amp_format::compact_number;
use amp_model::param as p;
use amp_model::params::{ChoiceEnum, PhaseCount, Value};
use amp_model::run::Run;
use amp_model::training::{setting, values_for_run, MAX_PHASES};
use amp_site::pages::check_together;
use amp_site::pages::training::STATEMENT;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use crate::browser;
use crate::pages::{PageReadings, Refined};

/// Whether the numbers on screen are quick or refined, and on which grid (`data-state`:
/// `refining` or `final`; `data-step`: the grid step).
#[component]
pub fn AccountingStatus() -> impl IntoView {
    let PageReadings(readings) = expect_context::<PageReadings>();
    let Refined(refined) = expect_context::<Refined>();
    let step = move || readings.with(amp_site::pages::training::grid_step);
    let status = move || amp_site::pages::training::accounting_status(step(), refined.get());
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

/// The run's phases: "Add a phase" and "Remove the last phase" (they set `phases`, so the URL
/// holds the run), "Download run" (the run file `amplify account --run` reads) and "Open run" (a
/// run file shown on the page; a file the page cannot show is refused in one line next to the
/// button, and the page keeps its settings).
#[component]
pub fn Phases() -> impl IntoView {
    let state = expect_context::<crate::state::AppState>();
    let count = Memo::new(move |_| {
        state
            .values
            .with(|v| v.choice::<PhaseCount>(p::PHASES).count())
    });
    let message = RwSignal::new(String::new());
    let set_count = move |n: usize| {
        state.set_value(p::PHASES.spec, Value::Choice(PhaseCount::of(n).index()));
        message.set(String::new());
    };
    let download = move |_| {
        let run = state.values.with_untracked(setting).and_then(|t| t.run());
        match run {
            Ok(run) => {
                let href = browser::text_data_url("application/json", &run.to_json());
                if !browser::download("run.json", &href) {
                    message.set("The browser refused the download.".into());
                }
            }
            Err(e) => message.set(format!("No run to download: {e}")),
        }
    };
    let open = move |ev: web_sys::Event| {
        let Some(input) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::HtmlInputElement>().ok())
        else {
            return;
        };
        let Some(file) = input.files().and_then(|f| f.get(0)) else {
            return;
        };
        input.set_value("");
        let text = file.text();
        wasm_bindgen_futures::spawn_local(async move {
            let read = wasm_bindgen_futures::JsFuture::from(text)
                .await
                .ok()
                .and_then(|v| v.as_string());
            if message.is_disposed() {
                return; // the page was left while the file was read
            }
            let Some(text) = read else {
                message.set("The file could not be read.".into());
                return;
            };
            let next = Run::from_json(&text).and_then(|run| {
                let v = state
                    .values
                    .with_untracked(|v| values_for_run(&run, v))
                    .map_err(|e| e.to_string())?;
                check_together(&v).map_err(|(_, msg)| msg)?;
                setting(&v).map_err(|e| e.to_string())?;
                Ok(v)
            });
            match next {
                Ok(v) => {
                    state.drafts.set(Default::default());
                    state.errors.set(Default::default());
                    state.values.set(v);
                    message.set(String::new());
                }
                Err(e) => message.set(format!("Not opened: {e}")),
            }
        });
    };
    view! {
        <div class="phases">
            <button type="button" data-testid="add-phase" disabled=move || { count.get() >= MAX_PHASES }
                on:click=move |_| set_count(count.get_untracked() + 1)>"Add a phase"</button>
            <button type="button" data-testid="remove-phase" disabled=move || { count.get() <= 1 }
                on:click=move |_| set_count(count.get_untracked() - 1)>"Remove the last phase"</button>
            <button type="button" data-testid="download-run" on:click=download>"Download run"</button>
            <label class="file-button">"Open run"
                <input type="file" accept=".json,application/json" data-testid="open-run" on:change=open />
            </label>
            <p class="error" data-testid="run-file-error" aria-live="polite">{move || message.get()}</p>
        </div>
    }
}
