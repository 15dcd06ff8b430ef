//! Top-down pictures of a [`Geometry`]: SVG for documents and the web, PNG for everything else.
//!
//! Polygons are filled with their kind's colour, graph links drawn as lines and nodes as dots,
//! north up. A legend below the plan names every kind with its colour and how many polygons,
//! links and nodes have it.

use std::fmt::Write as _;

use nav_core::geometry::Geometry;
use tiny_skia::{Color, FillRule, Paint, PathBuilder, Pixmap, Rect, Stroke, Transform};

use crate::{font, palette};

/// Largest picture side accepted, in pixels.
pub const MAX_SIZE: u32 = 8192;
const MARGIN: f32 = 16.0;
const LEGEND_SCALE: u32 = 2;
const LEGEND_LINE: u32 = (font::HEIGHT + 4) * LEGEND_SCALE;

/// Where plan coordinates land in the picture, and how big it is.
struct Frame {
    x0: f32,
    y1: f32,
    scale: f32,
    plan_w: u32,
    plan_h: u32,
    legend: Vec<(u16, String)>,
}

impl Frame {
    // The picture's sides are at most MAX_SIZE plus the margins: far inside u32.
    #[allow(clippy::cast_possible_truncation)]
    fn new(g: &Geometry, size: u32) -> Frame {
        let size = size.clamp(64, MAX_SIZE);
        let ((x0, y0), (x1, y1)) = g.plan_bounds().unwrap_or(((0.0, 0.0), (1.0, 1.0)));
        let (w, h) = ((x1 - x0).max(1e-3), (y1 - y0).max(1e-3));
        let inner = size as f32 - 2.0 * MARGIN;
        let scale = inner / w.max(h);
        let plan_w = (w * scale + 2.0 * MARGIN).ceil() as u32;
        let plan_h = (h * scale + 2.0 * MARGIN).ceil() as u32;
        Frame {
            x0,
            y1,
            scale,
            plan_w: plan_w.max(64),
            plan_h: plan_h.max(64),
            legend: legend(g),
        }
    }

    fn height(&self) -> u32 {
        self.plan_h + LEGEND_LINE * u32::try_from(self.legend.len()).unwrap_or(0) + 8
    }

    fn width(&self) -> u32 {
        let text = self
            .legend
            .iter()
            .map(|(_, t)| font::text_width(t, LEGEND_SCALE) + 40)
            .max()
            .unwrap_or(0);
        self.plan_w.max(text)
    }

    fn at(&self, g: &Geometry, p: [f32; 3]) -> (f32, f32) {
        let (x, y) = g.plan(p);
        (
            MARGIN + (x - self.x0) * self.scale,
            MARGIN + (self.y1 - y) * self.scale,
        )
    }
}

/// One legend line per kind that is used: `walk: 1234 polygons, 88 links`.
fn legend(g: &Geometry) -> Vec<(u16, String)> {
    let mut out = Vec::new();
    for (k, name) in g.kinds.iter().enumerate() {
        let kind = u16::try_from(k).unwrap_or(u16::MAX);
        let counts = [
            (
                g.polygons.iter().filter(|p| p.kind == kind).count(),
                "polygons",
            ),
            (g.links.iter().filter(|l| l.kind == kind).count(), "links"),
            (g.nodes.iter().filter(|n| n.kind == kind).count(), "nodes"),
        ];
        let parts: Vec<String> = counts
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, what)| format!("{n} {what}"))
            .collect();
        if !parts.is_empty() {
            out.push((kind, format!("{name}: {}", parts.join(", "))));
        }
    }
    out
}

fn finite(p: (f32, f32)) -> bool {
    p.0.is_finite() && p.1.is_finite()
}

/// The picture as SVG text.
pub fn to_svg(g: &Geometry, size: u32) -> String {
    let f = Frame::new(g, size);
    let (w, h) = (f.width(), f.height());
    let mut out = String::new();
    let _ = writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}">"#
    );
    let _ = writeln!(out, r#"<rect width="{w}" height="{h}" fill="white"/>"#);
    let _ = writeln!(out, r#"<g stroke-width="0.5" stroke-linejoin="round">"#);
    for p in &g.polygons {
        let pts: Vec<(f32, f32)> = p
            .vertices
            .iter()
            .filter_map(|v| g.vertices.get(*v as usize))
            .map(|v| f.at(g, *v))
            .collect();
        if pts.len() < 3 || !pts.iter().all(|p| finite(*p)) {
            continue;
        }
        let pts: Vec<String> = pts.iter().map(|(x, y)| format!("{x:.1},{y:.1}")).collect();
        let c = palette::hex(p.kind);
        let _ = writeln!(
            out,
            r#"<polygon points="{}" fill="{c}" fill-opacity="0.75" stroke="{c}"/>"#,
            pts.join(" ")
        );
    }
    let _ = writeln!(out, "</g>");
    let _ = writeln!(
        out,
        r#"<g stroke-width="1" stroke-opacity="0.8" stroke-linecap="round">"#
    );
    for l in &g.links {
        let (Some(a), Some(b)) = (g.nodes.get(l.from as usize), g.nodes.get(l.to as usize)) else {
            continue;
        };
        let ((x1, y1), (x2, y2)) = (f.at(g, a.position), f.at(g, b.position));
        if finite((x1, y1)) && finite((x2, y2)) {
            let _ = writeln!(
                out,
                r#"<line x1="{x1:.1}" y1="{y1:.1}" x2="{x2:.1}" y2="{y2:.1}" stroke="{}"/>"#,
                palette::hex(l.kind)
            );
        }
    }
    let _ = writeln!(out, "</g>");
    let _ = writeln!(out, "<g>");
    for n in &g.nodes {
        let (x, y) = f.at(g, n.position);
        if finite((x, y)) {
            let _ = writeln!(
                out,
                r#"<circle cx="{x:.1}" cy="{y:.1}" r="2" fill="{}"/>"#,
                palette::hex(n.kind)
            );
        }
    }
    let _ = writeln!(out, "</g>");
    let _ = writeln!(
        out,
        r#"<g font-family="monospace" font-size="{}">"#,
        font::HEIGHT * LEGEND_SCALE + 2
    );
    for (i, (kind, text)) in f.legend.iter().enumerate() {
        let y = f.plan_h + LEGEND_LINE * u32::try_from(i).unwrap_or(0);
        let _ = writeln!(
            out,
            r#"<rect x="{MARGIN}" y="{y}" width="{s}" height="{s}" fill="{}"/><text x="{tx}" y="{ty}">{}</text>"#,
            palette::hex(*kind),
            escape(text),
            s = font::HEIGHT * LEGEND_SCALE,
            tx = MARGIN + 24.0,
            ty = y + font::HEIGHT * LEGEND_SCALE,
        );
    }
    let _ = writeln!(out, "</g>\n</svg>");
    out
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

fn colour(kind: u16, alpha: u8) -> Color {
    let [r, g, b] = palette::rgb(kind);
    Color::from_rgba8(r, g, b, alpha)
}

/// The picture as PNG bytes.
pub fn to_png(g: &Geometry, size: u32) -> Result<Vec<u8>, String> {
    let f = Frame::new(g, size);
    let mut pm = Pixmap::new(f.width(), f.height()).ok_or("picture size out of range")?;
    pm.fill(Color::WHITE);
    let mut paint = Paint {
        anti_alias: true,
        ..Paint::default()
    };
    let thin = Stroke {
        width: 0.5,
        ..Stroke::default()
    };
    for p in &g.polygons {
        let pts: Vec<(f32, f32)> = p
            .vertices
            .iter()
            .filter_map(|v| g.vertices.get(*v as usize))
            .map(|v| f.at(g, *v))
            .collect();
        if pts.len() < 3 || !pts.iter().all(|p| finite(*p)) {
            continue;
        }
        let mut pb = PathBuilder::new();
        pb.move_to(pts[0].0, pts[0].1);
        for (x, y) in &pts[1..] {
            pb.line_to(*x, *y);
        }
        pb.close();
        if let Some(path) = pb.finish() {
            paint.set_color(colour(p.kind, 190));
            pm.fill_path(
                &path,
                &paint,
                FillRule::Winding,
                Transform::identity(),
                None,
            );
            paint.set_color(colour(p.kind, 255));
            pm.stroke_path(&path, &paint, &thin, Transform::identity(), None);
        }
    }
    let line = Stroke {
        width: 1.0,
        ..Stroke::default()
    };
    for l in &g.links {
        let (Some(a), Some(b)) = (g.nodes.get(l.from as usize), g.nodes.get(l.to as usize)) else {
            continue;
        };
        let ((x1, y1), (x2, y2)) = (f.at(g, a.position), f.at(g, b.position));
        if !(finite((x1, y1)) && finite((x2, y2))) {
            continue;
        }
        let mut pb = PathBuilder::new();
        pb.move_to(x1, y1);
        pb.line_to(x2, y2);
        if let Some(path) = pb.finish() {
            paint.set_color(colour(l.kind, 200));
            pm.stroke_path(&path, &paint, &line, Transform::identity(), None);
        }
    }
    for n in &g.nodes {
        let (x, y) = f.at(g, n.position);
        if let Some(path) = finite((x, y))
            .then(|| PathBuilder::from_circle(x, y, 2.0))
            .flatten()
        {
            paint.set_color(colour(n.kind, 255));
            pm.fill_path(
                &path,
                &paint,
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
    }
    paint.anti_alias = false;
    let s = font::HEIGHT * LEGEND_SCALE;
    for (i, (kind, text)) in f.legend.iter().enumerate() {
        let y = f.plan_h + LEGEND_LINE * u32::try_from(i).unwrap_or(0);
        paint.set_color(colour(*kind, 255));
        if let Some(r) = Rect::from_xywh(MARGIN, y as f32, s as f32, s as f32) {
            pm.fill_rect(r, &paint, Transform::identity(), None);
        }
        paint.set_color(Color::BLACK);
        for (px, py) in font::pixels(text, LEGEND_SCALE) {
            let (x, y) = (MARGIN + 24.0 + px as f32, (y + py) as f32);
            if let Some(r) = Rect::from_xywh(x, y, LEGEND_SCALE as f32, LEGEND_SCALE as f32) {
                pm.fill_rect(r, &paint, Transform::identity(), None);
            }
        }
    }
    pm.encode_png().map_err(|e| format!("PNG: {e}"))
}
