//! The layers inside the site crate, read from its source (the model and the chart are crates of
//! their own, below it: Cargo keeps them apart, tests/modules.rs their dependencies): the figures
//! never import the pages; the pages import no figure module, only the registry and the chart
//! types named directly in `crate::figures::{…}`, and read everything else from the model. Every line is read,
//! comments included, so that a mention is a violation too; a failure names the file and the line.

use std::fs;
use std::path::{Path, PathBuf};

/// `site/src`.
fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
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

/// The file's lines, numbered from 1.
fn lines(path: &Path) -> Vec<(usize, String)> {
    fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("read {}: {e}", path.display()))
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.to_string()))
        .collect()
}

/// `file:line: what` for the report, the path relative to the crate.
fn at(path: &Path, line: usize, what: &str) -> String {
    let rel = path
        .strip_prefix(env!("CARGO_MANIFEST_DIR"))
        .unwrap_or(path)
        .display();
    format!("{rel}:{line}: {what}")
}

/// The lines of `files` that contain any of `banned`.
fn containing(files: &[PathBuf], banned: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    for path in files {
        for (n, line) in lines(path) {
            for b in banned {
                if line.contains(b) {
                    found.push(at(path, n, &format!("contains `{b}`: {}", line.trim())));
                }
            }
        }
    }
    found
}

fn fail_if_any(rule: &str, found: &[String]) {
    assert!(found.is_empty(), "{rule}:\n{}", found.join("\n"));
}

/// The modules of `crate::figures` (the files in `src/figures/`).
fn figure_modules() -> Vec<String> {
    let modules: Vec<String> = rust_files(&src().join("figures"))
        .iter()
        .filter_map(|p| p.file_stem().map(|s| s.to_string_lossy().into_owned()))
        .collect();
    assert!(!modules.is_empty(), "no figure modules found");
    modules
}

/// The names a page imports from the figures that are figure modules: `figures::m::…`,
/// `figures::m;`, `figures::m as …`, or `m` (or `m::…`) inside `figures::{…}` (which may span
/// lines). `text` is the whole file; each finding is (line, module).
fn module_imports(text: &str, modules: &[String]) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    for prefix in ["crate::figures::", "super::super::figures::"] {
        let mut from = 0;
        while let Some(i) = text[from..].find(prefix) {
            let start = from + i + prefix.len();
            from = start;
            let line = text[..start].matches('\n').count() + 1;
            let rest = &text[start..];
            let names: Vec<&str> = if let Some(inner) = rest.strip_prefix('{') {
                let end = inner.find('}').unwrap_or(inner.len());
                inner[..end].split(',').collect()
            } else {
                vec![rest]
            };
            for name in names {
                let first: String = name
                    .trim_start()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                if modules.contains(&first) {
                    found.push((line, first));
                }
            }
        }
    }
    found
}

/// (a) The figures never import the pages.
#[test]
fn figures_do_not_import_pages() {
    let mut files = rust_files(&src().join("figures"));
    files.push(src().join("figures.rs"));
    assert!(files.len() > 1, "no figure files found");
    let found = containing(&files, &["crate::pages", "super::super::pages"]);
    fail_if_any("a figure module mentions the pages", &found);
}

/// (c) The pages import no figure module: what a page reads besides the registry and the chart
/// types comes from the model.
#[test]
fn pages_import_no_figure_module() {
    let modules = figure_modules();
    let files = rust_files(&src().join("pages"));
    assert!(files.len() > 1, "no page files found");
    let mut found = Vec::new();
    for path in &files {
        let text =
            fs::read_to_string(path).unwrap_or_else(|e| panic!("read {}: {e}", path.display()));
        for (line, module) in module_imports(&text, &modules) {
            found.push(at(
                path,
                line,
                &format!("imports the figure module `{module}` (read it from crate::model)"),
            ));
        }
    }
    fail_if_any("a page imports a figure module", &found);
}

/// The check of (c) itself: it finds module paths, aliases and modules inside braces (also over
/// several lines), and lets the registry and the chart types through.
#[test]
fn module_import_check_finds_what_it_should() {
    let modules = vec!["shuffle".to_string(), "iteration".to_string()];
    let found = |text: &str| module_imports(text, &modules);
    assert!(found("use crate::figures::{ModelError, FigureId};\n").is_empty());
    assert!(found("use crate::figures::figure;\nuse crate::figures::FIGURES;\n").is_empty());
    assert!(found("use crate::model::shuffle::table;\n").is_empty());
    assert_eq!(
        found("use crate::figures::shuffle::{local_for_target, table};\n"),
        vec![(1, "shuffle".to_string())]
    );
    assert_eq!(
        found("//! x\nuse crate::figures::iteration;\n"),
        vec![(2, "iteration".to_string())]
    );
    assert_eq!(
        found("use crate::figures::{\n    iteration::readouts,\n    FigureId,\n};\n"),
        vec![(1, "iteration".to_string())]
    );
    assert_eq!(
        found("let x = super::super::figures::shuffle::tightest(v);\n"),
        vec![(1, "shuffle".to_string())]
    );
}
