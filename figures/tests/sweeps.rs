//! Every registry figure renders natively to well-formed, non-empty SVG, at defaults and at the
//! corners of its parameters' slider ranges, with finite data in every series. The sweeps are one
//! test per figure and sweep (`sweeps!` at the end), so that the test runner spreads them over
//! the cores. (The exports and the figure-to-page map are the site's: `site/tests/figures.rs`.)
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_chart::svg::SIZE;
use amp_figures::svg::render_svg;
use amp_figures::{Chart, FigureId, FigureSpec, ModelError, FIGURES};
use amp_math::iteration::many_passes::Batches;
use amp_math::subsampling::Scheme;
use amp_model::constraints::{check_together, relevant};
use amp_model::param::by_name;
use amp_model::param::{self as p, group};
use amp_model::params::{Domain, Mechanism, ParamSpec, ParamValues, Value};

fn check_chart(id: &str, chart: &Chart) {
    assert!(!chart.summary.is_empty(), "{id}: no text alternative");
    check_panel(id, chart);
    if let Some(lower) = &chart.lower {
        check_panel(&format!("{id} (lower panel)"), lower);
    }
}

fn check_panel(id: &str, chart: &Chart) {
    for m in &chart.markers {
        assert!(m.x.is_finite() && m.y.is_finite(), "{id}: marker {m:?}");
    }
    if let Some(hm) = &chart.heatmap {
        assert_eq!(
            hm.values.len(),
            (hm.x_edges.len() - 1) * (hm.y_edges.len() - 1),
            "{id}: heatmap shape"
        );
        for &v in &hm.values {
            assert!(v.is_finite() && v > 0.0, "{id}: heatmap cell {v}");
        }
        return;
    }
    if !chart.boxes.is_empty() {
        for b in &chart.boxes {
            assert!(b.stats.iter().all(|v| v.is_finite()), "{id}: box {b:?}");
            assert!(
                b.stats.windows(2).all(|w| w[0] <= w[1]),
                "{id}: unordered box {b:?}"
            );
            if chart.y.log {
                assert!(b.stats[0] > 0.0, "{id}: box below 0 on a log axis");
            }
        }
        return;
    }
    assert!(!chart.series.is_empty(), "{id}: no series");
    for s in &chart.series {
        for &(x, y) in &s.points {
            assert!(
                x.is_finite() && y.is_finite(),
                "{id}/{}: non-finite point",
                s.label
            );
            if chart.x.log {
                assert!(x > 0.0, "{id}/{}: x ≤ 0 on a log axis", s.label);
            }
            if chart.y.log {
                assert!(y > 0.0, "{id}/{}: y ≤ 0 on a log axis", s.label);
            }
        }
    }
    assert!(
        chart.series.iter().any(|s| s.points.len() >= 2),
        "{id}: nothing to draw"
    );
    assert!(
        chart.x.min < chart.x.max && chart.y.min < chart.y.max,
        "{id}: empty range"
    );
}

fn check_svg(id: &str, svg: &str, chart: &Chart, title: &str) {
    let doc = roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("{id}: bad SVG: {e}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    let lines = doc
        .descendants()
        .filter(|n| matches!(n.tag_name().name(), "polyline" | "path" | "line"))
        .count();
    assert!(lines > 10, "{id}: only {lines} line elements");
    let texts: String = doc
        .descendants()
        .filter(|n| n.tag_name().name() == "text")
        .filter_map(|n| n.text())
        .collect();
    assert!(texts.contains(title), "{id}: title missing");
    assert!(texts.contains(&chart.x.label), "{id}: x-axis label missing");
    assert!(texts.contains(&chart.y.label), "{id}: y-axis label missing");
}

#[test]
fn every_figure_renders_at_defaults() {
    assert!(!FIGURES.is_empty());
    for f in FIGURES {
        let values = ParamValues::default();
        let chart = f.chart(&values).unwrap_or_else(|e| panic!("{}: {e}", f.id));
        check_chart(f.id.as_str(), &chart);
        // The app sizes a figure's box from `two_panels` before drawing it.
        if f.id != amp_figures::FigureId::MeanNoiseRatio {
            assert_eq!(chart.lower.is_some(), f.id.two_panels(), "{}", f.id);
        }
        let svg = render_svg(f, &values, SIZE).unwrap();
        check_svg(f.id.as_str(), &svg, &chart, f.title);
        // The worker's text codec carries the whole chart, panels, notes and all.
        assert_eq!(
            Chart::adopt(&chart.carry()).as_ref(),
            Some(&chart),
            "{}",
            f.id
        );
    }
}

/// Whether one step of the iteration page's run costs ε ≈ 0 at its δ: the Gaussian step's Rényi DP
/// ρα with ρ = (2/(bσ))²/2 (L = 1), turned into ε by the improved conversion (Canonne, Kamath &
/// Steinke 2020), ε = ρα + log((α − 1)/α) − (log δ + log α)/(α − 1), at the best of a log grid of
/// orders from 1.01 to 10⁴. Computed here with std, independently of the app's accountant.
#[allow(clippy::disallowed_methods)]
fn iteration_step_is_free(values: &ParamValues) -> bool {
    let (sigma, b, delta) = (
        values.real(p::SIGMA),
        values.count(p::STEP_BATCH) as f64,
        values.real(p::DELTA),
    );
    let rho = 0.5 * (2.0 / (b * sigma)).powi(2);
    let best = (0..=4000)
        .map(|k| 1.01f64 * (10_000.0f64 / 1.01).powf(k as f64 / 4000.0))
        .map(|a| rho * a + ((a - 1.0) / a).ln() - (delta.ln() + a.ln()) / (a - 1.0))
        .fold(f64::INFINITY, f64::min);
    // Far from 0 at any ordinary setting; the app's own grid may reach 0 where this one stops a
    // hair above it.
    best < 1e-3
}

/// The CSV and JSON exports hold every plotted point, parse, and give back the same doubles.
#[test]
fn ids_are_unique_kebab_case_and_params_are_declared() {
    // Every FigureId names its own registry entry (FigureId::spec is an index), and back.
    assert_eq!(FigureId::ALL.len(), FIGURES.len());
    for (i, id) in FigureId::ALL.iter().enumerate() {
        assert_eq!(FIGURES[i].id, *id, "registry entry {i} is out of order");
        assert_eq!(id.spec().id, *id);
        assert_eq!(FigureId::from_id(id.as_str()), Some(*id));
        assert_eq!(amp_figures::figure(id.as_str()).map(|f| f.id), Some(*id));
    }
    assert_eq!(FigureId::from_id("no-such-figure"), None);
    let mut ids: Vec<&str> = FIGURES.iter().map(|f| f.id.as_str()).collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), FIGURES.len());
    for f in FIGURES {
        assert!(
            f.id.as_str()
                .chars()
                .all(|c| c.is_ascii_lowercase() || c == '-'),
            "{}",
            f.id
        );
        for spec in f.params {
            assert_eq!(
                by_name(spec.name).map(|s| s.name),
                Some(spec.name),
                "{}: undeclared parameter {}",
                f.id,
                spec.name
            );
        }
    }
}

/// A refusal with a reason in words: the figure does not apply, or the mathematics refuses these
/// inputs as outside what it covers (an accountant with no analysis of the event, inputs invalid
/// together, outside a domain, no solution). Never a numerical failure (no convergence, an
/// unbracketed root, NaN) or a pending value.
fn refusal_reason(e: &ModelError) -> Option<String> {
    use amp_math::MathError;
    match e {
        ModelError::NotApplicable(msg) => Some(msg.clone()),
        ModelError::Math(
            m @ (MathError::Unsupported { .. }
            | MathError::Inconsistent { .. }
            | MathError::OutOfDomain { .. }
            | MathError::NoSolution { .. }),
        ) => Some(m.to_string()),
        _ => None,
    }
}

fn refusal_is_expected(values: &ParamValues, e: &ModelError) -> bool {
    let Some(msg) = refusal_reason(e) else {
        return false;
    };
    // The training page refuses, with its reason in place of the figure, randomized response (not
    // a DP-SGD noise), δ below what the FFT resolves, and runs beyond 10⁹ steps.
    let mech = values.choice(p::MECH);
    if (matches!(
        mech,
        Mechanism::RandomizedResponse | Mechanism::KaryRandomizedResponse
    ) && msg.contains("Rényi DP page"))
        || (values.real(p::DELTA) < 1e-11 && msg.contains("δ of at least 1e-11"))
        || msg.contains("more than this page accounts for")
        || msg.contains("need a loss grid longer than")
        // Shuffled and balls-in-bins batches: Gaussian noise only, at most 10⁸ steps per epoch.
        || (mech == Mechanism::Laplace && msg.contains("bounds here are for Gaussian noise"))
        || (values.count(p::DATASET) as f64 / values.count(p::BATCH) as f64 > 1e8
            && msg.contains("steps per epoch must be between 1 and 10⁸"))
        || msg.contains("ε = 0 for every sampler")
        // The search's cost: one run already at ε = 0 (read from the training readouts' RDP ε).
        || (msg.contains("one run has ε = 0")
            && amp_model::training::setting(values)
                .and_then(|t| amp_model::training::rdp_epsilon(&t))
                .is_ok_and(|c| c.epsilon == 0.0))
        // Shuffle rounds: δ near 1 leaves ε = 0 everywhere, which log axes cannot show.
        || (values.real(p::DELTA) > 0.5 && msg.contains("central ε is 0 at every R"))
        // Several records per user: Poisson batches and Gaussian noise only.
        || (values.count(p::RECORDS) > 1 && msg.contains("per user"))
        // Capped batches: Poisson batches and Gaussian noise only; the calibrating figures and
        // the samplers' comparison are drawn without a cap.
        || (values.count(p::MAX_BATCH) > 0 && msg.contains("cap"))
        || msg.contains("need a maximum batch size M above 0")
        || (mech == Mechanism::Laplace && msg.contains("capped batches are accounted here"))
        || msg.contains("no cap below |x| to draw")
        || msg.contains("banded noise is accounted here")
        || msg.contains("leave no room for b ≥ 2")
        || (values.count(p::BANDS) > 1 && msg.contains("bands each group has"))
        || (values.count(p::BANDS) > 1 && msg.contains("banded noise (b = "))
        // The zCDP/tCDP comparison is drawn for the Poisson-sampled Gaussian only.
        || ((mech != Mechanism::Gaussian || values.choice(p::SCHEME) != Scheme::Poisson)
            && msg.contains("Gaussian mechanism under Poisson sampling"))
        || msg.contains("in [0.2, 10⁴] meets ε")
        // Iteration: a step that costs ε = 0 already (large δ, or large σ·b) has nothing to
        // amplify; checked here from the step's own Rényi DP, not taken from the figure.
        || (msg.contains("a record's step already costs ε = 0") && iteration_step_is_free(values))
        // The noise schedules compare amplification by iteration, which needs η ≤ 2/β.
        || (values.real(p::STEP_SIZE) > 2.0 / values.real(p::SMOOTHNESS)
            && msg.contains("amplification by iteration does not apply"))
        // Many passes: a batch larger than the data set, cyclic batches that do not divide it.
        || (values.choice(p::PASS_BATCHES) != Batches::Full
            && values.count(p::PASS_BATCH) > values.count(p::PASS_RECORDS)
            && msg.contains("larger than the data set"))
        || (values.choice(p::PASS_BATCHES) == Batches::Cyclic
            && !values.count(p::PASS_RECORDS).is_multiple_of(values.count(p::PASS_BATCH))
            && msg.contains("need b to divide n"))
        // Many passes: ε = 0 at every length (δ this large, or this much noise for n records).
        || (msg.contains("ε is zero at every run length")
            && amp_model::iteration::many_pass_readouts(values).plateau == Ok(0.0))
    {
        return true;
    }
    // The risk page: noise is calibrated for noise mechanisms only, a target TPR must lie above
    // the FPR, and some targets need noise outside the searched range.
    if (matches!(
        mech,
        Mechanism::RandomizedResponse | Mechanism::KaryRandomizedResponse
    ) && msg.contains("no noise scale"))
        || (values.real(p::TARGET_TPR) <= values.real(p::FPR) && msg.contains("above the FPR"))
        || msg.contains("in the searched range (0.2 to 10⁴)")
    {
        return true;
    }
    let scheme = values.choice(p::SCHEME);
    let empty = values.real(p::Q) * values.count(p::N) as f64 <= 0.5;
    (scheme == Scheme::WithReplacement
        && msg.contains("Poisson sampling and sampling without replacement"))
        || (scheme == Scheme::WithoutReplacement && empty && msg.contains("empty sample"))
}

/// For each parameter of `f`: every option of a choice, else its default between the two ends
/// `ends` gives.
fn corners(f: &FigureSpec, ends: impl Fn(&ParamSpec) -> (Value, Value)) -> Vec<Vec<Value>> {
    f.params
        .iter()
        .map(|&spec| match spec.domain {
            // Capped Poisson batches (the sampler's last option), the cap and gradient
            // accumulation have their own sweep (`capped_batches_and_accumulation_draw_or_refuse`):
            // here they stay at their defaults, so the sweeps keep their size and spread.
            Domain::Choice(options) if spec.name == p::BATCHING.spec.name => (0..options.len())
                .filter(|&i| options[i].id != "truncated-poisson")
                .map(Value::Choice)
                .collect(),
            Domain::Choice(options) => (0..options.len()).map(Value::Choice).collect(),
            _ if spec.name == p::MAX_BATCH.spec.name || spec.name == p::ACCUMULATION.spec.name => {
                vec![spec.default]
            }
            _ => {
                let (lo, hi) = ends(spec);
                vec![lo, spec.default, hi]
            }
        })
        .collect()
}

/// Capped Poisson batches and gradient accumulation, which the corner sweeps hold at their
/// defaults: every figure that reads them, at the default run and at shapes around it (a cap
/// below, near and far above the batch, or none; one to 65,536 accumulation steps; the capped
/// sampler with and without a cap; Laplace noise; several records per user), draws finite series
/// or refuses with a reason.
fn reads_cap_or_accumulation(f: &FigureSpec) -> bool {
    f.params
        .iter()
        .any(|s| s.name == p::MAX_BATCH.spec.name || s.name == p::ACCUMULATION.spec.name)
}

/// The figures `capped_sweep` draws: enough to be a test of the run shapes.
#[test]
fn the_capped_sweep_has_figures_to_draw() {
    let n = FIGURES
        .iter()
        .filter(|f| reads_cap_or_accumulation(f))
        .count();
    assert!(n >= 5, "{n}");
}

fn capped_sweep(f: &FigureSpec) {
    let mut drawn = 0;
    let count = usize::from(reads_cap_or_accumulation(f));
    for f in std::iter::once(f).filter(|f| reads_cap_or_accumulation(f)) {
        for (cap, acc, sampler, extra) in [
            (0u64, 1u64, "poisson", ""),
            (64, 1, "poisson", ""),
            (256, 1, "truncated-poisson", ""),
            (300, 4, "poisson", ""),
            (1, 1, "poisson", ""),
            (1_000_000_000_000, 1, "poisson", ""),
            (0, 65_536, "poisson", ""),
            (0, 8, "shuffle", ""),
            (0, 1, "truncated-poisson", ""),
            (300, 1, "shuffle", ""),
            (300, 1, "poisson", "laplace"),
            (300, 1, "poisson", "records"),
        ] {
            let mut v = ParamValues::default();
            v.set(p::MAX_BATCH.spec, Value::Count(cap)).unwrap();
            v.set(p::ACCUMULATION.spec, Value::Count(acc)).unwrap();
            v.set_text(p::BATCHING.spec, sampler).unwrap();
            match extra {
                "laplace" => v.set_text(p::MECH.spec, "laplace").unwrap(),
                "records" => v.set(p::RECORDS.spec, Value::Count(3)).unwrap(),
                _ => {}
            }
            match f.chart(&v) {
                Ok(chart) => check_chart(f.id.as_str(), &chart),
                Err(e) => {
                    let text = e.to_string();
                    assert!(
                        !text.trim().is_empty()
                            && !text.to_lowercase().contains("nan")
                            && refusal_reason(&e).is_some(),
                        "{} at M = {cap}, A = {acc}, {sampler} {extra}: {e}",
                        f.id
                    );
                }
            }
            drawn += 1;
        }
    }
    assert_eq!(drawn, 12 * count);
}

/// Each parameter at its slider minimum, maximum and default, in every combination (the full
/// domain corners are swept below; this covers every combination the controls reach).
fn controls_sweep(f: &FigureSpec) {
    let started = std::time::Instant::now();
    let corners = corners(f, |spec| {
        (
            spec.from_slider(0).unwrap(),
            spec.from_slider(ParamSpec::SLIDER_STEPS).unwrap(),
        )
    });
    // The later phases of a training run (`phases` and the controls of phases 2 to 4) take
    // too many combinations to list (4 × 1,458 more for phase 2 alone, per combination of
    // the run's own controls): they stay at their defaults in the full sweep, and a fixed
    // pseudo-random sample of 3,000 combinations of every control, the phases' included,
    // is added to it.
    // The cap on the batch, gradient accumulation and the bands reshape the run as a phase does; they
    // too are swept through the sample only (each would triple the full sweep), and so are
    // the hyperparameter search's controls (`tuning-cost`: they would multiply it by 18).
    let phase_control = |spec: &ParamSpec| {
        spec.name == p::PHASES.spec.name
            || spec.name == p::MAX_BATCH.spec.name
            || spec.name == p::ACCUMULATION.spec.name
            || spec.name == p::BANDS.spec.name
            || [
                &group::PHASE_2,
                &group::PHASE_3,
                &group::PHASE_4,
                &group::TUNING,
            ]
            .iter()
            .any(|g| g.params.iter().any(|q| q.name == spec.name))
    };
    let full = corners.clone();
    let corners: Vec<Vec<Value>> = f
        .params
        .iter()
        .zip(corners)
        .map(|(spec, c)| {
            if phase_control(spec) {
                vec![spec.default]
            } else {
                c
            }
        })
        .collect();
    // Every combination the controls can reach (a control the view hides, such as σ when the
    // mechanism is Laplace, keeps its default: other values of it draw the same chart; and
    // combinations the UI refuses, such as m > n, are never drawn).
    let reachable_at = |pick: &dyn Fn(usize) -> Value| -> Option<ParamValues> {
        let mut values = ParamValues::default();
        for (k, spec) in f.params.iter().enumerate() {
            values.set(spec, pick(k)).unwrap();
        }
        if f.is_simulated() {
            values.set(p::RUNS.spec, Value::Count(10)).unwrap();
        }
        let hidden_moved = f
            .params
            .iter()
            .enumerate()
            .any(|(k, spec)| pick(k) != spec.default && !relevant(f.params, &values, spec));
        (!hidden_moved && check_together(&values).is_ok()).then_some(values)
    };
    let mut reachable = Vec::new();
    if f.params.iter().any(|s| phase_control(s)) {
        let mut state = 0x2545_f491_4f6c_dd1d_u64 ^ f.id as u64;
        for _ in 0..3_000 {
            let picks: Vec<Value> = full
                .iter()
                .map(|c| {
                    state ^= state << 13;
                    state ^= state >> 7;
                    state ^= state << 17;
                    c[(state % c.len() as u64) as usize]
                })
                .collect();
            reachable.extend(reachable_at(&|k| picks[k]));
        }
    }
    let mut idx = vec![0usize; corners.len()];
    loop {
        // (The simulation's size is not what this test is about: every corner runs 10.)
        reachable.extend(reachable_at(&|k| corners[k][idx[k]]));
        // Next combination.
        let mut k = 0;
        while k < idx.len() {
            idx[k] += 1;
            if idx[k] < corners[k].len() {
                break;
            }
            idx[k] = 0;
            k += 1;
        }
        if k == idx.len() {
            break;
        }
    }
    let budget = budget(f);
    let stride = reachable.len().div_ceil(budget).max(1);
    let mut drawn = 0;
    for values in reachable.iter().step_by(stride) {
        match f.chart(values) {
            Ok(chart) => {
                check_chart(f.id.as_str(), &chart);
                drawn += 1;
            }
            // Refusals with a reason shown in place of the figure (see refusal_is_expected).
            Err(e) if refusal_is_expected(values, &e) => drawn += 1,
            Err(e) => panic!("{} at {values:?}: {e}", f.id),
        }
    }
    // At least one combination per parameter corner (m > n and the like are refused).
    assert!(
        drawn >= 3usize.pow(f.params.len() as u32 - 1).min(9),
        "{}: only {drawn} combinations drawn",
        f.id
    );
    eprintln!(
        "{}: {drawn} charts in {:.1} s",
        f.id,
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn the_readers_point_sits_on_the_highlighted_curve_values() {
    // amplification-vs-rate at defaults: ε = 1, p = 0.01 → ε′ = 0.0170369 (mpmath).
    let f = FigureId::AmplificationVsRate.spec();
    let chart = f.chart(&ParamValues::default()).unwrap();
    let m = &chart.markers[0];
    assert_eq!(m.x, 0.01);
    assert!((m.y - 0.017_036_863_236_176_55).abs() < 1e-15);
    // sample-budget at defaults: the seed's 5.1523.
    let f = FigureId::SampleBudget.spec();
    let chart = f.chart(&ParamValues::default()).unwrap();
    assert!((chart.markers[0].y - 5.1523).abs() < 5e-5);
    assert!(chart.summary.contains("5.1523"), "{}", chart.summary);
}

#[test]
fn iteration_curve_rises_to_the_unamplified_step_and_is_withheld_when_steps_expand() {
    use amp_figures::Role;
    use amp_model::iteration::readouts;
    let f = FigureId::IterationPrivacyByPosition.spec();
    let mut values = ParamValues::default();
    values.set(p::ITERATIONS.spec, Value::Count(1000)).unwrap();
    values.set(p::SIGMA.spec, Value::Real(4.0)).unwrap();
    let chart = f.chart(&values).unwrap();
    let flat = chart
        .series
        .iter()
        .find(|s| s.role == Role::Bound(0))
        .unwrap()
        .points[0]
        .1;
    let curve = &chart
        .series
        .iter()
        .find(|s| s.role == Role::Highlight)
        .unwrap()
        .points;
    // T ≤ 400 positions would be every one; at T = 1000 a sample that keeps 1 and T.
    assert_eq!(curve.first().unwrap().0, 1.0);
    assert_eq!(curve.last().unwrap().0, 1000.0);
    assert!(curve
        .windows(2)
        .all(|w| w[0].0 < w[1].0 && w[0].1 <= w[1].1));
    assert!((curve.last().unwrap().1 - flat).abs() <= 1e-12 * flat);
    // The worked example of iteration-bound.html (σ = 4, δ = 1e-6): 0.061 first, 2.42 plain.
    assert!((curve[0].1 - 0.061).abs() < 0.0005, "{}", curve[0].1);
    assert!((flat - 2.42).abs() < 0.005, "{flat}");
    let r = readouts(&values);
    assert_eq!(r.first.unwrap(), curve[0].1);
    assert_eq!(r.composition.unwrap(), flat);
    // η = 3 > 2/β = 2: the theorem does not apply; only the flat line, with a note.
    values.set(p::STEP_SIZE.spec, Value::Real(3.0)).unwrap();
    let chart = f.chart(&values).unwrap();
    assert!(chart.series.iter().all(|s| s.role != Role::Highlight));
    assert!(
        chart.notes.iter().any(|n| n.contains("2/β")),
        "{:?}",
        chart.notes
    );
    assert!(readouts(&values).first.is_err());
}

/// The many-pass figure's summary says where its two curves part, as its data show: full batches
/// agree with composition until the burn-in (2Dn/(ηL) = 20,000 steps at n = 1000, D = 1, η = 0.1),
/// cyclic batches of 10 of 1000 only through the first epoch of 100 steps.
#[test]
fn the_many_pass_summary_says_where_the_curves_part() {
    let f = FigureId::IterationManyPasses.spec();
    let mut values = ParamValues::default();
    values
        .set(
            p::PASS_BATCHES.spec,
            p::PASS_BATCHES.spec.parse("full").unwrap(),
        )
        .unwrap();
    let full = f.chart(&values).unwrap().summary;
    assert!(
        full.contains("agree until the burn-in at about 20000 steps"),
        "{full}"
    );
    values
        .set(
            p::PASS_BATCHES.spec,
            p::PASS_BATCHES.spec.parse("cyclic").unwrap(),
        )
        .unwrap();
    let cyclic = f.chart(&values).unwrap().summary;
    let upto: f64 = cyclic
        .split("agree up to about ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{cyclic}"));
    assert_eq!(upto, 100.0, "{cyclic}");
}

/// Each parameter at its domain's minimum, default and maximum (not just the sliders' ends), in
/// combination, an evenly spread sample of at most 60 combinations per figure: no panic, every
/// drawn series finite (check_chart), and anything the figure cannot draw refused with a reason
/// in words (shown in place of the figure) rather than a number that is not one.
fn domains_sweep(f: &FigureSpec) {
    let started = std::time::Instant::now();
    let corners = corners(f, |spec| match spec.domain {
        Domain::Real {
            min, max, max_open, ..
        } => {
            let top = if max_open { max * (1.0 - 1e-9) } else { max };
            (Value::Real(min), Value::Real(top))
        }
        Domain::Count { min, max, odd, .. } => {
            let fix = |n: u64| if odd && n.is_multiple_of(2) { n - 1 } else { n };
            (Value::Count(fix(min)), Value::Count(fix(max)))
        }
        Domain::Choice(_) => unreachable!("choices take every option"),
    });
    let total: usize = corners.iter().map(Vec::len).product();
    let stride = total.div_ceil(60).max(1);
    let mut drawn = 0;
    for k in (0..total).step_by(stride) {
        let mut values = ParamValues::default();
        let mut rest = k;
        for (i, spec) in f.params.iter().enumerate() {
            let c = &corners[i];
            values.set(spec, c[rest % c.len()]).unwrap();
            rest /= c.len();
        }
        if f.is_simulated() {
            values.set(p::RUNS.spec, Value::Count(10)).unwrap();
        }
        if check_together(&values).is_err() {
            continue;
        }
        match f.chart(&values) {
            Ok(chart) => check_chart(f.id.as_str(), &chart),
            Err(e) => {
                assert!(
                    !matches!(e, ModelError::Pending),
                    "{} at {values:?}: pending with the simulation run",
                    f.id
                );
                let text = e.to_string();
                let lower = text.to_lowercase();
                assert!(
                    !text.trim().is_empty() && !lower.contains("nan") && !lower.contains(" inf"),
                    "{} at {values:?}: refusal without a reason: {e}",
                    f.id
                );
            }
        }
        drawn += 1;
    }
    assert!(drawn > 0, "{}: no combination tried", f.id);
    eprintln!(
        "{} (domain corners): {drawn} of {total} combinations in {:.1} s",
        f.id,
        started.elapsed().as_secs_f64()
    );
}

#[test]
fn the_shuffling_side_of_shuffle_vs_subsample_meets_every_target_it_plots() {
    use amp_math::shuffle::{best, MAX_USERS};
    let f = FigureId::ShuffleVsSubsample.spec();
    for users in [1000u64, 100_000, 10_000_000] {
        assert!(users <= MAX_USERS);
        let mut values = ParamValues::default();
        values.set(p::USERS.spec, Value::Count(users)).unwrap();
        let chart = f.chart(&values).unwrap();
        let shuffle = &chart.series[0];
        assert!(shuffle.label.contains("replace one"));
        assert!(
            shuffle.points.len() >= 10,
            "{users}: {}",
            shuffle.points.len()
        );
        for &(target, eps0) in &shuffle.points {
            // The tightest bound at the plotted ε₀ meets the target it is plotted against.
            let got = best(eps0, users, values.real(p::DELTA))
                .unwrap()
                .epsilon
                .unwrap();
            assert!(
                got <= target * (1.0 + 1e-9),
                "n = {users}: ε₀ = {eps0} gives {got} > {target}"
            );
        }
    }
}

/// A chart whose curves leave one corner free gets its legend there; one whose curves cross every
/// corner gets no legend inside the plot (the page lists it), and its SVG export draws the legend
/// in a band below, as well-formed SVG naming every series once.
/// `batching-noise` calibrates its lines once per run shape (remembered): the reader's σ and
/// sampler move only the marker and the highlight, while the δ the lines are calibrated at
/// changes them (a memo that forgot δ would hand back the old lines).
#[test]
fn the_noise_figure_recalibrates_only_for_what_its_lines_read() {
    let f = FIGURES
        .iter()
        .find(|f| f.id == FigureId::BatchingNoise)
        .unwrap();
    let lines =
        |c: &Chart| -> Vec<Vec<(f64, f64)>> { c.series.iter().map(|s| s.points.clone()).collect() };
    let base = f.chart(&ParamValues::default()).unwrap();
    let mut other = ParamValues::default();
    let sigma = other.real(p::SIGMA);
    other.set(p::SIGMA.spec, Value::Real(sigma * 1.5)).unwrap();
    other.set_text(p::BATCHING.spec, "shuffle").unwrap();
    let moved = f.chart(&other).unwrap();
    assert_eq!(lines(&base), lines(&moved));
    assert_ne!(base.markers, moved.markers);
    let mut tighter = ParamValues::default();
    let delta = tighter.real(p::DELTA);
    tighter
        .set(p::DELTA.spec, Value::Real(delta / 10.0))
        .unwrap();
    let recalibrated = f.chart(&tighter).unwrap();
    let (a, b) = (lines(&base), lines(&recalibrated));
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(&b) {
        // A smaller δ needs more noise at every batch size both lines reach.
        for (p, q) in x.iter().zip(y) {
            assert_eq!(p.0, q.0);
            assert!(
                q.1 > p.1,
                "σ at B = {}: {} at δ/10 against {}",
                p.0,
                q.1,
                p.1
            );
        }
    }
}

#[test]
fn legends_go_where_they_cover_no_data() {
    use amp_chart::draw::{draw_chart, legend_marks, Theme};
    use amp_chart::plotters::prelude::*;
    use amp_figures::{Axis, LegendCorner, Role, Series};
    let line = |label: &str, pts: Vec<(f64, f64)>, i| Series {
        label: label.into(),
        points: pts,
        role: Role::Family(i),
    };
    let frame_of = |chart: &Chart| {
        let mut out = String::new();
        let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
        draw_chart(&root, chart, &Theme::light(1.0), Some("t")).unwrap()
    };
    // A rising diagonal covers the lower-left and upper-right corners; the chart asks for the
    // lower left, and the legend is still drawn (in the upper left or lower right).
    let mut chart = Chart::new(
        Axis::numeric("x", false, 0.0, 1.0),
        Axis::numeric("y", false, 0.0, 1.0),
        LegendCorner::LowerLeft,
        String::new(),
    );
    chart
        .series
        .push(line("diagonal", vec![(0.0, 0.0), (1.0, 1.0)], 0));
    assert!(!frame_of(&chart).legend_hidden);
    // Horizontal lines at the top and bottom and a vertical... every corner crossed.
    let mut crowded = chart.clone();
    for (k, y) in [0.02, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 0.9, 0.98]
        .into_iter()
        .enumerate()
    {
        crowded
            .series
            .push(line(&format!("level {k}"), vec![(0.0, y), (1.0, y)], k));
    }
    assert!(frame_of(&crowded).legend_hidden);
    let svg = amp_chart::svg::chart_svg(&crowded, "crowded", SIZE).unwrap();
    roxmltree::Document::parse(&svg).unwrap();
    for e in legend_marks(&crowded, &Theme::light(1.0)) {
        assert_eq!(
            svg.matches(&format!("\n{}\n</text>", e.label)).count(),
            1,
            "{}",
            e.label
        );
    }
}

/// Every registry figure, drawn at its defaults and with each control alone at either end of its
/// slider (every option of a choice), at the exported size and at a phone's: where its legend is
/// inside the plot, no plotted point (a curve's or a band edge's vertex, a marker) is under it.
/// The legend is placed from the drawn pixels; this checks it from the data, through the frame's
/// own mapping. (The upper panel of a two-panel figure; simulated figures are left out: they need
/// a simulation.)
fn legend_sweep(f: &FigureSpec) {
    use amp_chart::draw::{draw_chart, Frame, Theme};
    use amp_chart::plotters::prelude::*;
    let mut failures = Vec::new();
    let mut checked = 0;
    for f in std::iter::once(f).filter(|f| !f.is_simulated()) {
        let mut settings = vec![ParamValues::default()];
        for spec in f.params {
            let ends: Vec<Value> = match spec.domain {
                Domain::Choice(options) => (0..options.len()).map(Value::Choice).collect(),
                _ => vec![
                    spec.from_slider(0).unwrap(),
                    spec.from_slider(ParamSpec::SLIDER_STEPS).unwrap(),
                ],
            };
            for v in ends.into_iter().filter(|v| *v != spec.default) {
                let mut values = ParamValues::default();
                values.set(spec, v).unwrap();
                if relevant(f.params, &values, spec) && check_together(&values).is_ok() {
                    settings.push(values);
                }
            }
        }
        for values in &settings {
            let Ok(chart) = f.chart(values) else { continue };
            for size in [SIZE, (400, 300)] {
                let mut out = String::new();
                let frame: Frame = {
                    let root = SVGBackend::with_string(&mut out, size).into_drawing_area();
                    draw_chart(&root, &chart, &Theme::light(1.0), None).unwrap()
                };
                let Some([l, t, r, b]) = frame.legend_box else {
                    continue;
                };
                checked += 1;
                let inside_axes = |x: f64, y: f64| {
                    let within = |v: f64, lo: f64, hi: f64, log: bool| {
                        v.is_finite() && v >= lo.min(hi) && v <= hi.max(lo) && (!log || v > 0.0)
                    };
                    within(x, frame.x_min, frame.x_max, frame.x_log)
                        && within(y, frame.y_min, frame.y_max, frame.y_log)
                };
                let mut points: Vec<(f64, f64, String)> = Vec::new();
                for s in &chart.series {
                    points.extend(s.points.iter().map(|&(x, y)| (x, y, s.label.clone())));
                }
                for band in &chart.bands {
                    for &(x, lo, hi) in &band.points {
                        points.push((x, lo, band.label.clone()));
                        points.push((x, hi, band.label.clone()));
                    }
                }
                points.extend(chart.markers.iter().map(|m| (m.x, m.y, m.label.clone())));
                for (x, y, label) in points {
                    if !inside_axes(x, y) {
                        continue;
                    }
                    let (px, py) = frame.pixel_of(x, y);
                    if px > l && px < r && py > t && py < b {
                        failures.push(format!(
                            "{} at {size:?}, {values:?}: the legend covers ({x}, {y}) of {label}",
                            f.id
                        ));
                        break;
                    }
                }
            }
        }
    }
    // (A figure whose legend is always outside the plot checks none here: that the sweep
    // checks legends at all is `most_figures_draw_their_legend_inside_the_plot`. All figures
    // together: 407 legends checked when the sweep was split by page.)
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!(
        "{}: {checked} legends inside plots, none over a plotted point",
        f.id
    );
}

/// The legend sweep has legends to check: at its defaults, most figures that need no simulation
/// draw their legend inside the plot.
#[test]
fn most_figures_draw_their_legend_inside_the_plot() {
    use amp_chart::draw::{draw_chart, Theme};
    use amp_chart::plotters::prelude::*;
    let drawable: Vec<_> = FIGURES.iter().filter(|f| !f.is_simulated()).collect();
    let inside = drawable
        .iter()
        .filter(|f| {
            let chart = f.chart(&ParamValues::default()).unwrap();
            let mut out = String::new();
            let root = SVGBackend::with_string(&mut out, SIZE).into_drawing_area();
            let frame = draw_chart(&root, &chart, &Theme::light(1.0), None).unwrap();
            frame.legend_box.is_some()
        })
        .count();
    eprintln!(
        "{inside} of {} figures draw their legend inside",
        drawable.len()
    );
    assert!(
        2 * inside > drawable.len(),
        "{inside} of {}",
        drawable.len()
    );
}

/// How many of a figure's reachable combinations the controls sweep draws, evenly spread (all of
/// each choice's values included by the spread): the training run's figures run an accountant per
/// chart (tens of milliseconds, hundreds for the calibrating ones), the shuffling page's deferred
/// ones a numerical bound per point.
fn budget(f: &FigureSpec) -> usize {
    use FigureId as F;
    const TRAINING: &[FigureId] = &[
        F::EpsilonVsEpochs,
        F::BatchingComparison,
        F::BatchingNoise,
        F::CappedBatches,
        F::BandedNoise,
        F::TuningCost,
        F::PrivacyProfile,
        F::PrivacyLossDistribution,
        F::NoiseForTarget,
        F::GaussianNoiseRatio,
    ];
    const SHUFFLING: &[FigureId] = &[
        F::ShuffleEpsilonVsUsers,
        F::ShuffleEpsilonVsLocal,
        F::ShuffleEpsilonVsRounds,
        F::ShuffleTradeoff,
        F::ShuffleVsSubsample,
        F::ErrorCentralLocalShuffle,
        F::SubsampledRr,
    ];
    const RISK: &[FigureId] = &[
        F::TradeoffCurve,
        F::TprVsSteps,
        F::NoiseForRisk,
        F::AuditCanaries,
    ];
    const ITERATION: &[FigureId] = &[
        F::IterationPrivacyByPosition,
        F::IterationNoiseSchedule,
        F::IterationManyPasses,
    ];
    let of = |group: &[FigureId]| group.contains(&f.id);
    let deferred = f.is_deferred();
    if deferred && (of(TRAINING) || of(SHUFFLING)) {
        40
    } else if deferred && of(RISK) {
        12
    } else if deferred && of(ITERATION) {
        60
    } else if of(TRAINING) {
        150
    } else if of(RISK) {
        60
    } else {
        usize::MAX
    }
}

/// The sweeps, one test per figure and sweep:
/// - `controls`: each parameter at its slider minimum, maximum and default, in every combination;
/// - `domains`: each at its domain's minimum, default and maximum;
/// - `capped`: capped batches and gradient accumulation at the shapes around the default run (for
///   a figure that reads neither, nothing to draw);
/// - `legends`: where a legend is inside the plot, it covers no plotted point.
macro_rules! sweeps {
    ($($module:ident: $figure:ident),* $(,)?) => {$(
        mod $module {
            use super::*;
            #[test]
            fn controls() {
                controls_sweep(FigureId::$figure.spec());
            }
            #[test]
            fn domains() {
                domains_sweep(FigureId::$figure.spec());
            }
            #[test]
            fn capped() {
                capped_sweep(FigureId::$figure.spec());
            }
            #[test]
            fn legends() {
                legend_sweep(FigureId::$figure.spec());
            }
        }
    )*
        /// Every figure has its sweeps, in the registry's order.
        #[test]
        fn every_figure_is_swept() {
            assert_eq!([$(FigureId::$figure),*].as_slice(), FigureId::ALL);
        }
    };
}

sweeps! {
    home_amplification: HomeAmplification,
    amplification_vs_rate: AmplificationVsRate,
    amplification_vs_epsilon: AmplificationVsEpsilon,
    sample_budget: SampleBudget,
    neighbour_densities: NeighbourDensities,
    known_inclusion: KnownInclusion,
    noise_ratio_vs_epsilon: NoiseRatioVsEpsilon,
    taylor_orders: TaylorOrders,
    noise_ratio_fixed_c: NoiseRatioFixedC,
    noise_bound_vs_c: NoiseBoundVsC,
    mse_comparison: MseComparison,
    regime_map: RegimeMap,
    variance_fraction_q: VarianceFractionQ,
    mean_variance_vs_rate: MeanVarianceVsRate,
    mean_noise_ratio: MeanNoiseRatio,
    population_density: PopulationDensity,
    private_estimates: PrivateEstimates,
    sensitivity_ratio: SensitivityRatio,
    noise_magnitude: NoiseMagnitude,
    sample_medians: SampleMedians,
    median_mse_vs_rate: MedianMseVsRate,
    rdp_base: RdpBase,
    rdp_subsampled: RdpSubsampled,
    rdp_cdp_lines: RdpCdpLines,
    rdp_composition: RdpComposition,
    rdp_optimal_order: RdpOptimalOrder,
    epsilon_vs_epochs: EpsilonVsEpochs,
    batching_comparison: BatchingComparison,
    batching_noise: BatchingNoise,
    capped_batches: CappedBatches,
    banded_noise: BandedNoise,
    tuning_cost: TuningCost,
    privacy_profile: PrivacyProfile,
    privacy_loss_distribution: PrivacyLossDistribution,
    noise_for_target: NoiseForTarget,
    gaussian_noise_ratio: GaussianNoiseRatio,
    tradeoff_curve: TradeoffCurve,
    tpr_vs_steps: TprVsSteps,
    noise_for_risk: NoiseForRisk,
    audit_canaries: AuditCanaries,
    shuffle_epsilon_vs_users: ShuffleEpsilonVsUsers,
    shuffle_epsilon_vs_local: ShuffleEpsilonVsLocal,
    shuffle_epsilon_vs_rounds: ShuffleEpsilonVsRounds,
    shuffle_tradeoff: ShuffleTradeoff,
    shuffle_vs_subsample: ShuffleVsSubsample,
    error_central_local_shuffle: ErrorCentralLocalShuffle,
    subsampled_rr: SubsampledRr,
    iteration_privacy_by_position: IterationPrivacyByPosition,
    iteration_noise_schedule: IterationNoiseSchedule,
    iteration_many_passes: IterationManyPasses,
}
