//! zlib as the Creation Kit uses it: [`deflate`] at a level, the level that reproduces a stored
//! stream ([`detect_level`]), and [`inflate`] to an exact size.

/// Compresses with C zlib at `level` (default window, memory level and strategy), as the
/// Creation Kit does.
pub fn deflate(data: &[u8], level: u32) -> Vec<u8> {
    let mut c = flate2::Compress::new(flate2::Compression::new(level.min(9)), true);
    // zlib's bound for one-shot compression, with room to spare.
    let bound = data.len() + data.len() / 1000 + 64;
    let mut out = Vec::with_capacity(bound);
    loop {
        let status = c.compress_vec(
            data.get(usize::try_from(c.total_in()).unwrap_or(usize::MAX)..)
                .unwrap_or(&[]),
            &mut out,
            flate2::FlushCompress::Finish,
        );
        match status {
            Ok(flate2::Status::StreamEnd) | Err(_) => break,
            Ok(_) => out.reserve(out.capacity().max(64)),
        }
    }
    out
}

/// The zlib level (0-9) that reproduces `stream` from `data`, if one does. The stream header's
/// level bits narrow the candidates; within them the highest level is tried first.
pub fn detect_level(data: &[u8], stream: &[u8]) -> Option<u32> {
    let flevel = stream.get(1).map(|b| b >> 6)?;
    let candidates: &[u32] = match flevel {
        3 => &[9, 8, 7],
        2 => &[6],
        1 => &[5, 4, 3, 2],
        _ => &[1, 0],
    };
    candidates
        .iter()
        .copied()
        .find(|&level| deflate(data, level) == stream)
}

/// Inflates a zlib stream that must fill exactly `expected` bytes and end with the input.
pub(crate) fn inflate(stream: &[u8], expected: usize) -> core::result::Result<Vec<u8>, String> {
    let mut d = flate2::Decompress::new(true);
    let mut out = Vec::with_capacity(expected);
    // With room for exactly `expected` bytes, a longer stream stops short of its end.
    let status = d
        .decompress_vec(stream, &mut out, flate2::FlushDecompress::Finish)
        .map_err(|e| format!("zlib stream is corrupt ({e})"))?;
    if status != flate2::Status::StreamEnd {
        return Err(if out.len() == expected {
            format!("zlib stream inflates to more than the declared {expected} bytes")
        } else {
            format!(
                "zlib stream ends early ({} of the declared {expected} bytes)",
                out.len()
            )
        });
    }
    if out.len() != expected {
        return Err(format!(
            "zlib stream inflates to {} bytes, not the declared {expected}",
            out.len()
        ));
    }
    let used = usize::try_from(d.total_in()).unwrap_or(usize::MAX);
    if used != stream.len() {
        return Err(format!(
            "{} bytes follow the end of the zlib stream",
            stream.len().saturating_sub(used)
        ));
    }
    Ok(out)
}
