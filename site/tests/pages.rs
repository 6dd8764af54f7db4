//! Pages as data: every declaration resolves, every declared number and sentence is produced by the
//! page's one readouts function, and ids are unique across pages.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_model::param::by_name;

use amp_model::params::ParamValues;
use amp_site::figures::{FigureId, FIGURES};
use amp_site::pages::{Page, Precision, Readings, TableRow};

#[test]
fn every_page_declaration_resolves() {
    let values = ParamValues::default();
    let mut readout_ids: Vec<&str> = Vec::new();
    let mut shown_figures: Vec<FigureId> = Vec::new();
    for page in Page::ALL {
        let spec = page.spec();
        assert_eq!(Page::from_id(spec.id), Some(page));
        assert!(
            !spec.heading.is_empty()
                && amp_site::prose::prose_html(spec.lede).is_some_and(|t| !t.trim().is_empty()),
            "{}",
            spec.id
        );
        for p in page.params() {
            assert_eq!(by_name(p.name).map(|s| s.name), Some(p.name), "{}", spec.id);
        }
        // The one readouts function gives every declared number and sentence, each once.
        for precision in [Precision::Quick, Precision::Fine] {
            let r = (spec.readouts)(&values, precision);
            for d in spec.readout_specs() {
                let n = r.numbers.iter().filter(|x| x.spec.id == d.id).count();
                assert_eq!(n, 1, "{}: readout {} given {n} times", spec.id, d.id);
                // At the defaults every number of every page is available and finite.
                let v = r.get(d).unwrap().value.clone();
                assert!(
                    v.as_ref().is_ok_and(|x| x.is_finite()),
                    "{}: {} = {v:?}",
                    spec.id,
                    d.id
                );
            }
            for d in spec.note_specs() {
                let n = r.notes.iter().filter(|(s, _)| s.id == d.id).count();
                assert_eq!(n, 1, "{}: note {} given {n} times", spec.id, d.id);
            }
            for d in spec.table_specs() {
                let n = r.tables.iter().filter(|(s, _)| s.id == d.id).count();
                assert_eq!(n, 1, "{}: table {} given {n} times", spec.id, d.id);
                let rows = r.rows(d).unwrap().as_ref().expect("rows at the defaults");
                assert!(!rows.is_empty(), "{}: table {} is empty", spec.id, d.id);
                for row in rows {
                    assert_eq!(row.notes.len() + 2, d.columns.len(), "{}", row.testid);
                }
            }
            // Nothing computed that the page (its groups or its widgets) does not show.
            for x in &r.numbers {
                assert!(
                    spec.computed_readouts().iter().any(|d| d.id == x.spec.id),
                    "{}: {} computed but not declared",
                    spec.id,
                    x.spec.id
                );
            }
            for (x, _) in &r.notes {
                assert!(
                    spec.computed_notes().iter().any(|d| d.id == x.id),
                    "{}: sentence {} computed but not declared",
                    spec.id,
                    x.id
                );
            }
            readout_ids.extend(r.numbers.iter().map(|x| x.spec.id));
            readout_ids.extend(r.notes.iter().map(|(s, _)| s.id));
        }
        // A page shows only its own figures (a figure reads only controls its page has).
        for id in spec.figure_ids() {
            let f = id.spec();
            assert!(
                !shown_figures.contains(&id),
                "{} shows {id}, which another page shows too",
                spec.id
            );
            for p in f.params {
                assert!(
                    page.params().iter().any(|q| q.name == p.name),
                    "{}: figure {id} reads {}, which the page has no control for",
                    spec.id,
                    p.name
                );
            }
            shown_figures.push(id);
        }
    }
    // Ids unique across pages (each page's readouts were collected twice, once per precision).
    readout_ids.sort_unstable();
    let all = readout_ids.len();
    readout_ids.dedup();
    assert_eq!(
        readout_ids.len() * 2,
        all,
        "a readout id is used on two pages"
    );
    // Every figure of a page declared with sections is shown on it.
    for f in FIGURES {
        assert!(
            shown_figures.contains(&f.id),
            "{} is registered but no page shows it",
            f.id
        );
    }
}

/// The same numbers, compared field by field (a reason by its text, a number bit for bit).
fn assert_same(page: &str, a: &Readings, b: &Readings) {
    assert_eq!(a.numbers.len(), b.numbers.len(), "{page}");
    for (x, y) in a.numbers.iter().zip(&b.numbers) {
        assert_eq!(x.spec.id, y.spec.id, "{page}");
        assert_eq!(x.relation, y.relation, "{page}: {}", x.spec.id);
        match (&x.value, &y.value) {
            (Ok(u), Ok(v)) => assert_eq!(u.to_bits(), v.to_bits(), "{page}: {}", x.spec.id),
            (Err(u), Err(v)) => assert_eq!(u.to_string(), v.to_string(), "{page}: {}", x.spec.id),
            (u, v) => panic!("{page}: {}: {u:?} against {v:?}", x.spec.id),
        }
    }
    let notes = |r: &Readings| -> Vec<(&str, Option<String>)> {
        r.notes.iter().map(|(s, t)| (s.id, t.clone())).collect()
    };
    assert_eq!(notes(a), notes(b), "{page}");
    let tables = |r: &Readings| -> Vec<(&str, Result<Vec<TableRow>, amp_model::ModelError>)> {
        r.tables.iter().map(|(s, t)| (s.id, t.clone())).collect()
    };
    assert_eq!(tables(a), tables(b), "{page}");
}

/// The numbers carried in a pre-rendered page come back as they were computed, on every page, at
/// the defaults (what the documents carry) and at settings where numbers are missing.
#[test]
fn carried_readings_come_back_exactly() {
    let mut settings = vec![ParamValues::default()];
    // Settings outside the usual: numbers unavailable, warnings with several lines.
    let mut odd = ParamValues::default();
    for (name, value) in [
        ("eps", "40"),
        ("p", "1"),
        ("sigma", "0.3"),
        ("epochs", "400"),
        ("n", "2"),
    ] {
        if let Some(spec) = by_name(name) {
            if let Ok(v) = spec.parse(value) {
                let _ = odd.set(spec, v);
            }
        }
    }
    settings.push(odd);
    let mut errors = 0;
    for page in Page::ALL {
        let spec = page.spec();
        for values in &settings {
            let r = (spec.readouts)(values, Precision::Fine);
            errors += r.numbers.iter().filter(|x| x.value.is_err()).count();
            let text = spec.carry(&r);
            let back = spec
                .adopt(&text)
                .unwrap_or_else(|| panic!("{}: not read back from {text}", spec.id));
            assert_same(spec.id, &r, &back);
            assert_eq!(spec.carry(&back), text, "{}", spec.id);
        }
    }
    assert!(errors > 0, "no unavailable number was carried");
}

/// Text that needs escaping survives; text that is not a page's numbers is refused.
#[test]
fn carried_readings_escape_and_refuse() {
    use amp_site::pages::training::{SAMPLERS, TIGHT, WARNINGS};
    let spec = Page::Training.spec();
    let mut r = Readings::default();
    r.push(&TIGHT, Ok(0.1 + 0.2), amp_math::Relation::ZeroOut);
    r.note(
        &WARNINGS,
        Some("one\ttab\there\nsecond line \\ end\\".to_string()),
    );
    r.note(&SAMPLERS, None);
    let text = spec.carry(&r);
    let back = spec.adopt(&text).expect("read back");
    assert_same("training", &r, &back);
    assert_eq!(back.text(&WARNINGS), r.text(&WARNINGS));
    assert!(back.text(&WARNINGS).unwrap().contains('\t'));
    // Another page's text, a bad number or relation, an unknown record, a row without its
    // table, a field too many: refused.
    assert!(Page::Risk.spec().adopt(&text).is_none());
    for bad in [
        text.replace("batching-shape\t-", "batching-shape\t-\tmore"),
        text.replace("zero-out", "nearby"),
        text.replace("0.30000000000000004", "0.3x"),
        text.replace("\ns\t", "\nq\t"),
        format!("{text}\nr\ta\tb\tc\t1\t1\tshown"),
        String::new(),
    ] {
        assert!(spec.adopt(&bad).is_none(), "accepted {bad:?}");
    }
}

/// The accuracy page's no-gain threshold is q·V_N (Hu, Drechsler & Kim, "Accuracy gains from
/// privacy amplification through sampling for differential privacy", Section 4.1 and its summary
/// table), and it is necessary: wherever the sampling variance reaches it, the sample mean's
/// variance is no smaller than the population mean's. Checked over a grid of the page's settings.
#[test]
fn the_no_gain_threshold_is_q_times_v_n_and_necessary() {
    use amp_site::pages::accuracy::{
        MEAN_RATIO, NO_GAIN, POPULATION_NOISE, Q_VALUE, SAMPLING_VARIANCE,
    };
    let set = |v: &mut ParamValues, name: &str, text: &str| {
        let spec = by_name(name).unwrap();
        v.set(spec, spec.parse(text).unwrap()).unwrap();
    };
    let mut checked = 0;
    for eps in ["0.01", "0.1", "1", "3"] {
        for rate in ["0.01", "0.1", "0.5", "0.9"] {
            for s2 in ["0.0001", "0.01", "1"] {
                let mut v = ParamValues::default();
                set(&mut v, "eps", eps);
                set(&mut v, "rate", rate);
                set(&mut v, "pop-variance", s2);
                let r = (Page::Accuracy.spec().readouts)(&v, Precision::Fine);
                let num = |s| r.number(s).unwrap();
                let (eps, range, n) = (
                    v.real(amp_model::param::EPS),
                    v.real(amp_model::param::RANGE),
                    v.count(amp_model::param::POPULATION_SIZE) as f64,
                );
                let v_pop = 2.0 * (range / (eps * n)).powi(2);
                assert!(
                    (num(&POPULATION_NOISE) - v_pop).abs() <= 1e-13 * v_pop,
                    "V_N at ε {eps}"
                );
                let threshold = num(&NO_GAIN);
                assert!(
                    (threshold - num(&Q_VALUE) * v_pop).abs() <= 1e-12 * threshold,
                    "ε {eps}, rate {rate}: {threshold}"
                );
                if num(&SAMPLING_VARIANCE) >= threshold {
                    assert!(num(&MEAN_RATIO) >= 1.0, "ε {eps}, rate {rate}, S² {s2}");
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 48);
}

/// "V_N at ε = 0.1 is 900 times V_N at ε = 3" (Hu, Drechsler & Kim, Section 4.1), read off the V_N
/// readout.
#[test]
fn the_population_noise_variance_at_eps_0_1_is_900_times_that_at_eps_3() {
    use amp_site::pages::accuracy::POPULATION_NOISE;
    let at = |eps: &str| {
        let mut v = ParamValues::default();
        let spec = by_name("eps").unwrap();
        v.set(spec, spec.parse(eps).unwrap()).unwrap();
        (Page::Accuracy.spec().readouts)(&v, Precision::Fine)
            .number(&POPULATION_NOISE)
            .unwrap()
    };
    let ratio = at("0.1") / at("3");
    assert!((ratio - 900.0).abs() < 1e-9, "{ratio}");
}

/// The iteration page's records per step b (Brown's Algorithm 1, n = T·b): one record moves a
/// step by 2L/b, so only σ·b matters. b = 10 with σ = 1 gives the numbers of b = 1 with σ = 10,
/// and more records per step never cost a record more.
#[test]
fn records_per_step_divide_the_sensitivity_on_the_iteration_page() {
    use amp_site::pages::iteration::{FIRST, MIDDLE, PLAIN};
    let at = |b: &str, sigma: &str| {
        let mut v = ParamValues::default();
        for (name, text) in [("step-batch", b), ("sigma", sigma), ("iterations", "1000")] {
            let spec = by_name(name).unwrap();
            v.set(spec, spec.parse(text).unwrap()).unwrap();
        }
        let r = (Page::Iteration.spec().readouts)(&v, Precision::Fine);
        [&FIRST, &MIDDLE, &PLAIN].map(|s| r.number(s).unwrap())
    };
    let (batched, noisier, single) = (at("10", "1"), at("1", "10"), at("1", "1"));
    for k in 0..3 {
        assert!(
            (batched[k] - noisier[k]).abs() <= 1e-12 * noisier[k],
            "{batched:?} {noisier:?}"
        );
        assert!(batched[k] < single[k], "{batched:?} {single:?}");
    }
}

/// The subsampling page's sample size: Bin(n, p) under Poisson sampling (Steinke, part 1), exactly
/// m for the fixed-size schemes; and the limits page's computation, steps × B gradient
/// evaluations, for the reader's run and for the ε ≤ c·p regime.
#[test]
fn sample_sizes_and_gradient_evaluations_follow_their_definitions() {
    use amp_site::pages::limits::{
        PROPORTIONAL_GRADIENTS, PROPORTIONAL_STEPS, REGIME_GRADIENTS, REGIME_STEPS,
    };
    use amp_site::pages::subsampling::{SAMPLE_SIZE, SAMPLE_SIZE_SD};
    let values = |pairs: &[(&str, &str)]| {
        let mut v = ParamValues::default();
        for (name, text) in pairs {
            let spec = by_name(name).unwrap();
            v.set(spec, spec.parse(text).unwrap()).unwrap();
        }
        v
    };
    let sub = |pairs: &[(&str, &str)]| {
        let r = (Page::Subsampling.spec().readouts)(&values(pairs), Precision::Fine);
        (
            r.number(&SAMPLE_SIZE).unwrap(),
            r.number(&SAMPLE_SIZE_SD).unwrap(),
        )
    };
    let (mean, sd) = sub(&[("scheme", "poisson"), ("p", "0.01"), ("dataset", "60000")]);
    assert!((mean - 600.0).abs() < 1e-9, "{mean}");
    assert!(
        (sd - (60_000.0f64 * 0.01 * 0.99).sqrt()).abs() < 1e-9,
        "{sd}"
    );
    for scheme in ["without-replacement", "with-replacement"] {
        let (mean, sd) = sub(&[("scheme", scheme), ("m", "300"), ("n", "50000")]);
        assert_eq!((mean, sd), (300.0, 0.0), "{scheme}");
    }

    let v = values(&[
        ("dataset", "60000"),
        ("batch", "600"),
        ("epochs", "3"),
        ("total-eps", "2"),
        ("c", "1.5"),
    ]);
    let r = (Page::Limits.spec().readouts)(&v, Precision::Fine);
    let num = |s| r.number(s).unwrap();
    // 3 epochs at p = 0.01 is 300 steps of 600 gradients: 180,000 = 3 × 60,000.
    assert_eq!(num(&REGIME_STEPS), 300.0);
    assert_eq!(num(&REGIME_GRADIENTS), 180_000.0);
    assert_eq!(
        num(&PROPORTIONAL_GRADIENTS),
        num(&PROPORTIONAL_STEPS) * 600.0
    );
    // ε*²·|x|²/(c²·B), up to the rounding of the steps to a whole number.
    let closed = 4.0 * 60_000.0f64.powi(2) / (1.5f64.powi(2) * 600.0);
    let got = num(&PROPORTIONAL_GRADIENTS);
    assert!(
        got >= closed * (1.0 - 1e-12) && got <= closed + 600.0,
        "{got} vs {closed}"
    );
}

/// The subsampling page's live example of unequal chances: a group kept at 2p makes every record's
/// guarantee the one at 2p (Steinke, part 1: p = maxᵢ P[xᵢ ∈ S]); only under Poisson sampling.
#[test]
fn the_unequal_chances_example_uses_the_largest_probability() {
    #![allow(clippy::disallowed_methods)] // std's functions are an independent check here
    use amp_site::pages::subsampling::UNEQUAL;
    let note = |pairs: &[(&str, &str)]| {
        let mut v = ParamValues::default();
        for (name, text) in pairs {
            let spec = by_name(name).unwrap();
            v.set(spec, spec.parse(text).unwrap()).unwrap();
        }
        let r = (Page::Subsampling.spec().readouts)(&v, Precision::Fine);
        r.notes
            .iter()
            .find(|(spec, _)| spec.id == UNEQUAL.id)
            .and_then(|(_, text)| text.clone())
    };
    let text = note(&[("scheme", "poisson"), ("eps", "1"), ("p", "0.01")]).unwrap();
    // log(1 + 2p(e − 1)) at p = 0.01 and log(1 + p(e − 1)).
    let (heavy, light) = (
        (0.02 * (1f64.exp() - 1.0)).ln_1p(),
        (0.01 * (1f64.exp() - 1.0)).ln_1p(),
    );
    // Both numbers to four significant digits.
    let after = |key: &str| {
        let rest = text.split(key).nth(1).expect(key);
        let word: String = rest
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        word.parse::<f64>().unwrap()
    };
    assert!(
        (after("ε′ = ") / heavy - 1.0).abs() < 6e-4,
        "{text} ({heavy})"
    );
    assert!(
        (after("instead of ") / light - 1.0).abs() < 6e-4,
        "{text} ({light})"
    );
    assert!(note(&[("scheme", "poisson"), ("p", "0.6")]).is_none());
    assert!(note(&[("scheme", "without-replacement")]).is_none());
}
