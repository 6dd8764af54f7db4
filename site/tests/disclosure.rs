//! A readout about a run shape is shown only while the shape is in use ([`Group::shown_when`]):
//! at the defaults the training and risk pages show no group-privacy, micro-batch, cap or
//! tuning number (each would repeat ε or say nothing), and setting the shape brings its
//! readouts back. The readouts are computed either way (the CLI prints them).

use amp_model::params::ParamValues;
use amp_site::pages::Page;

const SHAPED: &[&str] = &[
    "group-lemma-epsilon",
    "micro-batch-epsilon",
    "cap-cut-probability",
    "capped-rate",
    "tuned-epsilon",
    "tuned-composed-epsilon",
    "tuned-tpr-at-fpr",
];

fn with(pairs: &[(&str, &str)]) -> ParamValues {
    let mut v = ParamValues::default();
    for (k, x) in pairs {
        let spec = amp_model::param::by_name(k).unwrap();
        v.set(spec, spec.parse(x).unwrap()).unwrap();
    }
    v
}

#[test]
fn the_defaults_show_no_number_of_a_shape_not_in_use() {
    let shown = Page::Training
        .spec()
        .shown_readouts(&ParamValues::default());
    for id in SHAPED {
        assert!(!shown.contains(id), "{id} shown at the defaults");
    }
    assert!(shown.contains(&"tight-epsilon") && shown.contains(&"library-opacus-prv"));
    let risk = Page::Risk.spec().shown_readouts(&ParamValues::default());
    assert!(!risk.contains(&"risk-tuned-epsilon"), "{risk:?}");
}

#[test]
fn setting_a_shape_shows_its_numbers() {
    let shown = |pairs: &[(&str, &str)]| Page::Training.spec().shown_readouts(&with(pairs));
    assert!(shown(&[("records-per-user", "4")]).contains(&"group-lemma-epsilon"));
    assert!(shown(&[("accumulation-steps", "8")]).contains(&"micro-batch-epsilon"));
    let capped = shown(&[("max-batch", "300")]);
    assert!(capped.contains(&"cap-cut-probability") && capped.contains(&"capped-rate"));
    let searched = shown(&[("tuning-runs", "20")]);
    for id in [
        "tuned-epsilon",
        "tuned-composed-epsilon",
        "tuned-tpr-at-fpr",
    ] {
        assert!(searched.contains(&id), "{id}");
    }
    let risk = Page::Risk
        .spec()
        .shown_readouts(&with(&[("tuning-runs", "20")]));
    assert!(risk.contains(&"risk-tuned-epsilon"), "{risk:?}");
}

#[test]
fn a_group_whose_numbers_are_all_hidden_loses_its_heading_too() {
    use amp_site::pages::View;
    use amp_site::prerender::{body, root_of};
    let view = View::Page(Page::Training);
    let html = body(view, &root_of(view));
    // The readouts' heading, not the controls' (an h2).
    assert!(!html.contains("<h3>Hyperparameter tuning</h3>"));
    assert!(html.contains("<h3>What each library reports</h3>"));
}
