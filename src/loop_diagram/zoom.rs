//! Zoom and pan over the loop's drawing: which part of the
//! drawing's coordinate space the SVG shows, as its `viewBox`. The wheel
//! (with Ctrl, or a trackpad's pinch), two fingers, the + / − / 0 keys and
//! the buttons zoom; a drag, one finger and the arrow keys pan. The view
//! never leaves the drawing, and never shows less than a quarter of it
//! across.

/// Most zoomed in: a quarter of the drawing's width across.
pub const MAX_SCALE: f64 = 4.0;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Zoom {
    /// The drawing's size, in its own units.
    width: f64,
    height: f64,
    /// 1 shows the whole drawing.
    scale: f64,
    /// The centre of the view, in drawing units.
    cx: f64,
    cy: f64,
}

impl Zoom {
    /// The whole drawing.
    pub fn whole(width: f64, height: f64) -> Self {
        Zoom {
            width,
            height,
            scale: 1.0,
            cx: width / 2.0,
            cy: height / 2.0,
        }
    }

    /// The whole drawing again.
    pub fn reset(self) -> Self {
        Zoom::whole(self.width, self.height)
    }

    pub fn scale(&self) -> f64 {
        self.scale
    }

    pub fn is_whole(&self) -> bool {
        self.scale <= 1.0
    }

    /// The view as an SVG `viewBox`: "x y width height".
    pub fn view_box(&self) -> String {
        let (x, y, w, h) = self.rect();
        format!("{x:.1} {y:.1} {w:.1} {h:.1}")
    }

    /// The view: its left, top, width and height in drawing units.
    pub fn rect(&self) -> (f64, f64, f64, f64) {
        let (w, h) = (self.width / self.scale, self.height / self.scale);
        (self.cx - w / 2.0, self.cy - h / 2.0, w, h)
    }

    /// Zoomed by `factor` (above 1 is in), keeping the drawing's point
    /// `(x, y)` where it is on screen (the pointer, the fingers' middle).
    pub fn zoomed(self, factor: f64, x: f64, y: f64) -> Self {
        if !factor.is_finite() || factor <= 0.0 {
            return self;
        }
        let scale = (self.scale * factor).clamp(1.0, MAX_SCALE);
        let kept = self.scale / scale;
        Zoom {
            scale,
            cx: x + (self.cx - x) * kept,
            cy: y + (self.cy - y) * kept,
            ..self
        }
        .kept_inside()
    }

    /// Moved by `(dx, dy)` drawing units (the view's centre moves so).
    pub fn panned(self, dx: f64, dy: f64) -> Self {
        Zoom {
            cx: self.cx + dx,
            cy: self.cy + dy,
            ..self
        }
        .kept_inside()
    }

    /// The view moved back inside the drawing.
    fn kept_inside(self) -> Self {
        let (half_w, half_h) = (
            self.width / self.scale / 2.0,
            self.height / self.scale / 2.0,
        );
        Zoom {
            cx: self.cx.clamp(half_w, self.width - half_w),
            cy: self.cy.clamp(half_h, self.height - half_h),
            ..self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_whole_drawing_by_default() {
        assert_eq!(
            Zoom::whole(1000.0, 640.0).view_box(),
            "0.0 0.0 1000.0 640.0"
        );
    }

    #[test]
    fn zooming_keeps_the_point_under_the_pointer() {
        let z = Zoom::whole(1000.0, 640.0).zoomed(2.0, 250.0, 160.0);
        let (x, y, w, h) = z.rect();
        assert_eq!((w, h), (500.0, 320.0));
        // 250 was a quarter across the view; it still is.
        assert!(((250.0 - x) / w - 0.25).abs() < 1e-9);
        assert!(((160.0 - y) / h - 0.25).abs() < 1e-9);
    }

    #[test]
    fn the_view_stays_inside_the_drawing_and_within_the_limits() {
        let z = Zoom::whole(1000.0, 640.0).zoomed(0.5, 0.0, 0.0);
        assert!(z.is_whole());
        let z = Zoom::whole(1000.0, 640.0).zoomed(100.0, 1000.0, 640.0);
        assert_eq!(z.scale(), MAX_SCALE);
        let (x, y, w, h) = z.panned(5000.0, 5000.0).rect();
        assert_eq!((x + w, y + h), (1000.0, 640.0));
        let (x, y, _, _) = z.panned(-5000.0, -5000.0).rect();
        assert_eq!((x, y), (0.0, 0.0));
        assert_eq!(z.zoomed(f64::NAN, 0.0, 0.0), z);
    }
}
