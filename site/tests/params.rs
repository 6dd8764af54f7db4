//! Parameter declarations and URL state: defaults valid, slider mapping, hostile query strings.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_model::param as p;
use amp_model::param::{by_name, PARAMS};
use amp_model::params::{ChoiceEnum, Domain, ParamSpec, ParamValues, Value};
use amp_site::pages::{
    page_links, params_query, parse_location, parse_query, percent_decode, to_query,
    view_from_path, view_path, Page, View,
};
use proptest::prelude::*;

#[test]
fn defaults_satisfy_their_own_domains() {
    for p in PARAMS {
        p.check(p.default)
            .unwrap_or_else(|e| panic!("{}: {e}", p.name));
        assert_eq!(
            p.parse(&p.format(p.default)).unwrap(),
            p.default,
            "{}",
            p.name
        );
        if let Domain::Real {
            min, max, slider, ..
        } = p.domain
        {
            assert!(min <= slider.0 && slider.1 <= max, "{}", p.name);
        }
    }
}

/// Every declared handle resolves by its name to its own declaration, names and aliases are
/// unique, and each choice parameter's options are exactly its enum's, first option the default.
#[test]
fn every_declared_name_resolves() {
    let declared = amp_model::param::declared();
    assert_eq!(declared.len(), PARAMS.len());
    let mut names: Vec<&str> = PARAMS
        .iter()
        .flat_map(|p| std::iter::once(p.name).chain(p.aliases.iter().copied()))
        .collect();
    let count = names.len();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), count, "a name or alias is declared twice");
    for (spec, options) in declared {
        assert_eq!(by_name(spec.name), Some(spec), "{}", spec.name);
        match (spec.domain, options) {
            (Domain::Choice(declared), Some(from_enum)) => {
                assert_eq!(declared, from_enum, "{}", spec.name);
                assert_eq!(spec.default, Value::Choice(0), "{}", spec.name);
            }
            (Domain::Choice(_), None) | (_, Some(_)) => {
                panic!("{}: handle kind and domain disagree", spec.name)
            }
            _ => {}
        }
    }
    assert_eq!(by_name("no-such-parameter"), None);
}

/// Each choice enum round-trips through its ids, and the math enums it reuses agree on the ids.
#[test]
fn choice_enums_round_trip_and_agree_with_the_math() {
    fn round_trip<T: ChoiceEnum>() {
        for (i, &o) in T::ALL.iter().enumerate() {
            assert_eq!(o.index(), i);
            assert_eq!(T::from_id(o.id()), Some(o));
            assert_eq!(T::CHOICES[i].id, o.id());
        }
        assert_eq!(T::from_id("nope"), None);
    }
    use amp_model::params::{Batching, Length, Mechanism, RandomizerKind, ShowNaive};
    round_trip::<amp_math::subsampling::Scheme>();
    round_trip::<amp_math::median_sim::Population>();
    round_trip::<amp_math::rdp::Bound>();
    round_trip::<amp_math::rdp::Conversion>();
    round_trip::<Mechanism>();
    round_trip::<ShowNaive>();
    round_trip::<Length>();
    round_trip::<Batching>();
    round_trip::<RandomizerKind>();
    for s in amp_math::subsampling::Scheme::ALL {
        assert_eq!(ChoiceEnum::id(s), s.id());
    }
    for s in amp_math::median_sim::Population::ALL {
        assert_eq!(ChoiceEnum::id(s), s.id());
    }
    for &b in <amp_math::rdp::Bound as ChoiceEnum>::ALL {
        assert_eq!(ChoiceEnum::id(b), b.id());
    }
    for &c in <amp_math::rdp::Conversion as ChoiceEnum>::ALL {
        assert_eq!(ChoiceEnum::id(c), c.id());
    }
    // A typed read gives the enum the text parsed to.
    let mut v = ParamValues::default();
    v.set_text(p::MECH.spec, "laplace").unwrap();
    assert_eq!(v.choice(p::MECH), Mechanism::Laplace);
    assert_eq!(p::MECH.spec.format(v.get(p::MECH.spec)), "laplace");
}

#[test]
fn slider_positions_map_to_valid_values_monotonically() {
    for p in PARAMS
        .iter()
        .filter(|p| !matches!(p.domain, Domain::Choice(_)))
    {
        let mut last = f64::NEG_INFINITY;
        for pos in 0..=ParamSpec::SLIDER_STEPS {
            let v = p.from_slider(pos).unwrap();
            p.check(v)
                .unwrap_or_else(|e| panic!("{} at {pos}: {e}", p.name));
            assert!(v.as_f64() >= last, "{} not monotone at {pos}", p.name);
            last = v.as_f64();
        }
        // The default's position maps back close to the default.
        let pos = p.to_slider(p.default).unwrap();
        let back = p.from_slider(pos).unwrap().as_f64();
        let d = p.default.as_f64();
        assert!(
            (back - d).abs() <= 0.05 * d.abs(),
            "{}: {d} → {pos} → {back}",
            p.name
        );
    }
}

#[test]
fn a_full_query_round_trips() {
    let mut v = ParamValues::default();
    v.set_text(p::EPS.spec, "0.25").unwrap();
    v.set_text(p::SCHEME.spec, "without-replacement").unwrap();
    v.set_text(p::M.spec, "1000").unwrap();
    v.set_text(p::N.spec, "50000").unwrap();
    v.set_text(p::DELTA.spec, "1e-9").unwrap();
    let q = to_query(View::Page(Page::Subsampling), &v);
    assert_eq!(
        q,
        "?page=subsampling&eps=0.25&delta=1e-9&scheme=without-replacement&p=0.01&m=1000&n=50000&dataset=60000&noise=laplace"
    );
    let s = parse_query(&q);
    assert_eq!(s.view, View::Page(Page::Subsampling));
    assert_eq!(s.values, v);
    assert!(s.notices.is_empty(), "{:?}", s.notices);
}

#[test]
fn hostile_queries_fall_back_per_value_with_a_notice() {
    let long = "9".repeat(10_000);
    let cases: Vec<(String, &str)> = vec![
        ("?page=subsampling&eps=NaN".into(), "eps"),
        ("?page=subsampling&eps=-1".into(), "eps"),
        ("?page=subsampling&eps=1e999".into(), "eps"),
        ("?page=subsampling&eps=".into(), "eps"),
        ("?page=subsampling&eps=abc".into(), "eps"),
        (format!("?page=subsampling&eps={long}"), "eps"),
        ("?page=subsampling&p=2".into(), "p"),
        ("?page=subsampling&delta=1".into(), "delta"),
        ("?page=subsampling&m=1.5".into(), "m"),
        ("?page=subsampling&scheme=%3Cscript%3E".into(), "scheme"),
    ];
    for (q, bad) in cases {
        let s = parse_query(&q);
        assert_eq!(s.view, View::Page(Page::Subsampling), "{q}");
        let spec = by_name(bad).unwrap();
        assert_eq!(s.values.get(spec), spec.default, "{q}");
        assert_eq!(s.notices.len(), 1, "{q}: {:?}", s.notices);
        assert!(s.notices[0].len() < 300, "notice too long for {q}");
    }
    // Good values next to bad ones are kept.
    let s = parse_query("?page=subsampling&eps=0.5&p=oops&delta=1e-7");
    assert_eq!(s.values.get(p::EPS.spec), Value::Real(0.5));
    assert_eq!(s.values.get(p::DELTA.spec), Value::Real(1e-7));
    assert_eq!(s.values.get(p::P.spec), Value::Real(0.01));
    // Repeated keys: the first wins; unknown keys: ignored; both reported.
    let s = parse_query("?page=subsampling&eps=0.5&eps=2&zzz=1");
    assert_eq!(s.values.get(p::EPS.spec), Value::Real(0.5));
    assert_eq!(s.notices.len(), 2, "{:?}", s.notices);
    // Unknown page: home, with a notice. Empty query: home, no notice.
    let s = parse_query("?page=nope");
    assert_eq!(s.view, View::Page(Page::Home));
    assert_eq!(s.notices.len(), 1);
    let s = parse_query("");
    assert_eq!(s.view, View::Page(Page::Home));
    assert!(s.notices.is_empty());
    // m > n without replacement: fine alone, not together.
    let s = parse_query("?page=subsampling&scheme=without-replacement&m=500&n=100");
    assert_eq!(s.values.count(p::M), 600);
    assert_eq!(s.values.count(p::N), 60_000);
    assert_eq!(s.notices.len(), 1);
    // A flood of junk produces a bounded list of notices.
    let junk: String = (0..5000).map(|i| format!("&k{i}=v")).collect();
    let s = parse_query(&junk);
    assert!(s.notices.len() <= 9);
}

#[test]
fn embed_selects_one_figure() {
    let s = parse_query("?embed=sample-budget&eps=2");
    match s.view {
        View::Embed(f) => assert_eq!(f.id, amp_site::figures::FigureId::SampleBudget),
        other => panic!("{other:?}"),
    }
    assert_eq!(s.values.get(p::EPS.spec), Value::Real(2.0));
}

#[test]
fn percent_decoding_never_panics_on_truncated_escapes() {
    assert_eq!(percent_decode("a%2"), "a%2");
    assert_eq!(percent_decode("%"), "%");
    assert_eq!(percent_decode("%zz"), "%zz");
    assert_eq!(percent_decode("%C3%A9"), "é");
    assert_eq!(percent_decode("%FF"), "\u{FFFD}");
}

proptest! {
    // Issue 8: at least 100,000 generated query strings.
    #![proptest_config(ProptestConfig::with_cases(100_000))]

    /// Arbitrary query strings: no panic, the state is always valid.
    #[test]
    fn arbitrary_queries_give_valid_state(q in "\\PC{0,200}") {
        let s = parse_query(&q);
        for p in PARAMS {
            prop_assert!(p.check(s.values.get(p)).is_ok());
        }
    }

    /// Queries built from every real key and arbitrary values: good values kept, bad ones
    /// reported.
    #[test]
    fn known_keys_with_arbitrary_values(
        key in prop::sample::select(PARAMS.iter().map(|p| p.name).collect::<Vec<_>>()),
        val in prop_oneof!["[-+0-9.eE]{0,12}", "\\PC{0,20}", Just("NaN".to_string()), Just("inf".to_string())],
    ) {
        let q = format!("?page=subsampling&{key}={}", amp_site::pages::percent_encode(&val));
        let s = parse_query(&q);
        let spec = by_name(key).unwrap();
        match spec.parse(&val) {
            Ok(v) => {
                // Valid alone; may still be rejected together with the defaults (m, n).
                if s.notices.is_empty() {
                    prop_assert_eq!(s.values.get(spec), v);
                }
            }
            Err(_) => {
                prop_assert_eq!(s.values.get(spec), spec.default);
                prop_assert_eq!(s.notices.len(), 1);
            }
        }
    }
}

#[test]
fn every_view_has_its_own_path_and_the_path_names_it_back() {
    let views = Page::ALL
        .into_iter()
        .map(View::Page)
        .chain(amp_site::figures::FIGURES.iter().map(View::Embed));
    let mut seen = std::collections::HashSet::new();
    for view in views {
        let path = view_path(view);
        assert!(seen.insert(path.clone()), "{path} twice");
        if view == View::Page(Page::Home) {
            assert_eq!(path, "");
            assert_eq!(view_from_path(&path), None);
        } else {
            assert!(path.ends_with('/'), "{path}");
            assert_eq!(view_from_path(&path), Some(view), "{path}");
            // Without the trailing slash, or with the document's name, it is the same view.
            assert_eq!(view_from_path(path.trim_end_matches('/')), Some(view));
            assert_eq!(view_from_path(&format!("{path}index.html")), Some(view));
        }
    }
    for junk in [
        "nowhere/",
        "embed/",
        "embed/nothing/",
        "training/extra/",
        "a/b/c/",
    ] {
        assert_eq!(view_from_path(junk), None, "{junk}");
    }
}

#[test]
fn an_address_is_the_views_path_then_its_parameters() {
    let mut v = ParamValues::default();
    v.set_text(p::EPS.spec, "0.25").unwrap();
    let view = View::Page(Page::Subsampling);
    let q = params_query(view, &v);
    assert_eq!(to_query(view, &v), format!("?page=subsampling&{}", &q[1..]));
    // The path names the view; the query holds only the parameters.
    let s = parse_location(&view_path(view), &q);
    assert_eq!((s.view, &s.values), (view, &v));
    assert!(s.notices.is_empty(), "{:?}", s.notices);
    // A path's view wins over an old link's `page=`; at the root, the query's view is used.
    assert_eq!(
        parse_location("limits/", "?page=renyi").view,
        View::Page(Page::Limits)
    );
    assert_eq!(
        parse_location("", "?page=renyi").view,
        View::Page(Page::Renyi)
    );
    assert_eq!(parse_location("", "").view, View::Page(Page::Home));
}

#[test]
fn prose_links_to_pages_point_at_the_pages_own_addresses() {
    let html = r#"<p><a href="?page=limits" data-page="limits">x</a> and <a href="?page=home" data-page="home">y</a>, <a href="https://x.org/?page=a">z</a></p>"#;
    assert_eq!(
        page_links(html, "../"),
        r#"<p><a href="../limits/" data-page="limits">x</a> and <a href="../" data-page="home">y</a>, <a href="https://x.org/?page=a">z</a></p>"#
    );
    // Every prose link in the pages names a page that exists.
    for page in Page::ALL {
        for s in page.spec().sections {
            if let amp_site::pages::Section::Prose(p) = s {
                let html = amp_site::prose::prose_html(*p).unwrap();
                for (i, _) in html.match_indices("href=\"?page=") {
                    let id = &html[i + "href=\"?page=".len()..];
                    let id = &id[..id.find('"').unwrap()];
                    assert!(Page::from_id(id).is_some(), "{} links to {id}", page.id());
                }
                assert!(!page_links(html, "./").contains("?page="));
            }
        }
    }
}

#[test]
fn the_name_map_keeps_one_value_per_name_in_name_order() {
    use amp_model::params::NameMap;
    let mut a = NameMap::new();
    assert!(a.is_empty());
    assert_eq!(a.insert("p", 1), None);
    assert_eq!(a.insert("eps", 2), None);
    assert_eq!(a.insert("sigma", 3), None);
    assert_eq!(a.insert("eps", 4), Some(2));
    assert_eq!(a.get("eps"), Some(&4));
    assert_eq!(a.get("delta"), None);
    let names: Vec<&str> = a.iter().map(|(k, _)| k).collect();
    assert_eq!(names, ["eps", "p", "sigma"]);
    // Equal contents are equal whatever the order they were put in.
    let mut b = NameMap::new();
    for (k, v) in [("sigma", 3), ("eps", 4), ("p", 1)] {
        b.insert(k, v);
    }
    assert_eq!(a, b);
    assert_eq!(a.remove("p"), Some(1));
    assert_eq!(a.remove("p"), None);
    assert_ne!(a, b);
    assert_eq!(a.iter().count(), 2);
}
