//! A [`Chart`] as text and back, bit for bit: how a chart computed in the app's compute worker
//! reaches the page that draws it (the site's `job` module), and how a pre-rendered document carries such a
//! figure's chart at the defaults (`data-chart`, the site's `prerender`) for the app to adopt.
//!
//! The text is a flat sequence of fields separated by tabs (a `\`, tab or line feed inside a
//! field is escaped as `\\`, `\t`, `\n`), written and read in the same fixed order: the axes, the
//! bands, the boxes, the series, the markers, the legend corner, the heat map, the outlines, the
//! lower panel, the notes and the text alternative. A list is its length followed by its items.
//! Numbers are written in Rust's shortest round-trip form (`NaN` and `inf` included), so every
//! coordinate comes back with the same bits.

use super::{Axis, Band, BoxStat, Chart, Heatmap, LegendCorner, Marker, Outline, Role, Series};

impl Chart {
    /// The text form of this chart (see the module's description).
    pub fn carry(&self) -> String {
        let mut w = Writer(String::new());
        w.chart(self);
        w.0
    }

    /// A chart read back from [`Chart::carry`]'s text; `None` if the text is malformed in any way
    /// (a field missing, left over or of the wrong kind).
    pub fn adopt(text: &str) -> Option<Chart> {
        let mut r = Reader {
            fields: text.split('\t'),
        };
        let c = r.chart(0)?;
        r.fields.next().is_none().then_some(c)
    }
}

/// How deep lower panels may nest in a text read back (a chart has at most one; a bound keeps a
/// hostile text from recursing without end).
const MAX_PANELS: usize = 4;

struct Writer(String);

impl Writer {
    fn field(&mut self, s: &str) {
        if !self.0.is_empty() {
            self.0.push('\t');
        }
        for c in s.chars() {
            match c {
                '\\' => self.0.push_str("\\\\"),
                '\t' => self.0.push_str("\\t"),
                '\n' => self.0.push_str("\\n"),
                c => self.0.push(c),
            }
        }
    }
    fn num(&mut self, x: f64) {
        self.field(&x.to_string());
    }
    fn count(&mut self, n: usize) {
        self.field(&n.to_string());
    }
    fn flag(&mut self, b: bool) {
        self.field(if b { "1" } else { "0" });
    }
    fn axis(&mut self, a: &Axis) {
        self.field(&a.label);
        self.flag(a.log);
        self.num(a.min);
        self.num(a.max);
        self.count(a.categories.len());
        for (x, label) in &a.categories {
            self.num(*x);
            self.field(label);
        }
    }
    fn role(&mut self, r: Role) {
        let (kind, i) = match r {
            Role::Family(i) => ("f", i),
            Role::Highlight => ("h", 0),
            Role::Bound(i) => ("b", i),
            Role::HighlightBound => ("hb", 0),
            Role::Reference => ("r", 0),
            Role::Scatter(i) => ("s", i),
        };
        self.field(kind);
        self.count(i);
    }
    fn chart(&mut self, c: &Chart) {
        self.axis(&c.x);
        self.axis(&c.y);
        self.count(c.bands.len());
        for b in &c.bands {
            self.field(&b.label);
            self.count(b.points.len());
            for &(x, lo, hi) in &b.points {
                self.num(x);
                self.num(lo);
                self.num(hi);
            }
        }
        self.count(c.boxes.len());
        for b in &c.boxes {
            self.num(b.x);
            for s in b.stats {
                self.num(s);
            }
            self.count(b.color);
        }
        self.count(c.series.len());
        for s in &c.series {
            self.field(&s.label);
            self.role(s.role);
            self.count(s.points.len());
            for &(x, y) in &s.points {
                self.num(x);
                self.num(y);
            }
        }
        self.count(c.markers.len());
        for m in &c.markers {
            self.num(m.x);
            self.num(m.y);
            self.field(&m.label);
        }
        self.field(match c.legend {
            LegendCorner::UpperLeft => "ul",
            LegendCorner::UpperRight => "ur",
            LegendCorner::LowerLeft => "ll",
            LegendCorner::LowerRight => "lr",
        });
        self.flag(c.heatmap.is_some());
        if let Some(h) = &c.heatmap {
            for edges in [&h.x_edges, &h.y_edges, &h.values] {
                self.count(edges.len());
                for &x in edges.iter() {
                    self.num(x);
                }
            }
            self.field(&h.label);
            self.flag(h.log_color);
        }
        self.count(c.outlines.len());
        for o in &c.outlines {
            self.num(o.x.0);
            self.num(o.x.1);
            self.num(o.y.0);
            self.num(o.y.1);
            self.field(&o.label);
        }
        self.flag(c.lower.is_some());
        if let Some(lower) = &c.lower {
            self.chart(lower);
        }
        self.count(c.notes.len());
        for n in &c.notes {
            self.field(n);
        }
        self.field(&c.summary);
    }
}

struct Reader<'a> {
    fields: std::str::Split<'a, char>,
}

impl Reader<'_> {
    fn text(&mut self) -> Option<String> {
        let f = self.fields.next()?;
        let mut out = String::with_capacity(f.len());
        let mut chars = f.chars();
        while let Some(c) = chars.next() {
            if c == '\\' {
                match chars.next()? {
                    't' => out.push('\t'),
                    'n' => out.push('\n'),
                    '\\' => out.push('\\'),
                    _ => return None,
                }
            } else {
                out.push(c);
            }
        }
        Some(out)
    }
    fn num(&mut self) -> Option<f64> {
        amp_format::parse_f64(self.fields.next()?)
    }
    fn count(&mut self) -> Option<usize> {
        self.fields.next()?.parse().ok()
    }
    /// A list's length. Nothing is reserved for it: every item takes at least one field, so a
    /// hostile length ends the reading when the fields run out instead of allocating.
    fn len(&mut self) -> Option<usize> {
        self.count()
    }
    fn flag(&mut self) -> Option<bool> {
        match self.fields.next()? {
            "1" => Some(true),
            "0" => Some(false),
            _ => None,
        }
    }
    fn axis(&mut self) -> Option<Axis> {
        let label = self.text()?;
        let log = self.flag()?;
        let (min, max) = (self.num()?, self.num()?);
        let n = self.len()?;
        let mut categories = Vec::new();
        for _ in 0..n {
            categories.push((self.num()?, self.text()?));
        }
        Some(Axis {
            label,
            log,
            categories,
            min,
            max,
        })
    }
    fn role(&mut self) -> Option<Role> {
        let kind = self.fields.next()?;
        let i = self.count()?;
        Some(match kind {
            "f" => Role::Family(i),
            "h" => Role::Highlight,
            "b" => Role::Bound(i),
            "hb" => Role::HighlightBound,
            "r" => Role::Reference,
            "s" => Role::Scatter(i),
            _ => return None,
        })
    }
    fn nums(&mut self) -> Option<Vec<f64>> {
        let n = self.len()?;
        (0..n).map(|_| self.num()).collect()
    }
    fn bands(&mut self) -> Option<Vec<Band>> {
        let n = self.len()?;
        let mut bands = Vec::new();
        for _ in 0..n {
            let label = self.text()?;
            let k = self.len()?;
            let points = (0..k)
                .map(|_| Some((self.num()?, self.num()?, self.num()?)))
                .collect::<Option<Vec<_>>>()?;
            bands.push(Band { label, points });
        }
        Some(bands)
    }
    fn boxes(&mut self) -> Option<Vec<BoxStat>> {
        let n = self.len()?;
        let mut boxes = Vec::new();
        for _ in 0..n {
            let x = self.num()?;
            let mut stats = [0.0; 5];
            for s in &mut stats {
                *s = self.num()?;
            }
            boxes.push(BoxStat {
                x,
                stats,
                color: self.count()?,
            });
        }
        Some(boxes)
    }
    fn series(&mut self) -> Option<Vec<Series>> {
        let n = self.len()?;
        let mut series = Vec::new();
        for _ in 0..n {
            let label = self.text()?;
            let role = self.role()?;
            let k = self.len()?;
            let points = (0..k)
                .map(|_| Some((self.num()?, self.num()?)))
                .collect::<Option<Vec<_>>>()?;
            series.push(Series {
                label,
                points,
                role,
            });
        }
        Some(series)
    }
    fn markers(&mut self) -> Option<Vec<Marker>> {
        let n = self.len()?;
        let mut markers = Vec::new();
        for _ in 0..n {
            markers.push(Marker {
                x: self.num()?,
                y: self.num()?,
                label: self.text()?,
            });
        }
        Some(markers)
    }
    fn chart(&mut self, depth: usize) -> Option<Chart> {
        let x = self.axis()?;
        let y = self.axis()?;
        let bands = self.bands()?;
        let boxes = self.boxes()?;
        let series = self.series()?;
        let markers = self.markers()?;
        let legend = match self.fields.next()? {
            "ul" => LegendCorner::UpperLeft,
            "ur" => LegendCorner::UpperRight,
            "ll" => LegendCorner::LowerLeft,
            "lr" => LegendCorner::LowerRight,
            _ => return None,
        };
        let heatmap = if self.flag()? {
            Some(Heatmap {
                x_edges: self.nums()?,
                y_edges: self.nums()?,
                values: self.nums()?,
                label: self.text()?,
                log_color: self.flag()?,
            })
        } else {
            None
        };
        let n = self.len()?;
        let mut outlines = Vec::new();
        for _ in 0..n {
            outlines.push(Outline {
                x: (self.num()?, self.num()?),
                y: (self.num()?, self.num()?),
                label: self.text()?,
            });
        }
        let lower = if self.flag()? {
            if depth >= MAX_PANELS {
                return None;
            }
            Some(Box::new(self.chart(depth + 1)?))
        } else {
            None
        };
        let n = self.len()?;
        let notes = (0..n).map(|_| self.text()).collect::<Option<Vec<_>>>()?;
        let summary = self.text()?;
        Some(Chart {
            x,
            y,
            bands,
            boxes,
            series,
            markers,
            legend,
            heatmap,
            outlines,
            lower,
            notes,
            summary,
        })
    }
}
