//! How the lines of [`super::apply`] name what changed: counts and the first few indices.

/// `3 nodes`, `1 node`.
pub(super) fn count(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// The first few indices, `4, 9, 12, ...`.
pub(super) fn shown<'a>(indices: impl Iterator<Item = &'a usize>) -> String {
    let all: Vec<String> = indices.map(usize::to_string).collect();
    let more = if all.len() > 8 { ", ..." } else { "" };
    format!(
        "{}{more}",
        all.iter().take(8).cloned().collect::<Vec<_>>().join(", ")
    )
}
