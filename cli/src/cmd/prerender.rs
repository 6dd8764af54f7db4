//! `amplify prerender --dist DIR`: write the pre-rendered site into a Trunk build (every page and
//! every figure's embed as static HTML with inline SVG figures), using `DIR/index.html` as the
//! template of every document's `<head>`. Run by `scripts/postbuild.sh` after each Trunk build.

use std::path::Path;

use amp_site::prerender::site;
use clap::{Arg, ArgMatches, Command};

pub fn command() -> Command {
    Command::new("prerender")
        .about("Write the pre-rendered pages and embeds into a Trunk build: amplify prerender --dist DIR")
        .arg(
            Arg::new("dist")
                .long("dist")
                .value_name("DIR")
                .help("The Trunk build to complete (its index.html is the template)")
                .required(true),
        )
}

pub fn run(m: &ArgMatches) -> Result<String, String> {
    let dist = Path::new(
        m.get_one::<String>("dist")
            .ok_or("prerender needs --dist DIR")?,
    );
    let index = dist.join("index.html");
    let template = std::fs::read_to_string(&index)
        .map_err(|e| format!("cannot read {}: {e}", index.display()))?;
    if template.contains("data-prerendered") {
        return Err(format!(
            "{} is already pre-rendered; run Trunk again first",
            index.display()
        ));
    }
    let docs = site(&template)?;
    for d in &docs {
        let path = dist.join(&d.path);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)
                .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        }
        std::fs::write(&path, &d.html)
            .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    Ok(format!(
        "{} documents written under {}",
        docs.len(),
        dist.display()
    ))
}
