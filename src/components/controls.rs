//! A control for each declared parameter: slider and number field (numbers) or a select
//! (choices), label, help and the message that explains a refused value.

use amp_model::params::{Domain, ParamSpec, Value};
use amp_site::pages::is_relevant;
use leptos::prelude::*;

use crate::state::AppState;

/// Controls for a list of parameters, by name.
#[component]
pub fn Controls(names: &'static [&'static ParamSpec]) -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <div class="controls">
            {names
                .iter()
                .map(|&spec| {
                    let shown = Memo::new(move |_| {
                        let view = state.view.get();
                        state.values.with(|v| is_relevant(view, v, spec))
                    });
                    view! {
                        <Show when=move || shown.get()>
                            <Control spec=spec />
                        </Show>
                    }
                })
                .collect_view()}
        </div>
    }
}

/// One parameter's control.
#[component]
pub fn Control(spec: &'static ParamSpec) -> impl IntoView {
    let state = expect_context::<AppState>();
    let name = spec.name;
    let input_id = format!("ctl-{name}");
    let help_id = format!("help-{name}");
    let err_id = format!("err-{name}");
    let described = format!("{help_id} {err_id}");
    let value = Memo::new(move |_| state.values.with(|v| v.get(spec)));
    let error = Memo::new(move |_| state.errors.with(|e| e.get(name).cloned()));
    // The help sentence, like the prose, from the pre-rendered document or the content file.
    let store = expect_context::<crate::prose::ProseStore>();
    let help = spec.help_name();
    let label = if spec.unit.is_empty() {
        spec.label.to_string()
    } else {
        format!("{} ({})", spec.label, spec.unit)
    };
    let message = view! {
        <p class="help" id=help_id inner_html=move || store.html(&help)></p>
        <p class="error" id=err_id aria-live="polite" data-testid=format!("error-{name}")>
            {move || error.get().unwrap_or_default()}
        </p>
    };
    match spec.domain {
        Domain::Choice(options) => view! {
            <div class="control" class:invalid=move || error.get().is_some()>
                <label for=input_id.clone()>{label}</label>
                <select
                    id=input_id
                    name=name
                    aria-describedby=described
                    on:change=move |ev| {
                        // A select only offers valid choices: apply it as a value, not as typed text.
                        if let Ok(v) = spec.parse(&event_target_value(&ev)) {
                            state.set_value(spec, v);
                        }
                    }
                >
                    {options
                        .iter()
                        .enumerate()
                        .map(|(i, o)| {
                            let id = o.id;
                            view! {
                                <option value=id prop:selected=move || value.get() == Value::Choice(i)>
                                    {o.label}
                                </option>
                            }
                        })
                        .collect_view()}
                </select>
                {message}
            </div>
        }
        .into_any(),
        _ => {
            let steps = ParamSpec::SLIDER_STEPS.to_string();
            view! {
                <div class="control" class:invalid=move || error.get().is_some()>
                    <label for=input_id.clone()>{label}</label>
                    <div class="control-row">
                        <input
                            type="range"
                            min="0"
                            max=steps
                            step="1"
                            aria-label=format!("{} (slider)", spec.label)
                            aria-valuetext=move || spec.format(value.get())
                            data-testid=format!("slider-{name}")
                            prop:value=move || spec.to_slider(value.get()).unwrap_or(0).to_string()
                            on:input=move |ev| {
                                if let Ok(pos) = event_target_value(&ev).parse::<u32>() {
                                    if let Some(v) = spec.from_slider(pos) {
                                        state.set_value(spec, v);
                                    }
                                }
                            }
                        />
                        <input
                            type="text"
                            inputmode="decimal"
                            autocomplete="off"
                            spellcheck="false"
                            id=input_id
                            name=name
                            class="number"
                            aria-describedby=described
                            aria-invalid=move || if error.get().is_some() { "true" } else { "false" }
                            data-testid=format!("field-{name}")
                            prop:value=move || state.field_text(spec)
                            on:input=move |ev| state.set_text(spec, &event_target_value(&ev))
                            on:change=move |_| state.settle(spec)
                        />
                    </div>
                    {message}
                </div>
            }
            .into_any()
        }
    }
}
