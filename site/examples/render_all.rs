//! Writes every registry figure at default parameters to target/figures/<id>.svg (for looking at).
#![allow(clippy::disallowed_methods)] // std's functions are an independent check here
use amp_chart::svg::SIZE;
use amp_model::params::ParamValues;
use amp_site::figures::FIGURES;
use amp_site::svg::render_svg;

fn main() {
    std::fs::create_dir_all("target/figures").expect("create target/figures");
    for f in FIGURES {
        let svg = render_svg(f, &ParamValues::default(), SIZE).expect("render");
        std::fs::write(format!("target/figures/{}.svg", f.id), svg).expect("write");
    }
}
