//! Colours for attribute kinds, shared by the renderer and the glTF materials.

/// Twelve colours that stay apart on white and on each other.
const COLOURS: [[u8; 3]; 12] = [
    [78, 121, 167],
    [242, 142, 43],
    [89, 161, 79],
    [225, 87, 89],
    [118, 183, 178],
    [237, 201, 72],
    [176, 122, 161],
    [255, 157, 167],
    [156, 117, 95],
    [186, 176, 172],
    [31, 119, 180],
    [148, 103, 189],
];

/// The colour of a kind index: the fixed twelve first, then hues spaced by the golden angle.
pub fn rgb(kind: u16) -> [u8; 3] {
    if let Some(c) = COLOURS.get(usize::from(kind)) {
        return *c;
    }
    let hue = (f32::from(kind) * 137.508) % 360.0;
    let lightness = if kind % 2 == 0 { 0.42 } else { 0.62 };
    hsl(hue, 0.65, lightness)
}

/// An HSL colour (hue in degrees, saturation and lightness in 0..=1) as RGB.
// The sector is `h / 60` in 0..6 and each channel is clamped to 0..=255 before it is narrowed.
#[allow(clippy::cast_possible_truncation)]
fn hsl(h: f32, s: f32, l: f32) -> [u8; 3] {
    let c = (1.0 - (2.0 * l - 1.0).abs()) * s;
    let x = c * (1.0 - ((h / 60.0) % 2.0 - 1.0).abs());
    let m = l - c / 2.0;
    let (r, g, b) = match (h / 60.0) as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        4 => (x, 0.0, c),
        _ => (c, 0.0, x),
    };
    [r, g, b].map(|v| ((v + m) * 255.0).round().clamp(0.0, 255.0) as u8)
}

/// The colour as `#rrggbb`.
pub fn hex(kind: u16) -> String {
    let [r, g, b] = rgb(kind);
    format!("#{r:02x}{g:02x}{b:02x}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_forty_kinds_have_distinct_colours() {
        let colours: std::collections::HashSet<[u8; 3]> = (0..40).map(rgb).collect();
        assert_eq!(colours.len(), 40);
        assert_eq!(hex(0), "#4e79a7");
    }
}
