//! The plotters backend the app draws with: plotters-canvas for the figures on screen and the PNG
//! export, plotters' SVG backend for the SVG export, both with text measured by the canvas's own
//! `measureText`.
//!
//! Why one backend type for both: the chart drawing code (`amp_chart::draw`) is generic over the
//! backend, so each backend type the app used compiled a second copy of it into the wasm. Choosing
//! the target at run time inside one type ([`AppBackend`]) keeps a single copy.
//!
//! Why our own text measurement: plotters' wasm font code measures text by inserting a
//! `<span style="…">` into the page. That is slow (a layout per label), it `unwrap`s (a panic would
//! kill the app), and the page's Content-Security-Policy rightly blocks inline styles, so its
//! measurements were wrong anyway.

use plotters::prelude::SVGBackend;
use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// Where an [`AppBackend`] draws.
enum Target<'a> {
    Canvas(CanvasBackend),
    Svg(SVGBackend<'a>),
}

/// A `<canvas>` or an SVG document, with canvas-based text measurement.
pub struct AppBackend<'a> {
    target: Target<'a>,
    context: CanvasRenderingContext2d,
}

/// A drawing error of either target, as text.
#[derive(Debug)]
pub struct DrawError(String);

impl std::fmt::Display for DrawError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for DrawError {}

fn convert<E: std::error::Error + Send + Sync>(
    e: DrawingErrorKind<E>,
) -> DrawingErrorKind<DrawError> {
    match e {
        DrawingErrorKind::DrawingError(e) => {
            DrawingErrorKind::DrawingError(DrawError(e.to_string()))
        }
        DrawingErrorKind::FontError(e) => DrawingErrorKind::FontError(e),
    }
}

/// A new `<canvas>` that is not in the page (for exports and text measurement), or None.
pub fn detached_canvas() -> Option<HtmlCanvasElement> {
    web_sys::window()?
        .document()?
        .create_element("canvas")
        .ok()?
        .dyn_into::<HtmlCanvasElement>()
        .ok()
}

fn context_2d(canvas: &HtmlCanvasElement) -> Option<CanvasRenderingContext2d> {
    canvas
        .get_context("2d")
        .ok()??
        .dyn_into::<CanvasRenderingContext2d>()
        .ok()
}

impl AppBackend<'static> {
    /// Draw on `canvas`; None when it gives no 2D context.
    pub fn canvas(canvas: &HtmlCanvasElement) -> Option<AppBackend<'static>> {
        let context = context_2d(canvas)?;
        let inner = CanvasBackend::with_canvas_object(canvas.clone())?;
        Some(AppBackend {
            target: Target::Canvas(inner),
            context,
        })
    }
}

impl<'a> AppBackend<'a> {
    /// Write an SVG document of `size` pixels into `out`, measuring its text on a detached canvas;
    /// None when no 2D context is available.
    pub fn svg(out: &'a mut String, size: (u32, u32)) -> Option<AppBackend<'a>> {
        let canvas = detached_canvas()?;
        Some(AppBackend {
            target: Target::Svg(SVGBackend::with_string(out, size)),
            context: context_2d(&canvas)?,
        })
    }
}

type Result<T> = std::result::Result<T, DrawingErrorKind<DrawError>>;

/// Call the same method on whichever target, converting its error.
macro_rules! on_target {
    ($self:expr, $b:ident => $call:expr) => {
        match $self {
            Target::Canvas($b) => $call.map_err(convert),
            Target::Svg($b) => $call.map_err(convert),
        }
    };
}

impl DrawingBackend for AppBackend<'_> {
    type ErrorType = DrawError;

    fn get_size(&self) -> (u32, u32) {
        match &self.target {
            Target::Canvas(b) => b.get_size(),
            Target::Svg(b) => b.get_size(),
        }
    }
    fn ensure_prepared(&mut self) -> Result<()> {
        on_target!(&mut self.target, b => b.ensure_prepared())
    }
    fn present(&mut self) -> Result<()> {
        on_target!(&mut self.target, b => b.present())
    }
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<()> {
        on_target!(&mut self.target, b => b.draw_pixel(point, color))
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<()> {
        on_target!(&mut self.target, b => b.draw_line(from, to, style))
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<()> {
        on_target!(&mut self.target, b => b.draw_rect(upper_left, bottom_right, style, fill))
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<()> {
        on_target!(&mut self.target, b => b.draw_path(path, style))
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<()> {
        on_target!(&mut self.target, b => b.draw_circle(center, radius, style, fill))
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<()> {
        on_target!(&mut self.target, b => b.fill_polygon(vert, style))
    }
    fn draw_text<T: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &T,
        pos: BackendCoord,
    ) -> Result<()> {
        on_target!(&mut self.target, b => b.draw_text(text, style, pos))
    }

    fn estimate_text_size<T: BackendTextStyle>(&self, text: &str, style: &T) -> Result<(u32, u32)> {
        // The same font string plotters-canvas uses when it draws.
        self.context.set_font(&format!(
            "{} {}px {}",
            style.style().as_str(),
            style.size(),
            style.family().as_str()
        ));
        let width = self
            .context
            .measure_text(text)
            .map(|m| m.width())
            .unwrap_or(0.6 * style.size() * text.chars().count() as f64);
        // Line height: the usual 1.2 em.
        Ok((
            width.ceil().max(0.0) as u32,
            (1.2 * style.size()).ceil() as u32,
        ))
    }

    fn blit_bitmap(&mut self, pos: BackendCoord, size: (u32, u32), src: &[u8]) -> Result<()> {
        on_target!(&mut self.target, b => b.blit_bitmap(pos, size, src))
    }
}
