//! Pages as data: every declaration resolves, every declared number and sentence is produced by the
//! page's one readouts function, and ids are unique across pages.
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here

use amp_plots::figures::{FigureId, FIGURES};
use amp_plots::pages::{Page, Precision};
use amp_plots::params::{by_name, ParamValues};

#[test]
fn every_page_declaration_resolves() {
    let values = ParamValues::default();
    let mut readout_ids: Vec<&str> = Vec::new();
    let mut shown_figures: Vec<FigureId> = Vec::new();
    for page in Page::ALL {
        let spec = page.spec();
        assert_eq!(Page::from_id(spec.id), Some(page));
        assert!(
            !spec.heading.is_empty() && !spec.lede.is_empty(),
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
            // Nothing computed that the page does not show.
            for x in &r.numbers {
                assert!(
                    spec.readout_specs().iter().any(|d| d.id == x.spec.id)
                        || spec.widgets().next().is_some(),
                    "{}: {} computed but not declared",
                    spec.id,
                    x.spec.id
                );
            }
            readout_ids.extend(r.numbers.iter().map(|x| x.spec.id));
            readout_ids.extend(r.notes.iter().map(|(s, _)| s.id));
        }
        // A page shows only its own figures (a figure reads only controls its page has).
        for id in spec.figure_ids() {
            let f = id.spec();
            assert_eq!(
                f.page, page,
                "{} shows {}, declared on {:?}",
                spec.id, id, f.page
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
            "{} is registered on {:?} but not shown there",
            f.id,
            f.page
        );
    }
}
