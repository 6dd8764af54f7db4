//! Lists the pages' prose (`content/*.html`) for `src/prose.rs`, so that a new fragment is a new
//! file and nothing else. A file is one fragment named after it (`training-intro.html` is
//! `training-intro`), or, when it has lines `<!-- fragment: NAME -->`, one fragment per such line,
//! each running to the next (so a new page can keep its lede and its prose in one file).

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("content");
    println!("cargo:rerun-if-changed={}", dir.display());
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("read site/content")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    files.sort();
    let mut fragments: Vec<(String, String)> = Vec::new();
    for path in files {
        println!("cargo:rerun-if-changed={}", path.display());
        let text = std::fs::read_to_string(&path).expect("read a prose file");
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .expect("a UTF-8 file name")
            .to_string();
        let marker = "<!-- fragment: ";
        if !text.contains(marker) {
            fragments.push((stem, text));
            continue;
        }
        let mut current: Option<(String, String)> = None;
        for line in text.split_inclusive('\n') {
            if let Some(rest) = line.trim().strip_prefix(marker) {
                let name = rest.trim_end_matches("-->").trim().to_string();
                fragments.extend(current.take());
                current = Some((name, String::new()));
            } else if let Some((_, body)) = current.as_mut() {
                body.push_str(line);
            } else {
                assert!(
                    line.trim().is_empty(),
                    "{}: text before the first fragment marker",
                    path.display()
                );
            }
        }
        fragments.extend(current);
    }
    let mut names: Vec<&str> = fragments.iter().map(|(n, _)| n.as_str()).collect();
    names.sort_unstable();
    let before = names.len();
    names.dedup();
    assert_eq!(before, names.len(), "two prose fragments share a name");
    let mut out = format!(
        "/// Every fragment in `content/`, by name (listed by `build.rs`).\npub const PROSE: [(&str, &str); {}] = [\n",
        fragments.len()
    );
    for (name, body) in &fragments {
        writeln!(out, "    ({name:?}, {body:?}),").expect("write to a string");
    }
    out.push_str("];\n");
    let target = Path::new(&std::env::var("OUT_DIR").expect("OUT_DIR")).join("prose_list.rs");
    std::fs::write(target, out).expect("write the prose list");
}
