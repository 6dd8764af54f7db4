//! The shape of the house, read from the sources: no import circle between the modules of any
//! crate of the workspace (Cargo already refuses circles between crates), and each crate's
//! dependencies within the layers it belongs to (the chart knows no mathematics and no
//! parameters; the model draws nothing and knows no browser).
//!
//! A module's imports are the paths it names that start at `crate::`, `super::` or `self::`
//! (in `use` declarations or inline), comments left out. A path counts as an edge to the longest
//! module it names; a module naming one of its ancestors is not an edge (a child reads its
//! parent's items, as Rust's modules are meant to), every other reference is.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// The workspace's root.
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the workspace")
        .to_path_buf()
}

/// Every `.rs` file under `dir`, recursively, sorted.
fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut entries: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("read {}: {e}", dir.display()))
        .map(|e| e.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            out.extend(rust_files(&path));
        } else if path.extension().is_some_and(|x| x == "rs") {
            out.push(path);
        }
    }
    out
}

/// The module path of a file under `src` (`lib.rs`/`main.rs` → `[]`, `a/b.rs` and `a/b/mod.rs`
/// → `[a, b]`); files of other targets (`bin/`) are their own roots.
fn module_of(src: &Path, file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src).expect("under src");
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The text with `//` comments removed (string literals holding `//` are rare enough in paths
/// not to matter: a removed tail can only hide an edge, never invent one).
fn without_comments(text: &str) -> String {
    text.lines()
        .map(|l| l.find("//").map_or(l, |i| &l[..i]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths (as segments) a text names after `start` (`crate::`, `super::`, `self::`), with one
/// level of braces expanded: `crate::a::{b, c::d}` gives `a::b` and `a::c::d`.
fn paths_after(text: &str, start: &str) -> Vec<Vec<String>> {
    let ident = |s: &str| -> (String, usize) {
        let n = s
            .char_indices()
            .find(|(_, c)| !(c.is_alphanumeric() || *c == '_'))
            .map_or(s.len(), |(i, _)| i);
        (s[..n].to_string(), n)
    };
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(i) = text[from..].find(start) {
        let at = from + i;
        from = at + start.len();
        // A whole word: not the tail of `my_crate::`.
        if at > 0 {
            let before = text[..at].chars().next_back().unwrap_or(' ');
            if before.is_alphanumeric() || before == '_' || before == ':' {
                continue;
            }
        }
        let mut rest = &text[from..];
        let mut prefix = Vec::new();
        loop {
            let (name, n) = ident(rest);
            if name.is_empty() {
                break;
            }
            prefix.push(name);
            rest = &rest[n..];
            match rest.strip_prefix("::") {
                Some(r) => rest = r,
                None => break,
            }
        }
        if let Some(inner) = rest.strip_prefix('{') {
            let end = inner.find('}').unwrap_or(inner.len());
            for item in inner[..end].split(',') {
                let mut path = prefix.clone();
                for seg in item.trim().split("::") {
                    let (name, _) = ident(seg.trim());
                    if name.is_empty() {
                        break;
                    }
                    path.push(name);
                }
                out.push(path);
            }
        } else {
            out.push(prefix);
        }
    }
    out
}

/// One crate's module graph: module → the modules it imports.
fn graph(src: &Path) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let files = rust_files(src);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(src, f)).collect();
    // The longest known module that `path` starts with.
    let resolve = |path: &[String]| -> Vec<String> {
        (0..=path.len())
            .rev()
            .map(|n| path[..n].to_vec())
            .find(|p| modules.contains(p))
            .unwrap_or_default()
    };
    let mut edges = BTreeMap::new();
    for file in &files {
        let me = module_of(src, file);
        let text = without_comments(&fs::read_to_string(file).expect("read"));
        let mut to = BTreeSet::new();
        for p in paths_after(&text, "crate::") {
            to.insert(resolve(&p));
        }
        // `super::` from a module's own file is its parent; `self::` the module itself.
        for (start, base) in [
            ("super::", me[..me.len().saturating_sub(1)].to_vec()),
            ("self::", me.clone()),
        ] {
            for p in paths_after(&text, start) {
                // `super::super::…`: one more level up for each.
                let ups = p.iter().take_while(|s| *s == "super").count();
                let mut full = base[..base.len().saturating_sub(ups)].to_vec();
                full.extend(p.into_iter().skip(ups));
                to.insert(resolve(&full));
            }
        }
        // Not an edge: itself, or an ancestor (a child reading its parent's items).
        to.retain(|t| t != &me && !me.starts_with(t));
        edges.insert(me, to);
    }
    edges
}

/// Every import that lies on a circle (`from → to` where `to` leads back to `from`), sorted.
fn circular_edges(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Vec<String> {
    let reaches = |from: &Vec<String>, goal: &Vec<String>| {
        let mut seen = BTreeSet::new();
        let mut todo = vec![from.clone()];
        while let Some(m) = todo.pop() {
            if &m == goal {
                return true;
            }
            if seen.insert(m.clone()) {
                todo.extend(edges.get(&m).into_iter().flatten().cloned());
            }
        }
        false
    };
    let name = |m: &Vec<String>| {
        if m.is_empty() {
            "crate".to_string()
        } else {
            m.join("::")
        }
    };
    let mut out = Vec::new();
    for (from, tos) in edges {
        for to in tos {
            if reaches(to, from) {
                out.push(format!("{} → {}", name(from), name(to)));
            }
        }
    }
    out
}

/// The source folders of the workspace's crates.
const CRATES: [&str; 9] = [
    "math/src",
    "format/src",
    "chart/src",
    "model/src",
    "figures/src",
    "site/src",
    "src",
    "cli/src",
    "compute/src",
];

#[test]
fn no_crate_has_an_import_circle() {
    let mut found = Vec::new();
    for dir in CRATES {
        let edges = graph(&root().join(dir));
        assert!(!edges.is_empty(), "{dir}: no modules found");
        found.extend(
            circular_edges(&edges)
                .into_iter()
                .map(|e| format!("{dir}: {e}")),
        );
    }
    assert!(
        found.is_empty(),
        "imports on a circle:\n{}",
        found.join("\n")
    );
}

/// The circle check itself: it finds a circle through `crate::`, `super::` and braces, and lets
/// a child read its parent.
#[test]
fn the_circle_check_finds_circles_and_only_circles() {
    let dir = std::env::temp_dir().join(format!("amp-modules-{}", std::process::id()));
    let write = |rel: &str, text: &str| {
        let p = dir.join(rel);
        fs::create_dir_all(p.parent().unwrap()).unwrap();
        fs::write(p, text).unwrap();
    };
    write("lib.rs", "mod a;\nmod b;\nmod c;\n");
    write("a/mod.rs", "mod inner;\nuse crate::b::X;\n");
    write("a/inner.rs", "use super::super::c;\n// use crate::b;\n");
    write("b.rs", "pub struct X;\n");
    write("c.rs", "use crate::{b::X};\n");
    let edges = graph(&dir);
    assert_eq!(edges.len(), 5);
    assert!(edges[&vec!["a".to_string(), "inner".to_string()]].contains(&vec!["c".to_string()]));
    assert!(circular_edges(&edges).is_empty(), "{edges:?}");
    // b naming a::inner closes a::inner → c → b → a::inner; a → b is not on it.
    write("b.rs", "pub struct X;\nfn f() { crate::a::inner::g() }\n");
    let edges = graph(&dir);
    assert_eq!(
        circular_edges(&edges),
        ["a::inner → c", "b → a::inner", "c → b"]
    );
    fs::remove_dir_all(&dir).unwrap();
}

/// The direct dependencies of the crate in `dir` (its manifest's `[dependencies]` and its
/// target-specific ones), by name.
fn dependencies(dir: &str) -> BTreeSet<String> {
    let text = fs::read_to_string(root().join(dir).join("Cargo.toml")).expect("manifest");
    let mut out = BTreeSet::new();
    let mut inside = false;
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('[') {
            inside = line == "[dependencies]"
                || (line.starts_with("[target.") && line.ends_with(".dependencies]"));
            continue;
        }
        if inside && !line.is_empty() && !line.starts_with('#') {
            let name = line.split(['=', '.', ' ']).next().unwrap_or("").trim();
            out.insert(name.to_string());
        }
    }
    out
}

#[test]
fn each_crate_depends_only_on_its_layers() {
    let set = |names: &[&str]| names.iter().map(|s| s.to_string()).collect::<BTreeSet<_>>();
    assert_eq!(dependencies("format"), set(&["libm", "js-sys"]));
    // The chart knows no mathematics and no parameters.
    assert_eq!(
        dependencies("chart"),
        set(&["amp-format", "libm", "plotters"])
    );
    // The model draws nothing and knows no browser (JSON is read by the browser's JSON.parse on wasm32, js-sys, and by serde_json elsewhere).
    assert_eq!(
        dependencies("model"),
        set(&["amp-format", "amp-math", "js-sys", "serde_json"])
    );
    // The figures read the model and draw through the chart: no page, no browser.
    assert_eq!(
        dependencies("figures"),
        set(&["amp-chart", "amp-format", "amp-math", "amp-model"])
    );
    let site = dependencies("site");
    // The site draws through the chart crate only.
    for banned in ["leptos", "web-sys", "wasm-bindgen", "plotters"] {
        assert!(!site.contains(banned), "the site crate depends on {banned}");
    }
}
