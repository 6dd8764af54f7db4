//! "What each library reports" on the training page against the libraries themselves: for every
//! run of `math/tests/data/libraries_explain.csv` (written by
//! `tools/external/libraries_explain.py` from Opacus 1.6.0, TensorFlow Privacy 0.9.0,
//! dp_accounting 0.6.0), the page's readouts set from |x|, B, σ, the epochs and δ as a reader
//! types them predict what each library printed: the RDP and Gaussian accountants and
//! `compute_dp_sgd_privacy` to 1e-6 relative, Opacus's default PRV accountant to 1e-3 and
//! dp_accounting's PLD to 0.2%.

use amp_model::params::ParamValues;
use amp_site::pages::training::{
    LIBRARY_CAUSES, LIB_DPACC_PLD, LIB_DPACC_RDP, LIB_OPACUS_GDP, LIB_OPACUS_PRV, LIB_OPACUS_RDP,
    LIB_TF_PRIVACY,
};
use amp_site::pages::{Page, Precision};

const TABLE: &str = include_str!("../../math/tests/data/libraries_explain.csv");

fn values(pairs: &[(&str, String)]) -> ParamValues {
    let mut v = ParamValues::default();
    for (k, x) in pairs {
        let spec = amp_model::param::by_name(k).unwrap();
        v.set(spec, spec.parse(x).unwrap()).unwrap();
    }
    v
}

#[test]
fn the_page_predicts_what_each_library_printed() {
    let mut lines = TABLE.lines().filter(|l| !l.starts_with('#'));
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let mut failures = Vec::new();
    let mut checked = 0;
    for line in lines {
        let f: Vec<&str> = line.split(',').collect();
        let num = |name: &str| -> f64 { f[col(name)].parse().unwrap() };
        let v = values(&[
            ("mech", "gaussian".into()),
            ("dataset", f[col("n")].into()),
            ("batch", f[col("batch")].into()),
            ("sigma", f[col("sigma")].into()),
            ("length", "epochs".into()),
            ("epochs", f[col("epochs")].into()),
            ("delta", f[col("delta")].into()),
        ]);
        let r = (Page::Training.spec().readouts)(&v, Precision::Fine);
        for (spec, theirs, tol) in [
            (&LIB_OPACUS_RDP, num("opacus_rdp"), 1e-6),
            (&LIB_OPACUS_GDP, num("opacus_gdp"), 1e-6),
            (&LIB_DPACC_RDP, num("dpacc_rdp"), 1e-6),
            (&LIB_TF_PRIVACY, num("tfp_eps"), 1e-6),
            (&LIB_OPACUS_PRV, num("opacus_prv"), 1e-3),
            (&LIB_DPACC_PLD, num("dpacc_pld"), 2e-3),
        ] {
            let ours = r.number(spec).unwrap_or(f64::NAN);
            // (NaN, a missing number, fails too.)
            let within = ((ours - theirs) / theirs).abs() <= tol;
            if !within {
                failures.push(format!("{line}: {} {ours} against {theirs}", spec.id));
            }
            checked += 1;
        }
        let causes = r.text(&LIBRARY_CAUSES).unwrap_or_default();
        assert_eq!(causes.lines().count(), 7, "{causes}");
    }
    assert!(checked >= 120, "{checked}");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn a_run_the_libraries_cannot_take_says_why() {
    let v = values(&[("records-per-user", "4".into())]);
    let r = (Page::Training.spec().readouts)(&v, Precision::Quick);
    assert!(r.number(&LIB_OPACUS_RDP).is_err());
    let v = values(&[("mech", "laplace".into())]);
    let r = (Page::Training.spec().readouts)(&v, Precision::Quick);
    assert!(r.number(&LIB_TF_PRIVACY).is_err());
}

#[test]
fn a_shuffling_loop_is_told_how_far_off_the_poisson_numbers_are() {
    use amp_site::pages::training::EPS_SHUFFLE_LOWER;
    let v = values(&[
        ("mech", "gaussian".into()),
        ("dataset", "60000".into()),
        ("batch", "256".into()),
        ("sigma", "1.1".into()),
        ("epochs", "15".into()),
        ("delta", "1e-5".into()),
        ("batching", "shuffle".into()),
    ]);
    let r = (Page::Training.spec().readouts)(&v, Precision::Quick);
    let last = r
        .text(&LIBRARY_CAUSES)
        .unwrap()
        .lines()
        .last()
        .unwrap()
        .to_string();
    let lower = r.number(&EPS_SHUFFLE_LOWER).unwrap();
    let prv = r.number(&LIB_OPACUS_PRV).unwrap();
    // Shuffled batches at σ = 1.1 cost far more than Poisson ones (ε ≥ 6 against 1.14).
    assert!(lower > 4.0 * prv, "{lower} {prv}");
    assert!(last.contains("understates it by at least"), "{last}");
    assert!(
        last.contains(&amp_format::short_number(lower, 4)),
        "{last} {lower}"
    );
}
