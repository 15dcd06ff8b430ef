//! zlib as the Creation Kit uses it: [`deflate`] at a level, the level that reproduces a stored
//! stream ([`detect_level`]), and [`inflate`] to an exact size.
//!
//! Inflating goes through libdeflate, which takes about half of zlib's time on whole buffers,
//! and falls back to zlib's streaming inflate whenever libdeflate does not accept the stream
//! as it is, so that a refusal names what is wrong exactly as before.

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
    let mut out = vec![0u8; expected];
    let fast = libdeflater::Decompressor::new().zlib_decompress(stream, &mut out);
    // libdeflate checks the stream and its Adler-32 but not that the stream ends with the
    // input: the last four bytes being the checksum of what it gave says that it does (a stream
    // followed by more bytes ends with those bytes instead), short of a tail made to look like
    // the checksum, which round-trips all the same since streams are kept as stored.
    if fast == Ok(expected)
        && stream.len() >= 6
        && stream.get(stream.len() - 4..) == Some(&libdeflater::adler32(&out).to_be_bytes()[..])
    {
        return Ok(out);
    }
    inflate_streaming(stream, expected)
}

/// [`inflate`] through zlib's streaming inflate, which says precisely why a stream is refused.
fn inflate_streaming(stream: &[u8], expected: usize) -> core::result::Result<Vec<u8>, String> {
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

#[cfg(test)]
mod tests {
    use super::{deflate, inflate};

    fn sample() -> Vec<u8> {
        (0..5000u32).flat_map(|i| (i % 251).to_le_bytes()).collect()
    }

    #[test]
    fn a_whole_stream_inflates_to_its_data() {
        let data = sample();
        assert_eq!(inflate(&deflate(&data, 6), data.len()), Ok(data));
    }

    #[test]
    fn every_refusal_names_what_is_wrong() {
        let data = sample();
        let stream = deflate(&data, 6);
        let mut trailing = stream.clone();
        trailing.push(0);
        assert_eq!(
            inflate(&trailing, data.len()),
            Err("1 bytes follow the end of the zlib stream".into())
        );
        // A tail that repeats the checksum passes the quick test, not the streaming one's.
        let mut tail = stream.clone();
        tail.extend_from_slice(&stream[stream.len() - 4..]);
        assert_eq!(inflate(&tail, data.len()), Ok(data.clone()));
        assert_eq!(
            inflate(&stream, data.len() + 1),
            Err(format!(
                "zlib stream inflates to {} bytes, not the declared {}",
                data.len(),
                data.len() + 1
            ))
        );
        assert!(
            inflate(&stream[..stream.len() / 2], data.len())
                .is_err_and(|e| e.starts_with("zlib stream ends early"))
        );
        assert_eq!(
            inflate(&stream, data.len() - 1),
            Err(format!(
                "zlib stream inflates to more than the declared {} bytes",
                data.len() - 1
            ))
        );
        let mut corrupt = stream.clone();
        let last = corrupt.len() - 1;
        corrupt[last] ^= 1;
        assert!(inflate(&corrupt, data.len()).is_err_and(|e| e.contains("corrupt")));
        assert!(inflate(&[], 0).is_err());
    }
}
