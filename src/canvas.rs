//! A plotters backend for a `<canvas>`: plotters-canvas for drawing, plus text measurement with
//! the canvas's own `measureText`.
//!
//! Why: plotters' wasm font code measures text by inserting a `<span style="…">` into the page. That
//! is slow (a layout per label), it `unwrap`s (a panic would kill the app), and the page's
//! Content-Security-Policy rightly blocks inline styles, so its measurements were wrong anyway.

use plotters_backend::{
    BackendColor, BackendCoord, BackendStyle, BackendTextStyle, DrawingBackend, DrawingErrorKind,
};
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement};

/// Any plotters backend with canvas-based text measurement (the SVG export needs it too).
pub struct Measured<B> {
    inner: B,
    context: CanvasRenderingContext2d,
}

/// [`CanvasBackend`] with canvas-based text measurement.
pub type MeasuredCanvas = Measured<CanvasBackend>;

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

impl MeasuredCanvas {
    /// None when the canvas gives no 2D context.
    pub fn new(canvas: &HtmlCanvasElement) -> Option<MeasuredCanvas> {
        let context = context_2d(canvas)?;
        let inner = CanvasBackend::with_canvas_object(canvas.clone())?;
        Some(Measured { inner, context })
    }
}

impl<B: DrawingBackend> Measured<B> {
    /// `inner`, measuring its text on a detached canvas; None when no 2D context is available.
    pub fn detached(inner: B) -> Option<Measured<B>> {
        let canvas = detached_canvas()?;
        Some(Measured {
            inner,
            context: context_2d(&canvas)?,
        })
    }
}

type Result<T, B> = std::result::Result<T, DrawingErrorKind<<B as DrawingBackend>::ErrorType>>;

impl<B: DrawingBackend> DrawingBackend for Measured<B> {
    type ErrorType = B::ErrorType;

    fn get_size(&self) -> (u32, u32) {
        self.inner.get_size()
    }
    fn ensure_prepared(&mut self) -> Result<(), B> {
        self.inner.ensure_prepared()
    }
    fn present(&mut self) -> Result<(), B> {
        self.inner.present()
    }
    fn draw_pixel(&mut self, point: BackendCoord, color: BackendColor) -> Result<(), B> {
        self.inner.draw_pixel(point, color)
    }
    fn draw_line<S: BackendStyle>(
        &mut self,
        from: BackendCoord,
        to: BackendCoord,
        style: &S,
    ) -> Result<(), B> {
        self.inner.draw_line(from, to, style)
    }
    fn draw_rect<S: BackendStyle>(
        &mut self,
        upper_left: BackendCoord,
        bottom_right: BackendCoord,
        style: &S,
        fill: bool,
    ) -> Result<(), B> {
        self.inner.draw_rect(upper_left, bottom_right, style, fill)
    }
    fn draw_path<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        path: I,
        style: &S,
    ) -> Result<(), B> {
        self.inner.draw_path(path, style)
    }
    fn draw_circle<S: BackendStyle>(
        &mut self,
        center: BackendCoord,
        radius: u32,
        style: &S,
        fill: bool,
    ) -> Result<(), B> {
        self.inner.draw_circle(center, radius, style, fill)
    }
    fn fill_polygon<S: BackendStyle, I: IntoIterator<Item = BackendCoord>>(
        &mut self,
        vert: I,
        style: &S,
    ) -> Result<(), B> {
        self.inner.fill_polygon(vert, style)
    }
    fn draw_text<T: BackendTextStyle>(
        &mut self,
        text: &str,
        style: &T,
        pos: BackendCoord,
    ) -> Result<(), B> {
        self.inner.draw_text(text, style, pos)
    }

    fn estimate_text_size<T: BackendTextStyle>(
        &self,
        text: &str,
        style: &T,
    ) -> Result<(u32, u32), B> {
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

    fn blit_bitmap(&mut self, pos: BackendCoord, size: (u32, u32), src: &[u8]) -> Result<(), B> {
        self.inner.blit_bitmap(pos, size, src)
    }
}
