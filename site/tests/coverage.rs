//! The five source documents, item by item, against the app (issue 38): `docs/source-coverage.tsv`
//! lists every figure, table, theorem, worked example, numeric claim and teaching point of the
//! sources (Steinke's two DifferentialPrivacy.org posts, Hu, Drechsler & Kim, Wang's slides and
//! Brown's lecture notes), where the app has it and whether it is live (computed with the reader's
//! parameters) or only in the prose. This test reads the table and fails when an element it names
//! is not on the page it names: a figure the page does not list, a readout, sentence or table the
//! page does not compute, a widget it does not have, a prose fragment the page does not show, or a
//! phrase that is no longer in that fragment's text.

use amp_site::pages::{Page, Prose, Section};

const TABLE: &str = include_str!("../../docs/source-coverage.tsv");
const COLUMNS: [&str; 10] = [
    "id",
    "source",
    "location",
    "item",
    "kind",
    "page",
    "anchor",
    "status",
    "depends_on",
    "note",
];
const SOURCES: [&str; 5] = ["steinke1", "steinke2", "hdk", "wang", "brown"];
const KINDS: [&str; 7] = [
    "figure", "table", "theorem", "equation", "example", "number", "teaching",
];

/// The visible text of a prose fragment: tags dropped, white space collapsed.
fn visible_text(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => {
                in_tag = true;
                out.push(' ');
            }
            '>' => in_tag = false,
            _ if !in_tag => out.push(c),
            _ => {}
        }
    }
    let out = out
        .replace("&amp;", "&")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&nbsp;", " ");
    collapse(&out)
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The prose fragments a page shows: its opening paragraph and its prose sections.
fn fragments(page: Page) -> Vec<&'static str> {
    let spec = page.spec();
    let mut out = vec![spec.lede.0];
    for s in spec.sections {
        if let Section::Prose(Prose(name)) = s {
            out.push(name);
        }
    }
    out
}

/// Why `anchor` is not on `page`, if it is not.
fn missing_from(page: Page, anchor: &str) -> Option<String> {
    let spec = page.spec();
    let (kind, rest) = anchor.split_once(':')?;
    let found = match kind {
        "figure" => spec.figure_ids().iter().any(|f| f.as_str() == rest),
        "readout" => spec.computed_readouts().iter().any(|r| r.id == rest),
        "note" => spec.computed_notes().iter().any(|n| n.id == rest),
        "table" => spec.table_specs().iter().any(|t| t.id == rest),
        // A page's own component (its `Widget`, by name): the simulation's tables, the run file.
        "widget" => spec.widgets().any(|w| format!("{w:?}") == rest),
        "prose" => {
            let Some((fragment, phrase)) = rest.split_once(':') else {
                return Some(format!(
                    "{anchor}: a prose anchor is prose:<fragment>:<phrase>"
                ));
            };
            let Some(shown) = fragments(page).into_iter().find(|f| *f == fragment) else {
                return Some(format!("the page does not show the fragment {fragment}"));
            };
            let Some(html) = amp_site::prose::prose_html(Prose(shown)) else {
                return Some(format!("no fragment {fragment} in site/content/"));
            };
            let phrase = collapse(phrase);
            if phrase.split(' ').count() < 3 {
                return Some(format!("{anchor}: a phrase of at least 3 words"));
            }
            if !visible_text(html).contains(&phrase) {
                return Some(format!("“{phrase}” is not in the text of {fragment}"));
            }
            true
        }
        _ => return Some(format!("unknown anchor kind {kind}")),
    };
    (!found).then(|| format!("{anchor} is not on the page"))
}

#[test]
fn every_item_of_the_sources_is_where_the_table_says() {
    let mut lines = TABLE.lines();
    let header: Vec<&str> = lines.next().expect("a header").split('\t').collect();
    assert_eq!(header, COLUMNS, "the table's columns");
    let mut problems = Vec::new();
    let mut ids = Vec::new();
    let mut counts = [0usize; 4];
    for (n, line) in lines.enumerate() {
        let row = n + 2;
        let cols: Vec<&str> = line.split('\t').collect();
        if cols.len() != COLUMNS.len() {
            problems.push(format!("line {row}: {} columns", cols.len()));
            continue;
        }
        let [id, source, location, item, kind, page, anchor, status, depends_on, _note] = cols[..]
        else {
            unreachable!()
        };
        let at = format!("line {row} ({id})");
        if ids.contains(&id) {
            problems.push(format!("{at}: id given twice"));
        }
        ids.push(id);
        if !SOURCES.contains(&source) || !id.starts_with(&format!("{source}-")) {
            problems.push(format!("{at}: source {source}"));
        }
        if location.is_empty() || item.is_empty() {
            problems.push(format!("{at}: no location or item"));
        }
        if !KINDS.contains(&kind) {
            problems.push(format!("{at}: kind {kind}"));
        }
        let slot = ["live", "prose", "missing", "wrong"]
            .iter()
            .position(|s| *s == status);
        let Some(slot) = slot else {
            problems.push(format!("{at}: status {status}"));
            continue;
        };
        counts[slot] += 1;
        // A live item names the parameter it moves with (site/tests/coverage_live.rs changes it).
        // `name` or `name@k=v,…` (the parameter, moved from that setting instead of the defaults).
        let names_parameter =
            amp_model::param::by_name(depends_on.split('@').next().unwrap_or("")).is_some();
        if (status == "live") != names_parameter || (!names_parameter && depends_on != "-") {
            problems.push(format!(
                "{at}: depends_on {depends_on:?} for a {status} item"
            ));
        }
        if status == "missing" {
            continue;
        }
        let Some(p) = Page::ALL.into_iter().find(|p| p.id() == page) else {
            problems.push(format!("{at}: no page {page:?}"));
            continue;
        };
        // A live item moves with the reader's parameters: a figure, a number, a computed
        // sentence or table, not a phrase of the prose.
        if status == "live" && anchor.starts_with("prose:") {
            problems.push(format!("{at}: a live item anchored in the prose"));
        }
        if let Some(why) = missing_from(p, anchor) {
            problems.push(format!("{at}, page {page}: {why}"));
        }
    }
    eprintln!(
        "source coverage: {} items, {} live, {} prose only, {} missing, {} wrong",
        ids.len(),
        counts[0],
        counts[1],
        counts[2],
        counts[3]
    );
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    for source in SOURCES {
        assert!(
            ids.iter().any(|id| id.starts_with(&format!("{source}-"))),
            "no item of {source}"
        );
    }
}

#[test]
fn the_anchor_check_fails_where_it_should() {
    // The checker itself: each kind of anchor found where it is, refused where it is not.
    assert_eq!(
        missing_from(Page::Subsampling, "readout:epsilon-prime"),
        None
    );
    assert!(missing_from(Page::Limits, "readout:epsilon-prime").is_some());
    assert_eq!(
        missing_from(Page::Iteration, "figure:iteration-privacy-by-position"),
        None
    );
    assert!(missing_from(Page::Home, "figure:iteration-privacy-by-position").is_some());
    assert!(missing_from(Page::Home, "prose:home-lede:no such words anywhere here").is_some());
    assert!(missing_from(Page::Home, "prose:limits-mse:the mean squared error").is_some());
    assert!(missing_from(Page::Home, "widget:nothing").is_some());
    assert_eq!(missing_from(Page::Accuracy, "widget:TableOne"), None);
    assert!(missing_from(Page::Home, "widget:TableOne").is_some());
    assert!(missing_from(Page::Home, "gadget:TableOne").is_some());
    let lede = amp_site::prose::prose_html(Prose("home-lede")).expect("the home lede");
    let words: Vec<String> = visible_text(lede)
        .split(' ')
        .take(4)
        .map(str::to_string)
        .collect();
    assert_eq!(
        missing_from(Page::Home, &format!("prose:home-lede:{}", words.join(" "))),
        None
    );
}
