//! The pages' prose (`content/*.html`: HTML fragments with MathML, ours only), by the name a page
//! declares it under ([`crate::pages::Prose`]). Behind the feature `prose`: the CLI writes it into
//! the pre-rendered pages and into `content.json`, from which the web app reads it, so the wasm
//! does not carry it.

use crate::pages::Prose;
use amp_format::json_string;

include!(concat!(env!("OUT_DIR"), "/prose_list.rs"));

/// The fragment a page declares, if it exists.
pub fn prose_html(p: Prose) -> Option<&'static str> {
    PROSE
        .iter()
        .find(|(name, _)| *name == p.0)
        .map(|(_, html)| *html)
}

/// Every fragment as one JSON object, name to HTML (the build's `content.json`), and every
/// parameter's help sentence under [`amp_model::params::ParamSpec::help_name`].
pub fn content_json() -> String {
    let mut fields: Vec<String> = PROSE
        .iter()
        .map(|(name, html)| format!("{}:{}", json_string(name), json_string(html)))
        .collect();
    // Each parameter's help sentence (plain text), as HTML.
    fields.extend(amp_model::param::PARAMS.iter().map(|p| {
        let html = p
            .help
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        format!("{}:{}", json_string(&p.help_name()), json_string(&html))
    }));
    format!("{{{}}}\n", fields.join(","))
}
