//! `precompress DIR`: beside every `.html`, `.js`, `.css`, `.wasm`, `.svg` and `.json` file under `DIR`, a
//! `.gz` copy compressed with Zopfli (a gzip stream, about 4% smaller than zlib's best), for static
//! hosts that serve precompressed files as they are. Run by `scripts/postbuild.sh` after each Trunk
//! build; `tools/postbuild.mjs` writes the `.br` copies. Prints one line: the files and their sizes.
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            files(&path, out)?;
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("html" | "js" | "css" | "wasm" | "svg" | "json")
        ) {
            out.push(path);
        }
    }
    Ok(())
}

fn run(dir: &Path) -> Result<String, String> {
    let mut all = Vec::new();
    files(dir, &mut all).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    all.sort();
    let (mut raw, mut gz) = (0usize, 0usize);
    for path in &all {
        let data =
            std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let mut out = Vec::with_capacity(data.len() / 3);
        zopfli::compress(
            zopfli::Options::default(),
            zopfli::Format::Gzip,
            &data[..],
            &mut out,
        )
        .map_err(|e| format!("cannot compress {}: {e}", path.display()))?;
        let mut name = path.clone().into_os_string();
        name.push(".gz");
        std::fs::write(&name, &out).map_err(|e| format!("cannot write {name:?}: {e}"))?;
        raw += data.len();
        gz += out.len();
    }
    Ok(format!(
        "precompress: {} files, {:.1} KB, {:.1} KB gzipped (Zopfli)",
        all.len(),
        raw as f64 / 1024.0,
        gz as f64 / 1024.0
    ))
}

fn main() {
    let Some(dir) = std::env::args().nth(1) else {
        eprintln!("precompress: usage: precompress DIR");
        std::process::exit(2);
    };
    match run(Path::new(&dir)) {
        Ok(line) => eprintln!("{line}"),
        Err(e) => {
            eprintln!("precompress: {e}");
            std::process::exit(1);
        }
    }
}
