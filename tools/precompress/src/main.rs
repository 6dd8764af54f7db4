//! `precompress DIR`: beside every `.wasm` file under `DIR`, a `.gz` copy compressed with Zopfli (a
//! gzip stream any browser reads, about 4% smaller than zlib's level 9: the page's module 342 KB
//! to 328 KB), each file on a thread of its own. Run by `tools/postbuild.mjs` after each Trunk
//! build, which writes the `.br` copies of every file and the `.gz` copies of the text files
//! (zlib's level 9: Zopfli gains them little and took 50 s of every build over the pre-rendered
//! documents). Prints one line: the files and their sizes.
#![forbid(unsafe_code)]

use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            files(&path, out)?;
        } else if path.extension().and_then(|e| e.to_str()) == Some("wasm") {
            out.push(path);
        }
    }
    Ok(())
}

/// Compress one file to `<file>.gz`; its raw and compressed sizes.
fn compress(path: &Path) -> Result<(usize, usize), String> {
    let data = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let mut out = Vec::with_capacity(data.len() / 3);
    zopfli::compress(
        zopfli::Options::default(),
        zopfli::Format::Gzip,
        &data[..],
        &mut out,
    )
    .map_err(|e| format!("cannot compress {}: {e}", path.display()))?;
    let mut name = path.to_path_buf().into_os_string();
    name.push(".gz");
    std::fs::write(&name, &out).map_err(|e| format!("cannot write {name:?}: {e}"))?;
    Ok((data.len(), out.len()))
}

fn run(dir: &Path) -> Result<String, String> {
    let mut all = Vec::new();
    files(dir, &mut all).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    all.sort();
    let sizes = std::thread::scope(|s| {
        let jobs: Vec<_> = all.iter().map(|p| s.spawn(|| compress(p))).collect();
        jobs.into_iter()
            .map(|j| {
                j.join()
                    .unwrap_or_else(|_| Err("a compression thread failed".into()))
            })
            .collect::<Result<Vec<_>, String>>()
    })?;
    let raw: usize = sizes.iter().map(|s| s.0).sum();
    let gz: usize = sizes.iter().map(|s| s.1).sum();
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
