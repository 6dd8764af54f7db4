//! The coverage table's **live** items are live (issue 50): for every row of
//! `docs/source-coverage.tsv` whose status is `live`, its `depends_on` column names a parameter
//! the item depends on (`name`, or `name@k=v,…` to move it from that setting rather than from the
//! defaults: a Laplace item's scale at mech=laplace), and changing that parameter changes what the
//! anchor shows: the named
//! figure's data, the named readout's value, the named sentence, the named table's rows, or (the
//! live Table 1) the simulation's gain table. An anchor that merely exists, with a value that never
//! moves, fails here.
//!
//! `cargo test -p amp-site --test coverage_live -- --ignored --nocapture suggest` prints, for each
//! live row, every parameter that moves it (for filling the column in).
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use std::collections::HashMap;

use amp_math::median_sim::Simulation;
use amp_model::param::{self as p, by_name};
use amp_model::params::{Domain, ParamSpec, ParamValues, Value};
use amp_site::figures::FIGURES;
use amp_site::pages::{Page, Precision};

const TABLE: &str = include_str!("../../docs/source-coverage.tsv");

/// One live row: its id, page, anchor and the parameter it names.
struct Row {
    id: &'static str,
    page: Page,
    anchor: &'static str,
    depends_on: &'static str,
    /// The setting the parameter is moved from (`@k=v,…` after its name; empty: the defaults).
    at: Vec<(&'static str, &'static str)>,
}

fn live_rows() -> Vec<Row> {
    let mut lines = TABLE.lines();
    let header: Vec<&str> = lines.next().expect("a header").split('\t').collect();
    let col = |name: &str| {
        header
            .iter()
            .position(|h| *h == name)
            .unwrap_or_else(|| panic!("no column {name}"))
    };
    let (id, page, anchor, status, depends) = (
        col("id"),
        col("page"),
        col("anchor"),
        col("status"),
        col("depends_on"),
    );
    lines
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .filter(|c| c[status] == "live")
        .map(|c| Row {
            id: c[id],
            page: Page::ALL
                .into_iter()
                .find(|p| p.id() == c[page])
                .unwrap_or_else(|| panic!("{}: no page {}", c[id], c[page])),
            anchor: c[anchor],
            depends_on: c[depends].split('@').next().unwrap_or(""),
            at: c[depends]
                .split_once('@')
                .map(|(_, kv)| {
                    kv.split(',')
                        .map(|p| p.split_once('=').expect("k=v after @"))
                        .collect()
                })
                .unwrap_or_default(),
        })
        .collect()
}

/// The values every check starts from: the defaults, with the simulations at 40 runs so that the
/// simulated figures stay cheap (a simulation at 40 runs still moves with its inputs).
fn base() -> ParamValues {
    let mut v = ParamValues::default();
    v.set(p::RUNS.spec, Value::Count(40)).unwrap();
    v
}

/// [`base`] at a row's setting (`@k=v,…`).
fn base_at(at: &[(&str, &str)]) -> ParamValues {
    let mut v = base();
    for (k, x) in at {
        let spec = by_name(k).unwrap_or_else(|| panic!("no parameter {k}"));
        v.set(
            spec,
            spec.parse(x).unwrap_or_else(|e| panic!("{k}={x}: {e:?}")),
        )
        .unwrap_or_else(|e| panic!("{k}={x}: {e:?}"));
    }
    v
}

/// Other values of a parameter: every other option, or five points across its slider.
fn variants(spec: &'static ParamSpec, at: Value) -> Vec<Value> {
    let all: Vec<Value> = match spec.domain {
        Domain::Choice(options) => (0..options.len()).map(Value::Choice).collect(),
        _ => (0..=4)
            .filter_map(|i| spec.from_slider(i * ParamSpec::SLIDER_STEPS / 4))
            .collect(),
    };
    let mut out: Vec<Value> = all.into_iter().filter(|v| *v != at).collect();
    out.dedup();
    out
}

/// What a chart draws, without its words (summary, notes, labels): a caption that repeats a
/// parameter does not make a figure live.
fn chart_data(c: &amp_site::figures::Chart) -> String {
    let series: Vec<_> = c.series.iter().map(|s| &s.points).collect();
    let bands: Vec<_> = c.bands.iter().map(|b| &b.points).collect();
    let boxes: Vec<_> = c.boxes.iter().map(|b| (b.x, b.stats)).collect();
    let markers: Vec<_> = c.markers.iter().map(|m| (m.x, m.y)).collect();
    let heat = c
        .heatmap
        .as_ref()
        .map(|h| (&h.x_edges, &h.y_edges, &h.values));
    let lower = c.lower.as_deref().map(chart_data);
    format!("{series:?}{bands:?}{boxes:?}{markers:?}{heat:?}{lower:?}")
}

/// What the anchor shows at these values, as text to compare; `None` when it shows nothing (a
/// refusal, a pending or unavailable value, no sentence).
fn shown(page: Page, anchor: &str, values: &ParamValues) -> Option<String> {
    let (kind, name) = anchor.split_once(':').expect("kind:name");
    match kind {
        "figure" => {
            let f = FIGURES.iter().find(|f| f.id.as_str() == name)?;
            f.chart(values).ok().map(|c| chart_data(&c))
        }
        "widget" if name == "TableOne" => {
            let config = amp_model::accuracy::sim_config(values).ok()?;
            let mut sim = Simulation::new(config).ok()?;
            sim.run_to_end();
            Some(format!("{:?}", amp_model::accuracy::gain_table(&sim)))
        }
        _ => {
            let r = (page.spec().readouts)(values, Precision::Quick);
            match kind {
                "readout" => r
                    .numbers
                    .iter()
                    .find(|x| x.spec.id == name)
                    .and_then(|x| x.value.as_ref().ok())
                    .filter(|v| v.is_finite())
                    .map(|v| format!("{v:e}")),
                "note" => r
                    .notes
                    .iter()
                    .find(|(s, _)| s.id == name)
                    .and_then(|(_, t)| t.clone()),
                "table" => r
                    .tables
                    .iter()
                    .find(|(s, _)| s.id == name)
                    .and_then(|(_, t)| t.as_ref().ok())
                    .map(|rows| format!("{rows:?}")),
                _ => panic!("{anchor}: unknown anchor kind"),
            }
        }
    }
}

/// Memoised [`shown`] at the base values, per anchor.
struct Defaults(HashMap<String, Option<String>>);

impl Defaults {
    fn get(&mut self, page: Page, anchor: &str) -> Option<String> {
        self.0
            .entry(format!("{}/{anchor}", page.id()))
            .or_insert_with(|| shown(page, anchor, &base()))
            .clone()
    }
}

/// Whether some other value of `spec` changes what the anchor shows (to something shown).
fn moves(page: Page, anchor: &str, spec: &'static ParamSpec, at_base: &str) -> bool {
    moves_from(&base(), page, anchor, spec, at_base)
}

/// [`moves`] from the values `start`.
fn moves_from(
    start: &ParamValues,
    page: Page,
    anchor: &str,
    spec: &'static ParamSpec,
    at_base: &str,
) -> bool {
    variants(spec, start.get(spec)).into_iter().any(|v| {
        let mut values = start.clone();
        values.set(spec, v).is_ok() && shown(page, anchor, &values).is_some_and(|s| s != at_base)
    })
}

#[test]
fn every_live_item_moves_with_the_parameter_it_names() {
    let mut defaults = Defaults(HashMap::new());
    let mut problems = Vec::new();
    let rows = live_rows();
    assert!(rows.len() > 100, "only {} live rows", rows.len());
    for row in &rows {
        let Some(spec) = by_name(row.depends_on) else {
            problems.push(format!(
                "{}: depends_on {:?} is no parameter",
                row.id, row.depends_on
            ));
            continue;
        };
        let start = base_at(&row.at);
        let shown_at_start = if row.at.is_empty() {
            defaults.get(row.page, row.anchor)
        } else {
            shown(row.page, row.anchor, &start)
        };
        let Some(at_base) = shown_at_start else {
            problems.push(format!(
                "{}: {} shows nothing at its setting",
                row.id, row.anchor
            ));
            continue;
        };
        if !moves_from(&start, row.page, row.anchor, spec, &at_base) {
            problems.push(format!(
                "{}: {} does not move with {}",
                row.id, row.anchor, row.depends_on
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// The test's own check: an anchor that does not depend on a parameter is caught.
#[test]
fn an_item_that_does_not_move_is_caught() {
    let page = Page::Subsampling;
    let anchor = "readout:epsilon-prime";
    let at_base = shown(page, anchor, &base()).expect("ε′ at the defaults");
    // The median simulation's seed does not enter ε′.
    assert!(!moves(page, anchor, p::SEED.spec, &at_base));
    assert!(moves(page, anchor, p::EPS.spec, &at_base));
}

/// For filling in the column: every parameter of the page (and of the figure) that moves each live
/// row's anchor.
#[test]
#[ignore]
fn suggest() {
    let mut defaults = Defaults(HashMap::new());
    for row in live_rows() {
        let Some(at_base) = defaults.get(row.page, row.anchor) else {
            println!("{}\t-\t(shows nothing)", row.id);
            continue;
        };
        let mut candidates: Vec<&'static ParamSpec> = Vec::new();
        if let Some(("figure", name)) = row.anchor.split_once(':') {
            if let Some(f) = FIGURES.iter().find(|f| f.id.as_str() == name) {
                candidates.extend(f.params.iter().copied());
            }
        }
        for s in row.page.params() {
            if !candidates.iter().any(|c| c.name == s.name) {
                candidates.push(s);
            }
        }
        let moving: Vec<&str> = candidates
            .into_iter()
            .filter(|s| moves(row.page, row.anchor, s, &at_base))
            .map(|s| s.name)
            .collect();
        println!("{}\t{}\t{}", row.id, row.depends_on, moving.join(","));
    }
}
