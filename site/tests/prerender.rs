//! The pre-rendered site (`amp_site::prerender`): every view's document is complete and well
//! formed, and every page's prose exists and is used.

use amp_site::figures::FIGURES;
use amp_site::pages::{Page, Section, View};
use amp_site::prerender::{body, document, root_of, site, views};
use amp_site::prose::{prose_html, PROSE};

const TEMPLATE: &str = r#"<!DOCTYPE html>
<html lang="en">
<head>
  <meta name="description" content="x">
  <title>x</title>
  <link rel="stylesheet" href="./main.css"/>
  <script src="./early.js"></script>
</head>
<body></body>
</html>"#;

#[test]
fn every_view_has_a_document_at_its_path_and_the_prose_file() {
    let docs = site(TEMPLATE).unwrap();
    assert_eq!(docs.len(), Page::ALL.len() + FIGURES.len() + 1);
    assert_eq!(docs[0].path, "index.html");
    assert!(docs.iter().any(|d| d.path == "training/index.html"));
    assert!(docs
        .iter()
        .any(|d| d.path == "embed/sample-budget/index.html"));
    let content = docs.iter().find(|d| d.path == "content.json").unwrap();
    let parsed: serde_json::Value = serde_json::from_str(&content.html).unwrap();
    for (name, html) in PROSE {
        assert_eq!(parsed[name].as_str(), Some(html), "{name}");
    }
}

#[test]
fn a_documents_assets_and_links_are_relative_to_its_depth() {
    let training = document(View::Page(Page::Training), TEMPLATE).unwrap();
    assert!(training.contains(r#"href="../main.css""#));
    assert!(training.contains(r#"src="../early.js""#));
    assert!(training.contains(r#"data-root="../" data-view="training""#));
    assert!(training.contains(
        "<title>Training with DP-SGD: the tight number · Amplification Explorer</title>"
    ));
    assert!(
        training.contains(r#"<a href="../risk/" data-page="risk">"#),
        "prose links"
    );
    assert!(training.contains(r#"href="../" data-testid="nav-home""#));
    let embed = document(View::Embed(&FIGURES[0]), TEMPLATE).unwrap();
    assert!(embed.contains(r#"href="../../main.css""#));
    assert_eq!(root_of(View::Page(Page::Home)), "");
}

#[test]
fn every_body_parses_and_holds_its_prose_controls_numbers_and_figures() {
    for view in views() {
        let html = body(view, &root_of(view));
        // Well formed: parsed as XML once the void elements are closed.
        let xml = format!(
            "<body>{}</body>",
            html.replace("<br>", "<br/>")
                .replace(" disabled", " disabled=\"\"")
                .replace(" selected", " selected=\"\"")
                .replace(" readonly", " readonly=\"\"")
                .replace(" data-prerendered", " data-prerendered=\"\"")
                .replace("<noscript>", "<div>")
                .replace("</noscript>", "</div>")
        );
        let xml = close_inputs(&xml);
        let doc = roxmltree::Document::parse(&xml).unwrap_or_else(|e| panic!("{view:?}: {e}"));
        let count = |class: &str| {
            doc.descendants()
                .filter(|n| {
                    n.attribute("class")
                        .is_some_and(|c| c.split(' ').any(|x| x == class))
                })
                .count()
        };
        assert!(!html.contains("?page="), "{view:?}: an old-style link");
        assert!(html.contains("data-prerendered"), "{view:?}");
        match view {
            View::Page(p) => {
                let spec = p.spec();
                let prose = spec
                    .sections
                    .iter()
                    .filter(|s| matches!(s, Section::Prose(_)))
                    .count();
                assert_eq!(count("explain"), prose, "{view:?}");
                assert_eq!(count("static-plot"), p.figures().count(), "{view:?}");
                assert!(
                    html.contains(prose_html(spec.lede).unwrap().trim_end()),
                    "{view:?}"
                );
                // Every readout the page shows at the defaults, and none it hides there (a
                // readout of a run shape not in use).
                let shown = spec.shown_readouts(&amp_model::params::ParamValues::default());
                for r in spec.readout_specs() {
                    assert_eq!(
                        html.contains(&format!("data-testid=\"{}\"", r.id)),
                        shown.contains(&r.id),
                        "{view:?}: {}",
                        r.id
                    );
                }
            }
            View::Embed(f) => {
                assert_eq!(count("static-plot"), 1, "{view:?}");
                assert!(html.contains(&format!(
                    "<h1 class=\"figure-title\" id=\"title-{}\">",
                    f.id
                )));
            }
        }
    }
}

/// `<input …>` and `<option …>` are void or unclosed in HTML; close the inputs for the XML parser.
fn close_inputs(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("<input ") {
        out.push_str(&rest[..i]);
        let end = rest[i..].find('>').unwrap() + i;
        let tag = &rest[i..end];
        out.push_str(tag.trim_end_matches('/'));
        out.push_str("/>");
        rest = &rest[end + 1..];
    }
    out.push_str(rest);
    out
}

#[test]
fn every_declared_prose_exists_and_every_fragment_is_used() {
    let mut used = Vec::new();
    for p in Page::ALL {
        // The opening paragraph: plain text, one paragraph.
        let lede = prose_html(p.spec().lede).unwrap_or_else(|| panic!("{}: no lede", p.id()));
        assert!(!lede.trim().is_empty(), "{}: empty lede", p.id());
        assert!(
            !lede.trim_end().contains(['<', '&', '\n']),
            "{}: the lede is one paragraph of plain text",
            p.id()
        );
        used.push(p.spec().lede.0);
        for s in p.spec().sections {
            if let Section::Prose(prose) = s {
                assert!(prose_html(*prose).is_some(), "{}: {}", p.id(), prose.0);
                used.push(prose.0);
            }
        }
    }
    for (name, _) in PROSE {
        assert!(
            used.contains(&name),
            "content/{name}.html is used by no page"
        );
    }
}
