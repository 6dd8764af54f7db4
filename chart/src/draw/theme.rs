//! The theme: colours and sizes (light and dark, scaled to the device), and the colour, width and
//! dash each series role is drawn with.

use plotters::prelude::*;

use crate::Role;

/// Colours and sizes. `scale` multiplies every length (device pixel ratio on screens).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Theme {
    /// Length multiplier (1 for SVG, the device pixel ratio on a canvas).
    pub scale: f64,
    /// Font family for all text.
    pub font: &'static str,
    /// Plot background.
    pub background: RGBColor,
    /// Text and axes.
    pub text: RGBColor,
    /// Grid lines.
    pub grid: RGBColor,
    /// Family curves, bounds.
    pub palette: [RGBColor; 6],
    /// The reader's own curve and point.
    pub accent: RGBColor,
    /// Reference lines.
    pub reference: RGBColor,
}

impl Theme {
    /// Light theme. Palette: Okabe & Ito's colour-blind-safe set.
    pub fn light(scale: f64) -> Theme {
        Theme {
            scale,
            font: "sans-serif",
            background: RGBColor(255, 255, 255),
            text: RGBColor(31, 35, 40),
            grid: RGBColor(216, 222, 228),
            palette: [
                RGBColor(0, 114, 178),
                RGBColor(0, 158, 115),
                RGBColor(204, 121, 167),
                RGBColor(230, 159, 0),
                RGBColor(86, 180, 233),
                RGBColor(90, 90, 90),
            ],
            accent: RGBColor(213, 94, 0),
            reference: RGBColor(110, 119, 129),
        }
    }

    /// Dark theme (the app's dark mode): the same palette lightened where it would be too dark on
    /// the background; lines and text keep at least 4.5:1 against it.
    pub fn dark(scale: f64) -> Theme {
        Theme {
            scale,
            font: "sans-serif",
            background: RGBColor(13, 17, 23),
            text: RGBColor(230, 237, 243),
            grid: RGBColor(48, 54, 61),
            palette: [
                RGBColor(86, 180, 233),
                RGBColor(0, 190, 140),
                RGBColor(222, 143, 188),
                RGBColor(240, 180, 40),
                RGBColor(160, 215, 245),
                RGBColor(175, 175, 175),
            ],
            accent: RGBColor(255, 140, 60),
            reference: RGBColor(145, 152, 161),
        }
    }

    pub(super) fn px(&self, v: f64) -> u32 {
        (v * self.scale).round().max(1.0) as u32
    }

    /// Text in the theme's font and text colour, `size` pixels before scaling.
    pub(super) fn text_style(&self, size: f64) -> TextStyle<'static> {
        // The family named directly: plotters' conversion from a string lowercases it first, which
        // brings the standard library's Unicode case tables into the wasm (about 10 KB).
        let family = match self.font {
            "sans-serif" => FontFamily::SansSerif,
            "serif" => FontFamily::Serif,
            "monospace" => FontFamily::Monospace,
            name => FontFamily::Name(name),
        };
        FontDesc::new(family, size * self.scale, FontStyle::Normal).color(&self.text)
    }
}

/// Colour, line width and dash (length, gap) of a series' role.
pub(super) fn role_style(role: Role, theme: &Theme) -> (RGBColor, f64, Option<(f64, f64)>) {
    match role {
        Role::Highlight => (theme.accent, 3.0, None),
        Role::Family(i) | Role::Scatter(i) => (theme.palette[i % theme.palette.len()], 1.6, None),
        Role::Bound(i) => (
            theme.palette[i % theme.palette.len()],
            2.0,
            Some((7.0, 4.0)),
        ),
        Role::HighlightBound => (theme.accent, 2.0, Some((7.0, 4.0))),
        Role::Reference => (theme.reference, 1.2, Some((3.0, 3.0))),
    }
}
