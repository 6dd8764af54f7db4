//! What a pointer over the figure means: where each panel's plotting area landed ([`Frame`]: pixels
//! to data and back) and every labelled series' and band's value at a data x.

use super::axes::to_axis;
use crate::Chart;

/// Where a panel's plotting area is on the backend, in its pixels, and which data range it
/// shows: what a pointer position over the figure means.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Frame {
    /// Left and right edges of the plotting area, in backend pixels.
    pub left: f64,
    /// Right edge.
    pub right: f64,
    /// Top edge.
    pub top: f64,
    /// Bottom edge.
    pub bottom: f64,
    /// The x axis's visible range, in data units.
    pub x_min: f64,
    /// Upper end.
    pub x_max: f64,
    /// Logarithmic x axis.
    pub x_log: bool,
    /// The y axis's visible range, in data units.
    pub y_min: f64,
    /// Upper end.
    pub y_max: f64,
    /// Logarithmic y axis.
    pub y_log: bool,
    /// Where the legend was drawn inside the plot, in backend pixels (left, top, right, bottom);
    /// `None` when the panel has none inside.
    pub legend_box: Option<[f64; 4]>,
    /// The legend would have covered data in every corner of a panel and was left out of the
    /// picture ([`LegendFallback::Hide`]): the page shows it beside the figure instead.
    pub legend_hidden: bool,
}

impl Frame {
    /// The backend pixel where the data point (x, y) is drawn (outside the plotting area when the
    /// point is outside the axes' ranges).
    pub fn pixel_of(&self, x: f64, y: f64) -> (f64, f64) {
        let at = |v: f64, lo: f64, hi: f64, log: bool| {
            let (a, b) = (to_axis(lo, log), to_axis(hi, log));
            (to_axis(v, log) - a) / (b - a)
        };
        (
            self.left + at(x, self.x_min, self.x_max, self.x_log) * (self.right - self.left),
            self.bottom - at(y, self.y_min, self.y_max, self.y_log) * (self.bottom - self.top),
        )
    }

    /// The data x under horizontal pixel `px`, if it is inside the plotting area.
    pub fn x_at(&self, px: f64) -> Option<f64> {
        if !(px >= self.left && px <= self.right) || self.right <= self.left {
            return None;
        }
        let t = (px - self.left) / (self.right - self.left);
        let (a, b) = (
            to_axis(self.x_min, self.x_log),
            to_axis(self.x_max, self.x_log),
        );
        let v = a + t * (b - a);
        Some(if self.x_log { libm::pow(10.0, v) } else { v })
    }
}

/// Each labelled series' and band's value at data x (linear interpolation between the two
/// neighbouring points, in the axes' own scales), for the pointer readout: (label, value) pairs;
/// bands give "(lower)" and "(upper)". Series that do not reach x are left out.
pub fn values_at(chart: &Chart, x: f64) -> Vec<(String, f64)> {
    let (xl, yl) = (chart.x.log, chart.y.log);
    let interp = |pts: &[(f64, f64)]| -> Option<f64> {
        let ax = to_axis(x, xl);
        let i = pts.iter().position(|p| p.0 >= x)?;
        if pts[i].0 == x {
            return Some(pts[i].1);
        }
        if i == 0 {
            return None;
        }
        let (p, q) = (pts[i - 1], pts[i]);
        let (px, qx) = (to_axis(p.0, xl), to_axis(q.0, xl));
        let (py, qy) = (to_axis(p.1, yl), to_axis(q.1, yl));
        if !(px.is_finite() && qx.is_finite() && py.is_finite() && qy.is_finite()) || qx <= px {
            return None;
        }
        let v = py + (ax - px) / (qx - px) * (qy - py);
        Some(if yl { libm::pow(10.0, v) } else { v })
    };
    let mut out = Vec::new();
    for s in &chart.series {
        if s.label.is_empty() || s.points.len() < 2 {
            continue;
        }
        if let Some(v) = interp(&s.points).filter(|v| v.is_finite()) {
            out.push((s.label.clone(), v));
        }
    }
    for b in &chart.bands {
        let lo: Vec<(f64, f64)> = b.points.iter().map(|p| (p.0, p.1)).collect();
        let hi: Vec<(f64, f64)> = b.points.iter().map(|p| (p.0, p.2)).collect();
        if let (Some(l), Some(h)) = (interp(&lo), interp(&hi)) {
            if l.is_finite() && h.is_finite() {
                out.push((format!("{} (lower)", b.label), l));
                out.push((format!("{} (upper)", b.label), h));
            }
        }
    }
    out
}

#[cfg(test)]
#[allow(clippy::disallowed_methods)] // std as an independent check
mod pointer_tests {
    use super::*;
    use crate::{Axis, Band, LegendCorner, Role, Series};

    #[test]
    fn frame_maps_pixels_to_data_on_log_and_linear_axes() {
        let f = Frame {
            left: 100.0,
            right: 300.0,
            top: 0.0,
            bottom: 100.0,
            x_min: 0.01,
            x_max: 100.0,
            x_log: true,
            y_min: 1.0,
            y_max: 2.0,
            y_log: false,
            legend_box: None,
            legend_hidden: false,
        };
        assert_eq!(f.x_at(99.0), None);
        assert_eq!(f.x_at(301.0), None);
        assert!((f.x_at(100.0).unwrap() - 0.01).abs() < 1e-15);
        assert!((f.x_at(200.0).unwrap() - 1.0).abs() < 1e-12);
        let lin = Frame {
            x_log: false,
            x_min: -1.0,
            x_max: 3.0,
            ..f
        };
        assert!((lin.x_at(150.0).unwrap() - 0.0).abs() < 1e-12);
        // And back: data to pixels (y linear from 1 at the bottom to 2 at the top).
        let (px, py) = f.pixel_of(1.0, 1.25);
        assert!(
            (px - 200.0).abs() < 1e-9 && (py - 75.0).abs() < 1e-9,
            "{px} {py}"
        );
        let (px, py) = lin.pixel_of(0.0, 2.0);
        assert!((px - 150.0).abs() < 1e-9 && py.abs() < 1e-9, "{px} {py}");
        let log_y = Frame {
            y_log: true,
            y_min: 1e-6,
            y_max: 1.0,
            ..lin
        };
        let (_, py) = log_y.pixel_of(0.0, 1e-3);
        assert!((py - 50.0).abs() < 1e-9, "{py}");
        for x in [0.5, 7.0, 99.0] {
            assert!((f.x_at(f.pixel_of(x, 1.5).0).unwrap() - x).abs() < 1e-9 * x);
        }
    }

    #[test]
    fn values_interpolate_in_the_axes_scales_and_skip_curves_that_do_not_reach() {
        let mut c = Chart::new(
            Axis::numeric("x", true, 1.0, 100.0),
            Axis::numeric("y", true, 1.0, 1e4),
            LegendCorner::UpperLeft,
            String::new(),
        );
        // y = x² is a straight line on log-log axes: interpolation there is exact.
        c.series.push(Series {
            label: "square".into(),
            points: vec![(1.0, 1.0), (10.0, 100.0), (100.0, 1e4)],
            role: Role::Highlight,
        });
        c.series.push(Series {
            label: "short".into(),
            points: vec![(20.0, 1.0), (100.0, 2.0)],
            role: Role::Family(0),
        });
        c.series.push(Series {
            label: String::new(),
            points: vec![(1.0, 1.0), (100.0, 1.0)],
            role: Role::Reference,
        });
        c.bands.push(Band {
            label: "band".into(),
            points: vec![(1.0, 1.0, 2.0), (100.0, 10.0, 20.0)],
        });
        let v = values_at(&c, 3.0);
        assert_eq!(v.len(), 3, "{v:?}");
        assert_eq!(v[0].0, "square");
        assert!((v[0].1 - 9.0).abs() < 1e-12);
        assert_eq!(v[1].0, "band (lower)");
        assert!((v[1].1 - 10f64.powf(3f64.log10() / 2.0)).abs() < 1e-12);
        assert_eq!(values_at(&c, 10.0)[0].1, 100.0);
    }
}
