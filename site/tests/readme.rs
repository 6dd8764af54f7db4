//! The README's figure table is the registry's (page by page, each figure once, with its title),
//! and docs/usage.md describes every figure of the registry, so that neither can fall behind a
//! new figure. On a mismatch the test prints the table to paste between the README's markers;
//! `UPDATE_README=1 cargo test -p amp-site --test readme` writes it there.

use amp_site::figures::FIGURES;
use amp_site::pages::Page;

const START: &str = "<!-- figures:start -->\n";
const END: &str = "<!-- figures:end -->";

fn repository_file(name: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join(name)
}

/// The table the registry gives: every page's figures in the order the page shows them.
fn registry_table() -> String {
    let mut out = String::from("| figure | page | what it shows |\n|---|---|---|\n");
    for page in Page::ALL {
        let spec = page.spec();
        for id in spec.figure_ids() {
            out.push_str(&format!(
                "| `{}` | {} | {} |\n",
                id.as_str(),
                spec.nav,
                id.spec().title
            ));
        }
    }
    out
}

#[test]
fn the_readme_lists_every_figure_of_the_registry() {
    let path = repository_file("README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let start = readme
        .find(START)
        .expect("README.md has no figures:start marker")
        + START.len();
    let end = readme[start..]
        .find(END)
        .map(|e| start + e)
        .expect("README.md has no figures:end marker");
    let want = registry_table();
    if readme[start..end] == want {
        return;
    }
    if std::env::var_os("UPDATE_README").is_some() {
        let updated = format!("{}{want}{}", &readme[..start], &readme[end..]);
        std::fs::write(&path, updated).unwrap();
        return;
    }
    panic!(
        "README.md's figure table is not the registry's; the table between its markers should be:\n{want}\n\
         (UPDATE_README=1 cargo test -p amp-site --test readme writes it)"
    );
}

#[test]
fn the_registry_table_names_each_figure_once() {
    let table = registry_table();
    assert_eq!(table.lines().count(), FIGURES.len() + 2);
    for f in FIGURES {
        let cell = format!("| `{}` |", f.id.as_str());
        assert_eq!(table.matches(&cell).count(), 1, "{}", f.id);
    }
}

#[test]
fn the_usage_guide_describes_every_figure_once() {
    let usage = std::fs::read_to_string(repository_file("docs/usage.md")).unwrap();
    let section = usage
        .split("\n## ")
        .find(|s| s.starts_with("Figures in detail"))
        .expect("docs/usage.md has no section \"Figures in detail\"");
    let mut rows: Vec<&str> = section
        .lines()
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .collect();
    let mut want: Vec<&str> = FIGURES.iter().map(|f| f.id.as_str()).collect();
    rows.sort_unstable();
    want.sort_unstable();
    assert_eq!(
        rows, want,
        "docs/usage.md, \"Figures in detail\": one row per registry figure"
    );
}
