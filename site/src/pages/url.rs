//! The URL codec: a query string to a view and parameter values (never failing: bad parts fall
//! back with a notice) and back.

use super::{Page, View, CONSTRAINTS};
use crate::figures::figure;
use amp_format::escape_display;
use amp_model::param::by_name;
use amp_model::params::ParamValues;

/// The state a URL describes, with a notice for everything in it that was ignored.
#[derive(Clone, Debug, PartialEq)]
pub struct UrlState {
    /// What to show.
    pub view: View,
    /// Every parameter's value (defaults where the URL said nothing usable).
    pub values: ParamValues,
    /// Short messages about ignored or invalid parts of the URL.
    pub notices: Vec<String>,
}

/// At most this many notices are kept; a hostile URL could otherwise produce thousands.
pub const MAX_NOTICES: usize = 8;

/// Parse a query string (`?page=subsampling&eps=1…`, with or without the leading `?`).
///
/// Never fails: bad values fall back to their defaults with a notice, unknown keys are ignored with
/// a notice, a repeated key keeps its first value.
pub fn parse_query(query: &str) -> UrlState {
    let query = query.strip_prefix('?').unwrap_or(query);
    let mut values = ParamValues::default();
    let mut notices = Vec::new();
    let mut seen: Vec<String> = Vec::new();
    let mut page = None;
    let mut embed = None;
    let note = |notices: &mut Vec<String>, msg: String| {
        if notices.len() < MAX_NOTICES {
            notices.push(msg);
        } else if notices.len() == MAX_NOTICES {
            notices.push("…and more problems in the link, not listed.".into());
        }
    };
    for pair in query.split('&').filter(|s| !s.is_empty()) {
        let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
        let key = percent_decode(k);
        let val = percent_decode(v);
        if seen.contains(&key) {
            note(
                &mut notices,
                format!(
                    "“{}” appears more than once in the link; the first value is used.",
                    escape_display(&key)
                ),
            );
            continue;
        }
        if seen.len() < 64 {
            seen.push(key.clone());
        }
        match key.as_str() {
            "page" => match Page::from_id(&val) {
                Some(p) => page = Some(p),
                None => note(
                    &mut notices,
                    format!(
                        "There is no page “{}”; showing the home page.",
                        escape_display(&val)
                    ),
                ),
            },
            "embed" => match figure(&val) {
                Some(f) => embed = Some(f),
                None => note(
                    &mut notices,
                    format!("There is no figure “{}” to embed.", escape_display(&val)),
                ),
            },
            name => match by_name(name) {
                Some(spec) => {
                    if let Err(msg) = values.set_text(spec, &val) {
                        note(
                            &mut notices,
                            format!("{msg}. Using the default {}.", spec.format(spec.default)),
                        );
                    }
                }
                None => note(
                    &mut notices,
                    format!("Unknown setting “{}” ignored.", escape_display(name)),
                ),
            },
        }
    }
    // Values that are fine alone but not together: restore that constraint's defaults.
    for c in CONSTRAINTS {
        if let Err((_, msg)) = (c.check)(&values) {
            let names: Vec<&str> = c.params.iter().map(|s| s.name).collect();
            note(
                &mut notices,
                format!("{msg}. Using the defaults for {}.", names.join(" and ")),
            );
            for spec in c.params {
                let _ = values.set(spec, spec.default);
            }
        }
    }
    let view = match (embed, page) {
        (Some(f), _) => View::Embed(f),
        (None, Some(p)) => View::Page(p),
        (None, None) => View::Page(Page::Home),
    };
    UrlState {
        view,
        values,
        notices,
    }
}

/// The query string for a view: `?page=…` or `?embed=…`, then the view's parameters.
pub fn to_query(view: View, values: &ParamValues) -> String {
    let mut q = match view {
        View::Page(p) => format!("?page={}", p.id()),
        View::Embed(f) => format!("?embed={}", f.id),
    };
    for spec in view.params() {
        q.push('&');
        q.push_str(spec.name);
        q.push('=');
        q.push_str(&percent_encode(&spec.format(values.get(spec))));
    }
    q
}

/// Where a view lives, relative to the app's root: `""` (home), `"training/"` (a page) or
/// `"embed/sample-budget/"` (one figure). Each is a directory with its own pre-rendered
/// `index.html`, so a static host serves the right page before any script runs.
pub fn view_path(view: View) -> String {
    match view {
        View::Page(Page::Home) => String::new(),
        View::Page(p) => format!("{}/", p.id()),
        View::Embed(f) => format!("embed/{}/", f.id),
    }
}

/// The view a path relative to the app's root names (the inverse of [`view_path`]; a missing
/// trailing slash or a trailing `index.html` is accepted). `None` for the root itself and for
/// any path that names no view.
pub fn view_from_path(path: &str) -> Option<View> {
    let path = path.strip_suffix("index.html").unwrap_or(path);
    let path = path.trim_matches('/');
    if path.is_empty() {
        return None;
    }
    match path.split_once('/') {
        Some(("embed", id)) => figure(id).map(View::Embed),
        Some(_) => None,
        None => Page::from_id(path).map(View::Page),
    }
}

/// The query string of a view's parameters (`?eps=1&p=0.01`, or `""` when it has none): with
/// [`view_path`], the address of what is on screen.
pub fn params_query(view: View, values: &ParamValues) -> String {
    let q = to_query(view, values);
    match q.split_once('&') {
        Some((_, rest)) => format!("?{rest}"),
        None => String::new(),
    }
}

/// Parse an address: the view from its path relative to the app's root when the path names one
/// ([`view_from_path`]), else from the query's `page=` or `embed=` (the links of earlier
/// versions); the parameters from the query. A path's view wins over the query's.
pub fn parse_location(path: &str, query: &str) -> UrlState {
    let mut s = parse_query(query);
    if let Some(view) = view_from_path(path) {
        s.view = view;
    }
    s
}

/// Prose links to other pages are written `href="?page=ID"` in `content/`; on screen they point
/// at the page's own address under `root` (`"../"`, or an absolute URL ending in `/`).
pub fn page_links(html: &str, root: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    const KEY: &str = "href=\"?page=";
    while let Some(i) = rest.find(KEY) {
        out.push_str(&rest[..i]);
        let after = &rest[i + KEY.len()..];
        let end = after.find('"').unwrap_or(after.len());
        let id = &after[..end];
        let path = Page::from_id(id)
            .map(|p| view_path(View::Page(p)))
            .unwrap_or_default();
        out.push_str(&format!("href=\"{root}{path}"));
        rest = &after[end..];
    }
    out.push_str(rest);
    out
}

/// Decode `%XX` escapes and `+` (as space). Invalid escapes are kept literally; invalid UTF-8 is
/// replaced, never a panic.
pub fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                let hex = |b: u8| (b as char).to_digit(16);
                match (hex(bytes[i + 1]), hex(bytes[i + 2])) {
                    (Some(h), Some(l)) => {
                        out.push((h * 16 + l) as u8);
                        i += 2;
                    }
                    _ => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// Encode everything except unreserved characters.
pub fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
