//! The pages' prose (`content/*.html`: HTML fragments with MathML, ours only), by the name a page
//! declares it under ([`crate::pages::Prose`]). Behind the feature `prose`: the CLI writes it into
//! the pre-rendered pages and into `content.json`, from which the web app reads it, so the wasm
//! does not carry it.

use crate::format::json_string;
use crate::pages::Prose;

/// Every fragment in `content/`, by name.
pub const PROSE: [(&str, &str); 38] = [
    ("home-path", include_str!("../content/home-path.html")),
    (
        "subsampling-why",
        include_str!("../content/subsampling-why.html"),
    ),
    (
        "subsampling-proofs",
        include_str!("../content/subsampling-proofs.html"),
    ),
    (
        "accuracy-lede",
        include_str!("../content/accuracy-lede.html"),
    ),
    ("home-lede", include_str!("../content/home-lede.html")),
    (
        "iteration-lede",
        include_str!("../content/iteration-lede.html"),
    ),
    ("limits-lede", include_str!("../content/limits-lede.html")),
    ("renyi-lede", include_str!("../content/renyi-lede.html")),
    ("risk-lede", include_str!("../content/risk-lede.html")),
    (
        "shuffling-lede",
        include_str!("../content/shuffling-lede.html"),
    ),
    (
        "subsampling-lede",
        include_str!("../content/subsampling-lede.html"),
    ),
    (
        "training-lede",
        include_str!("../content/training-lede.html"),
    ),
    (
        "accuracy-budget",
        include_str!("../content/accuracy-budget.html"),
    ),
    (
        "accuracy-mean",
        include_str!("../content/accuracy-mean.html"),
    ),
    (
        "accuracy-median",
        include_str!("../content/accuracy-median.html"),
    ),
    ("home-next", include_str!("../content/home-next.html")),
    (
        "iteration-bound",
        include_str!("../content/iteration-bound.html"),
    ),
    (
        "iteration-intro",
        include_str!("../content/iteration-intro.html"),
    ),
    (
        "iteration-summary",
        include_str!("../content/iteration-summary.html"),
    ),
    (
        "limits-mechanisms",
        include_str!("../content/limits-mechanisms.html"),
    ),
    ("limits-mse", include_str!("../content/limits-mse.html")),
    (
        "limits-regime",
        include_str!("../content/limits-regime.html"),
    ),
    (
        "limits-taylor",
        include_str!("../content/limits-taylor.html"),
    ),
    (
        "renyi-composition",
        include_str!("../content/renyi-composition.html"),
    ),
    ("renyi-intro", include_str!("../content/renyi-intro.html")),
    (
        "renyi-subsampling",
        include_str!("../content/renyi-subsampling.html"),
    ),
    (
        "risk-calibration",
        include_str!("../content/risk-calibration.html"),
    ),
    ("risk-intro", include_str!("../content/risk-intro.html")),
    (
        "risk-summaries",
        include_str!("../content/risk-summaries.html"),
    ),
    (
        "shuffling-bounds",
        include_str!("../content/shuffling-bounds.html"),
    ),
    (
        "shuffling-error",
        include_str!("../content/shuffling-error.html"),
    ),
    (
        "shuffling-intro",
        include_str!("../content/shuffling-intro.html"),
    ),
    (
        "shuffling-subsampled-rr",
        include_str!("../content/shuffling-subsampled-rr.html"),
    ),
    (
        "subsampling-schemes",
        include_str!("../content/subsampling-schemes.html"),
    ),
    (
        "subsampling-theorem",
        include_str!("../content/subsampling-theorem.html"),
    ),
    (
        "training-intro",
        include_str!("../content/training-intro.html"),
    ),
    (
        "training-noise",
        include_str!("../content/training-noise.html"),
    ),
    (
        "training-sampling",
        include_str!("../content/training-sampling.html"),
    ),
];

/// The fragment a page declares, if it exists.
pub fn prose_html(p: Prose) -> Option<&'static str> {
    PROSE
        .iter()
        .find(|(name, _)| *name == p.0)
        .map(|(_, html)| *html)
}

/// Every fragment as one JSON object, name to HTML (the build's `content.json`), and every
/// parameter's help sentence under [`crate::params::ParamSpec::help_name`].
pub fn content_json() -> String {
    let mut fields: Vec<String> = PROSE
        .iter()
        .map(|(name, html)| format!("{}:{}", json_string(name), json_string(html)))
        .collect();
    // Each parameter's help sentence (plain text), as HTML.
    fields.extend(crate::params::PARAMS.iter().map(|p| {
        let html = p
            .help
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        format!("{}:{}", json_string(&p.help_name()), json_string(&html))
    }));
    format!("{{{}}}\n", fields.join(","))
}
