//! Random allocation on the training page (`batching=allocation`): each example in exactly
//! k = round(T·B/|x|) of the run's T steps. Its readouts are the math crate's
//! [`Event::Allocation`] band (what `amplify account --batching allocation` prints), k = 1 is one
//! epoch of balls in bins, and the corners are refused with a sentence.

use amp_math::accounting::{Accountant, EpochSettings, Event};
use amp_math::rdp::Mechanism;
use amp_model::batching::{self, FINE_LOG_STEP};
use amp_model::params::{Batching, ParamValues};
use amp_model::training::{accountant, setting, FINE};
use amp_site::pages::training::{
    EPS_ALLOC, EPS_ALLOC_LOWER, EPS_BNB, EPS_BNB_LOWER, RUN_TPR, STATEMENT,
};
use amp_site::pages::{Page, Precision};

fn values(pairs: &[(&str, &str)]) -> ParamValues {
    let mut v = ParamValues::default();
    for (k, x) in pairs {
        let spec = amp_model::param::by_name(k).unwrap();
        v.set(spec, spec.parse(x).unwrap()).unwrap();
    }
    v
}

fn run(steps: u64, extra: &[(&str, &str)]) -> ParamValues {
    let steps = steps.to_string();
    let mut pairs = vec![
        ("mech", "gaussian"),
        ("dataset", "60000"),
        ("batch", "256"),
        ("length", "steps"),
        ("steps", steps.as_str()),
        ("sigma", "1"),
        ("delta", "1e-5"),
        ("batching", "allocation"),
    ];
    pairs.extend_from_slice(extra);
    values(&pairs)
}

#[test]
fn the_page_reads_the_allocation_event_of_its_run() {
    let v = run(703, &[]);
    let t = setting(&v).unwrap();
    // 703 steps of 256 from 60,000: 2.9995 epochs, so each example is in k = 3 steps.
    assert_eq!(t.first().participations(), 3);
    let event = Event::Allocation {
        mechanism: Mechanism::Gaussian { sigma: 1.0 },
        steps: 703,
        participations: 3,
    };
    assert_eq!(t.event(Some(Batching::Allocation)), event);
    let acc = accountant(FINE, EpochSettings::FINE);
    let theirs = acc.epsilon(&event, 1e-5).unwrap();
    let r = (Page::Training.spec().readouts)(&v, Precision::Fine);
    assert_eq!(
        r.number(&EPS_ALLOC).unwrap().to_bits(),
        theirs.upper.to_bits()
    );
    assert_eq!(
        r.number(&EPS_ALLOC_LOWER).unwrap().to_bits(),
        theirs.lower.unwrap().to_bits()
    );
    let (up, lo) = (theirs.upper, theirs.lower.unwrap());
    assert!(0.0 < lo && lo < up && up < 1.0, "{lo}..{up}");
    // The statement quotes the loop's own band and says how it was obtained.
    let text = r.text(&STATEMENT).unwrap();
    assert!(
        text.contains("exactly 3 of the 703 steps") && text.contains("Feldman & Shenfeld"),
        "{text}"
    );
    assert!(r.number(&RUN_TPR).is_ok());
    // Rounding the epochs: 1,000 steps are 4.27 epochs, so k = 4 (batches of 240 on average).
    assert_eq!(
        setting(&run(1000, &[])).unwrap().first().participations(),
        4
    );
}

#[test]
fn one_participation_is_one_epoch_of_balls_in_bins() {
    // T = 234 steps of 256 from 60,000 (one epoch, T = round(|x|/B)): k = 1.
    let v = run(234, &[]);
    let r = (Page::Training.spec().readouts)(&v, Precision::Fine);
    let (a, b) = (r.number(&EPS_ALLOC).unwrap(), r.number(&EPS_BNB).unwrap());
    assert!((a - b).abs() <= 1e-12 * b, "{a} vs {b}");
    let (a, b) = (
        r.number(&EPS_ALLOC_LOWER).unwrap(),
        r.number(&EPS_BNB_LOWER).unwrap(),
    );
    assert!((a - b).abs() <= 1e-12 * b, "{a} vs {b}");
    // And the band the CLI's `account --batching` path reads is the same.
    let t = setting(&v).unwrap();
    let band = batching::band_for(Batching::Allocation, &t, FINE, FINE_LOG_STEP, false).unwrap();
    assert_eq!(
        band.upper.to_bits(),
        r.number(&EPS_ALLOC).unwrap().to_bits()
    );
}

#[test]
fn corners_are_refused_with_a_sentence() {
    for (extra, says) in [
        (("phases", "2"), "one phase"),
        (("records-per-user", "4"), "only Poisson batches"),
        (("max-batch", "300"), "only Poisson batches"),
        (("mech", "laplace"), "Gaussian"),
    ] {
        let v = run(703, &[extra]);
        let r = (Page::Training.spec().readouts)(&v, Precision::Quick);
        let e = r.number(&EPS_ALLOC).expect_err(extra.0).to_string();
        assert!(e.contains(says), "{extra:?}: {e}");
    }
    // A run file has no allocation phase: the download says why.
    let e = setting(&run(703, &[]))
        .unwrap()
        .run()
        .expect_err("run file");
    assert!(
        e.to_string()
            .contains("amplify account --batching allocation"),
        "{e}"
    );
}
