//! Browser tests: the app mounted in headless Chromium by wasm-bindgen-test-runner.
//! Run with `cargo test --target wasm32-unknown-unknown -p amplification-explorer --test web`.
//! Leptos effects run asynchronously, so every check waits for the condition it asserts (polling
//! with a generous deadline: a cold browser on a fresh machine is slow), never a fixed time.
#![cfg(target_arch = "wasm32")]

use amplification_explorer::App;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_test::*;
use web_sys::{Element, HtmlElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

async fn tick(ms: i32) {
    let p = js_sys::Promise::new(&mut |resolve, _| {
        web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(p).await.unwrap();
}

/// How long a condition may take to hold (a cold Chromium on a fresh machine, under load).
const DEADLINE_MS: f64 = 30_000.0;

/// Wait until `ready()` holds, checking every 20 ms; panic naming `what` after [`DEADLINE_MS`].
async fn wait_for(what: &str, mut ready: impl FnMut() -> bool) {
    let start = js_sys::Date::now();
    loop {
        if ready() {
            return;
        }
        assert!(
            js_sys::Date::now() - start < DEADLINE_MS,
            "timed out after {DEADLINE_MS} ms waiting for {what}"
        );
        tick(20).await;
    }
}

/// Whether an element matching `selector` exists under `host`.
fn has(host: &Element, selector: &str) -> bool {
    host.query_selector(selector).ok().flatten().is_some()
}

fn document() -> web_sys::Document {
    web_sys::window().unwrap().document().unwrap()
}

fn set_url(query: &str) {
    // At the app's root: the app writes each view's own path (`subsampling/`) as it runs, and a
    // path that names a view wins over the query's `page=`.
    let root = amplification_explorer::browser::app_root();
    web_sys::window()
        .unwrap()
        .history()
        .unwrap()
        .replace_state_with_url(&JsValue::NULL, "", Some(&format!("{root}{query}")))
        .unwrap();
}

fn find(host: &Element, selector: &str) -> Element {
    host.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no element matches {selector}"))
}

fn data_value(host: &Element, testid: &str) -> f64 {
    let el = find(host, &format!("[data-testid={testid}]"));
    el.get_attribute("data-value")
        .unwrap_or_default()
        .parse()
        .unwrap_or(f64::NAN)
}

fn type_into(host: &Element, testid: &str, text: &str) {
    let input: HtmlInputElement = find(host, &format!("[data-testid={testid}]"))
        .dyn_into()
        .unwrap();
    input.set_value(text);
    let ev = web_sys::Event::new("input").unwrap();
    input.dispatch_event(&ev).unwrap();
}

/// Mount the app on a fresh element for the URL `query`.
/// The handle unmounts the app when dropped.
async fn mount(query: &str) -> (Element, Box<dyn std::any::Any>) {
    set_url(query);
    let host = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&host).unwrap();
    let handle = leptos::mount::mount_to(host.clone().unchecked_into::<HtmlElement>(), App);
    wait_for("the app to mount", || host.child_element_count() > 0).await;
    (host, Box::new(handle))
}

fn close(a: f64, b: f64) -> bool {
    ((a - b) / b).abs() < 1e-12
}

/// In the browser `parse_f64` takes its value from JavaScript's parseFloat: the same bits as
/// Rust's parser (the expected values are Rust's, from the native test of the same cases), at the
/// edges where a careless parser rounds differently.
#[wasm_bindgen_test]
fn parse_f64_in_the_browser_gives_rusts_bits() {
    use amp_format::parse_f64;
    let cases: [(&str, u64); 9] = [
        ("0.30000000000000004", 0x3FD3_3333_3333_3334),
        ("0.1", 0x3FB9_9999_9999_999A),
        ("4.9e-324", 1),
        ("2.2250738585072011e-308", 0x000F_FFFF_FFFF_FFFF),
        ("9007199254740993", 0x4340_0000_0000_0000),
        ("1.7976931348623157e308", 0x7FEF_FFFF_FFFF_FFFF),
        ("-0", 0x8000_0000_0000_0000),
        ("1e-400", 0),
        ("123456789012345678901234567890", 0x45F8_EE90_FF6C_373E),
    ];
    for (text, bits) in cases {
        assert_eq!(parse_f64(text).map(f64::to_bits), Some(bits), "{text}");
        assert_eq!(text.parse::<f64>().map(f64::to_bits), Ok(bits), "{text}");
    }
    assert_eq!(parse_f64("2.5e308"), Some(f64::INFINITY));
    for bad in ["", ".", "1e", " 1", "0x10", "1,5", "1e5.5"] {
        assert_eq!(parse_f64(bad), None, "{bad}");
    }
}

/// What the compute worker answers, read back in the browser (where numbers are parsed by
/// `parseFloat`): every figure's chart and every page's numbers at other settings than the
/// defaults come back with the same bits as computed here (compared through `Debug`, which writes
/// each number in its shortest round-trip form). Natively the same holds (`site/src/job.rs`).
#[wasm_bindgen_test]
fn the_workers_answers_come_back_bit_for_bit_in_the_browser() {
    use amp_model::param::by_name;
    use amp_model::params::{ParamValues, Value};
    use amp_site::figures::FIGURES;
    use amp_site::job::{answer, read_chart, read_readings, Job};
    use amp_site::pages::{Page, Precision};
    let mut values = ParamValues::default();
    values
        .set(by_name("eps").unwrap(), Value::Real(0.7))
        .unwrap();
    values
        .set(by_name("sigma").unwrap(), Value::Real(1.3))
        .unwrap();
    // Cheap figures only (the browser tests share one page's time budget): the worker's are
    // checked through the page by the end-to-end tests.
    let cheap = [
        "amplification-vs-rate",
        "neighbour-densities",
        "rdp-base",
        "regime-map",
        "subsampled-rr",
    ];
    let mut compared = 0;
    for f in FIGURES.iter().filter(|f| cheap.contains(&f.id.as_str())) {
        compared += 1;
        let here = f.chart_with(&values, None).map_err(|e| e.to_string());
        let back = read_chart(&answer(&Job::Chart(f.id).request(&values))).expect("an answer");
        assert_eq!(format!("{back:?}"), format!("{here:?}"), "{}", f.id);
    }
    assert_eq!(compared, cheap.len());
    for page in [Page::Home, Page::Subsampling, Page::Limits] {
        let spec = page.spec();
        let here = (spec.readouts)(&values, Precision::Fine);
        let back =
            read_readings(page, &answer(&Job::Readings(page).request(&values))).expect("an answer");
        assert_eq!(back.numbers.len(), here.numbers.len(), "{}", page.id());
        for (a, b) in back.numbers.iter().zip(&here.numbers) {
            assert_eq!(
                a.value.as_ref().ok().map(|x| x.to_bits()),
                b.value.as_ref().ok().map(|x| x.to_bits()),
                "{}",
                a.spec.id
            );
        }
    }
}

/// In the browser the run file is read by `JSON.parse`: the values this crate's own reader gives
/// natively (members in order, numbers to the bit, nesting), and a one-line refusal of bad text.
#[wasm_bindgen_test]
fn json_in_the_browser_reads_what_the_writer_writes() {
    use amp_model::json::Json;
    let doc = Json::Object(vec![
        ("delta".into(), Json::Number(1e-5)),
        (
            "z".into(),
            Json::Array(vec![Json::Null, Json::Bool(true), Json::Number(0.1)]),
        ),
        ("a".into(), Json::Text("σ \"q\"\n".into())),
        ("tiny".into(), Json::Number(4.9e-324)),
    ]);
    assert_eq!(Json::parse(&doc.write()), Ok(doc));
    let deep = format!("{}1{}", "[".repeat(40), "]".repeat(40));
    assert!(Json::parse(&deep)
        .unwrap_err()
        .contains("nested too deeply"));
    for bad in ["", "{", "[1,]", "{\"a\" 1}", "nul"] {
        let err = Json::parse(bad).unwrap_err();
        assert!(
            err.starts_with("not valid JSON") && !err.contains('\n'),
            "{bad}: {err}"
        );
    }
}

#[wasm_bindgen_test]
async fn subsampling_page_mounts_with_readouts_and_figures() {
    let (host, handle) = mount("?page=subsampling&scheme=poisson&eps=1&delta=1e-6&p=0.01").await;
    // mpmath: log(1 + 0.01(e − 1)) and log(1 + (e − 1)/0.01).
    assert!(close(
        data_value(&host, "epsilon-prime"),
        0.017_036_863_236_176_55
    ));
    assert!(close(data_value(&host, "delta-prime"), 1e-8));
    assert!(close(
        data_value(&host, "base-epsilon"),
        5.152_297_938_244_442
    ));
    let badge = find(&host, "[data-testid=epsilon-prime] + .badge")
        .text_content()
        .unwrap();
    assert_eq!(badge, "add/remove one");
    // Every figure of the page is in the DOM and painted: the three of amplification, and the
    // two of why sampling helps.
    let count = |selector: &str| {
        host.query_selector_all(selector)
            .map(|l| l.length())
            .unwrap_or(0)
    };
    assert_eq!(count("canvas"), 5);
    wait_for("the figures to be painted", || {
        count("canvas[data-painted=true]") == 5
    })
    .await;
    for id in [
        "amplification-vs-rate",
        "amplification-vs-epsilon",
        "sample-budget",
    ] {
        let canvas = find(&host, &format!("[data-testid=canvas-{id}]"));
        assert_eq!(
            canvas.get_attribute("data-painted").as_deref(),
            Some("true"),
            "{id}"
        );
    }
    // Fixed-size controls are hidden under Poisson sampling.
    assert!(host
        .query_selector("[data-testid=field-m]")
        .unwrap()
        .is_none());
    drop(handle);
    host.remove();
}

#[wasm_bindgen_test]
async fn typing_updates_readouts_and_bad_text_keeps_the_last_valid_state() {
    let (host, handle) = mount("?page=subsampling&eps=1&p=0.01").await;
    type_into(&host, "field-eps", "2");
    // The URL is written once the controls have been still for URL_DEBOUNCE_MS.
    let search = || web_sys::window().unwrap().location().search().unwrap();
    wait_for("the URL to hold eps=2", || search().contains("eps=2")).await;
    // mpmath: log(1 + 0.01(e² − 1)).
    assert!(close(
        data_value(&host, "epsilon-prime"),
        0.061_932_529_416_331_81
    ));
    // The figures follow: their text alternatives name the new ε and its ε′.
    let summary = || {
        find(&host, "[data-figure=amplification-vs-rate] .figure-summary")
            .text_content()
            .unwrap()
    };
    wait_for("the figure's summary to follow ε", || {
        summary().contains("your ε = 2")
    })
    .await;
    let summary = summary();
    assert!(
        summary.contains("your ε = 2") && summary.contains("0.06193"),
        "{summary}"
    );

    type_into(&host, "field-eps", "abc");
    let error = |id: &str| {
        find(&host, &format!("[data-testid=error-{id}]"))
            .text_content()
            .unwrap_or_default()
    };
    wait_for("the message under ε", || !error("eps").is_empty()).await;
    let err = find(&host, "[data-testid=error-eps]")
        .text_content()
        .unwrap();
    assert!(err.contains("must be a number"), "{err}");
    assert!(close(
        data_value(&host, "epsilon-prime"),
        0.061_932_529_416_331_81
    ));
    drop(handle);
    host.remove();
}

#[wasm_bindgen_test]
async fn fixed_size_scheme_switches_relation_and_refuses_m_above_n() {
    let (host, handle) =
        mount("?page=subsampling&scheme=without-replacement&eps=1&m=600&n=60000").await;
    let badge = find(&host, "[data-testid=epsilon-prime] + .badge")
        .text_content()
        .unwrap();
    assert_eq!(badge, "replace one");
    assert!(close(
        data_value(&host, "epsilon-prime"),
        0.017_036_863_236_176_55
    ));
    type_into(&host, "field-m", "70000");
    wait_for("the message under m", || {
        !find(&host, "[data-testid=error-m]")
            .text_content()
            .unwrap_or_default()
            .is_empty()
    })
    .await;
    let err = find(&host, "[data-testid=error-m]").text_content().unwrap();
    assert!(err.contains("cannot exceed"), "{err}");
    assert!(close(
        data_value(&host, "epsilon-prime"),
        0.017_036_863_236_176_55
    ));
    drop(handle);
    host.remove();
}

#[wasm_bindgen_test]
async fn hostile_url_shows_a_notice_and_keeps_good_values() {
    let (host, handle) = mount("?page=subsampling&eps=NaN&p=0.5&p=0.2&zzz=%3Cb%3E").await;
    let notices = find(&host, "[data-testid=notices]").text_content().unwrap();
    assert!(notices.contains("ε"), "{notices}");
    assert!(notices.contains("more than once"), "{notices}");
    assert!(notices.contains("Unknown setting"), "{notices}");
    assert!(
        host.query_selector("b").unwrap().is_none(),
        "markup from the URL was rendered"
    );
    // p = 0.5 kept (first value), ε back to its default 1.
    assert!(close(data_value(&host, "inclusion-probability"), 0.5));
    assert!(close(
        data_value(&host, "amplification-factor"),
        (0.5 * 1f64.exp_m1()).ln_1p()
    ));
    drop(handle);
    host.remove();
}

#[wasm_bindgen_test]
async fn embed_shows_one_figure_with_its_controls() {
    let (host, handle) = mount("?embed=sample-budget&eps=1&p=0.01").await;
    assert_eq!(host.query_selector_all("canvas").unwrap().length(), 1);
    assert!(host.query_selector("nav").unwrap().is_none());
    assert!(host
        .query_selector("[data-testid=field-eps]")
        .unwrap()
        .is_some());
    let summary = find(&host, ".figure-summary").text_content().unwrap();
    assert!(summary.contains("5.1523"), "{summary}");
    drop(handle);
    host.remove();
}

#[wasm_bindgen_test]
async fn limits_page_mounts_with_its_readouts() {
    let (host, handle) =
        mount("?page=limits&eps=1&p=0.01&c=2&dataset=60000&batch=256&epochs=3&total-eps=3").await;
    // mpmath: ε_p = 5.152297938244442, R = 0.05152297938244442, log(3)/2, k = 703, 1/R = 7.869192972692523.
    assert!(close(data_value(&host, "epsilon-p"), 5.152_297_938_244_442));
    assert!(close(
        data_value(&host, "noise-ratio"),
        0.051_522_979_382_444_42
    ));
    assert!(close(
        data_value(&host, "ratio-floor"),
        0.549_306_144_334_054_8
    ));
    assert_eq!(data_value(&host, "regime-steps"), 703.0);
    assert!(
        ((data_value(&host, "regime-noise-factor") - 7.869_192_972_692_523) / 7.87).abs() < 1e-12
    );
    assert_eq!(host.query_selector_all("canvas").unwrap().length(), 6);
    // A batch larger than the dataset is refused next to the batch field; the readouts stay.
    type_into(&host, "field-batch", "70000");
    wait_for("the message under B", || {
        !find(&host, "[data-testid=error-batch]")
            .text_content()
            .unwrap_or_default()
            .is_empty()
    })
    .await;
    let err = find(&host, "[data-testid=error-batch]")
        .text_content()
        .unwrap();
    assert!(err.contains("cannot exceed"), "{err}");
    assert_eq!(data_value(&host, "regime-steps"), 703.0);
    drop(handle);
    host.remove();
}

#[wasm_bindgen_test]
async fn accuracy_page_mounts_with_readouts_and_starts_the_simulation() {
    let (host, handle) = mount("?page=accuracy&eps=3&rate=0.01&target-q=0.6&runs=10&N=1001").await;
    // Seed 002, Section 4.1: q = 0.6 at a rate of 16.77% for ε = 3 (mpmath 0.16767315743119744).
    assert!(close(
        data_value(&host, "rate-for-q"),
        0.167_673_157_431_197_44
    ));
    // ε_n = log(1 + 100(e³ − 1)) (mpmath 7.5546248247927804…).
    let expected = (100.0 * 3f64.exp_m1()).ln_1p();
    assert!(close(data_value(&host, "epsilon-n"), expected));
    assert!(host
        .query_selector("[data-testid=sim-panel]")
        .unwrap()
        .is_some());
    // A tiny simulation (10 runs, N = 1001) finishes in slices.
    wait_for("the simulation to finish", || {
        has(&host, "[data-testid=sim-done]")
    })
    .await;
    drop(handle);
    host.remove();
}

#[wasm_bindgen_test]
async fn renyi_page_mounts_with_public_values() {
    // TensorFlow Privacy's published test: σ = 1.3, q = 150/60000, 6000 steps, δ = 1e-5 → ε = 0.72422
    // at order 19 of its grid (improved conversion). The page minimises over the order: 0.724064
    // at order 19.1 (math/tests/rdp_reference.rs reproduces 0.72422 on TensorFlow's grid).
    let (host, handle) =
        mount("?page=renyi&mech=gaussian&sigma=1.3&scheme=poisson&q=0.0025&steps=6000&delta=1e-5&alpha=19")
            .await;
    let eps = data_value(&host, "composed-epsilon");
    assert!((eps - 0.724064).abs() < 5e-6 && eps <= 0.72422, "{eps}");
    assert_eq!(data_value(&host, "optimal-order"), 19.1);
    assert!(data_value(&host, "composed-epsilon-classic") > eps);
    // Base, subsampled, the zCDP/tCDP lines, composition and the optimal order.
    assert_eq!(host.query_selector_all("canvas").unwrap().length(), 5);
    let badge = find(&host, "[data-testid=composed-epsilon] + .badge")
        .text_content()
        .unwrap();
    assert_eq!(badge, "add/remove one");
    drop(handle);
    host.remove();

    // math-reference: the exact subsampled Gaussian at q = 0.1, σ = 5, α = 1.5 is 3.05e-4.
    let (host, handle) = mount("?page=renyi&mech=gaussian&sigma=5&q=0.1&alpha=1.5").await;
    let v = data_value(&host, "rdp-at-order");
    assert!((v - 3.05e-4).abs() < 0.005e-4, "{v}");
    // The lower bound exists at whole orders only: no number, a reason.
    assert!(data_value(&host, "rdp-lower-at-order").is_nan());
    let note = find(&host, "[data-testid=rdp-lower-at-order] ~ .readout-note")
        .text_content()
        .unwrap();
    assert!(note.contains("whole orders"), "{note}");
    // Laplace under Poisson sampling has an exact curve too (both directions of the divergence),
    // strictly below the general upper bound.
    let gaussian_base = data_value(&host, "rdp-base-at-order");
    let select: web_sys::HtmlSelectElement = find(&host, "#ctl-mech").dyn_into().unwrap();
    select.set_value("laplace");
    select
        .dispatch_event(&web_sys::Event::new("change").unwrap())
        .unwrap();
    wait_for("the Laplace curves", || {
        has(&host, "[data-testid=field-scale]")
            && data_value(&host, "rdp-base-at-order") != gaussian_base
    })
    .await;
    let kind = find(&host, "[data-testid=curve-kind]")
        .text_content()
        .unwrap();
    assert!(kind.contains("exact"), "{kind}");
    let (sub, base) = (
        data_value(&host, "rdp-at-order"),
        data_value(&host, "rdp-base-at-order"),
    );
    assert!(sub > 0.0 && sub < base, "{sub} vs base {base}");
    assert!(data_value(&host, "rdp-at-order") < data_value(&host, "rdp-upper-at-order"));
    drop(handle);
    host.remove();
}

#[wasm_bindgen_test]
async fn training_page_shows_the_band_then_refines_it() {
    // Opacus's test case (σ = 1.5, q = 0.04, 2250 steps, δ = 1e-5): its PRV accountant gives
    // about 6.777; dp_accounting's PLD accountant 6.7688 (tools/external).
    let (host, handle) = mount(
        "?page=training&dataset=60000&batch=2400&sigma=1.5&length=steps&steps=2250&delta=1e-5",
    )
    .await;
    // Wait for the refined numbers (computed once the controls rest).
    let status = || find(&host, "[data-testid=accounting-status]");
    wait_for("the refined numbers", || {
        status().get_attribute("data-state").as_deref() == Some("final")
    })
    .await;
    assert_eq!(
        status().get_attribute("data-state").as_deref(),
        Some("final")
    );
    let (hi, lo) = (
        data_value(&host, "tight-epsilon"),
        data_value(&host, "tight-epsilon-lower"),
    );
    assert!(lo <= hi && (hi - 6.7688).abs() < 0.002, "[{lo}, {hi}]");
    assert!(hi - lo < 0.03, "refined band [{lo}, {hi}] is too wide");
    let rdp = data_value(&host, "rdp-epsilon");
    assert!(rdp > hi && (rdp - 7.33).abs() < 0.01, "RDP {rdp}");
    assert!(data_value(&host, "rdp-order") > 1.0);
    assert!(data_value(&host, "calibrated-sigma") > 0.2);
    // The textarea's value property (read without the HtmlTextAreaElement binding).
    let text = js_sys::Reflect::get(
        &find(&host, "[data-testid=privacy-statement]"),
        &JsValue::from_str("value"),
    )
    .unwrap()
    .as_string()
    .unwrap_or_default();
    assert!(
        text.contains("adding or removing one example") && text.contains("ε = 6.769"),
        "{text}"
    );
    // Five figures of the run and noise, two of how batches are formed, one of capped batches,
    // one of banded noise, one of tuning.
    assert_eq!(host.query_selector_all("canvas").unwrap().length(), 10);
    drop(handle);
    host.remove();
}

#[wasm_bindgen_test]
async fn the_crash_page_replaces_the_app_with_a_message_and_a_reset_link() {
    let (host, handle) = mount("?page=subsampling&eps=0.5").await;
    assert!(host.query_selector("canvas").unwrap().is_some());
    // What the panic hook renders into <body> (here into the app's host, so the test runner's
    // own output stays on the page).
    amplification_explorer::render_crash(&host);
    let main = find(&host, "[data-testid=crashed]");
    assert_eq!(main.get_attribute("role").as_deref(), Some("alert"));
    assert!(main
        .text_content()
        .unwrap()
        .contains("Something went wrong"));
    // The dead app is gone: no controls or figures are left to mislead the reader.
    assert!(host.query_selector("canvas").unwrap().is_none());
    assert!(host.query_selector("input").unwrap().is_none());
    // The reset link drops the query: the default settings of the page's address.
    let link = find(&host, "[data-testid=crash-reset]");
    assert_eq!(link.get_attribute("href").as_deref(), Some("./"));
    drop(handle);
}

#[wasm_bindgen_test]
async fn shuffling_page_shows_the_published_range_and_the_exact_value() {
    let (host, _handle) = mount("?page=shuffling&eps0=4&users=100000&delta=1e-6").await;
    wait_for("the shuffle bound", || {
        data_value(&host, "shuffle-epsilon").is_finite()
            && data_value(&host, "shuffle-published-upper").is_finite()
    })
    .await;
    // Feldman, McMillan & Talwar 2021: their code's range [0.16754, 0.17279]; exact 0.16977.
    assert!((data_value(&host, "shuffle-published-lower") - 0.16754).abs() < 5e-6);
    assert!((data_value(&host, "shuffle-published-upper") - 0.17279).abs() < 5e-6);
    assert!((data_value(&host, "shuffle-epsilon") - 0.16977).abs() < 5e-6);
    let efm = find(&host, "[data-testid=bound-efmrtt19]");
    assert_eq!(efm.get_attribute("data-valid").as_deref(), Some("false"));
    assert!(efm.text_content().unwrap().contains("not valid here"));
}

#[wasm_bindgen_test]
async fn training_page_adds_and_removes_a_phase() {
    let (host, handle) =
        mount("?page=training&dataset=60000&batch=600&sigma=1&length=steps&steps=1000&delta=1e-5")
            .await;
    let status = || find(&host, "[data-testid=accounting-status]");
    let refined = || status().get_attribute("data-state").as_deref() == Some("final");
    wait_for("the refined numbers", refined).await;
    let one = data_value(&host, "tight-epsilon");
    assert!(!has(&host, "[data-testid=field-sigma-2]"), "no phase 2 yet");
    let click = |id: &str| {
        find(&host, &format!("[data-testid={id}]"))
            .dyn_into::<HtmlElement>()
            .unwrap()
            .click()
    };
    click("add-phase");
    wait_for("phase 2's controls", || {
        has(&host, "[data-testid=field-sigma-2]")
    })
    .await;
    let search = || web_sys::window().unwrap().location().search().unwrap();
    wait_for("the URL to hold phases=2", || search().contains("phases=2")).await;
    // The second phase (its defaults: 3 epochs of batches of 256 at σ = 5) adds privacy loss.
    wait_for("the refined numbers of the two phases", || {
        refined() && data_value(&host, "tight-epsilon") > one
    })
    .await;
    click("remove-phase");
    wait_for("phase 2's controls to go", || {
        !has(&host, "[data-testid=field-sigma-2]")
    })
    .await;
    wait_for("the one-phase numbers again", || {
        refined() && data_value(&host, "tight-epsilon") == one
    })
    .await;
    drop(handle);
    host.remove();
}
