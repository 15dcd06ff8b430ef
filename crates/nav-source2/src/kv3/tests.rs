//! Decoder tests on hand-made blobs: compressed variants of the encoder's output, and hostile
//! headers and type streams that must fail quickly, without panicking, and with the exact error.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use super::*;
use crate::samples::kv3_v5;

fn doc() -> Kv3Value {
    let spot = Kv3Value::Object(vec![
        ("id".into(), Kv3Value::UInt(7)),
        (
            "pos".into(),
            Kv3Value::Array(vec![
                Kv3Value::Float(1.5),
                Kv3Value::Float(-2.0),
                Kv3Value::Double(3.25),
            ]),
        ),
        ("name".into(), Kv3Value::String("spot".into())),
        ("on".into(), Kv3Value::Bool(true)),
        ("n".into(), Kv3Value::Int(-5)),
        ("none".into(), Kv3Value::Null),
    ]);
    Kv3Value::Object(vec![("arealist".into(), Kv3Value::Array(vec![spot; 40]))])
}

fn word(b: &mut [u8], at: usize, v: u32) {
    b[at..at + 4].copy_from_slice(&v.to_le_bytes());
}

/// Recompresses both buffers of an uncompressed v5 blob.
fn recompress(plain: &Kv3Blob, method: u32) -> Kv3Blob {
    let h = plain.header().unwrap();
    let [u1, _, u2, _] = h.buffers.map(|v| v as usize);
    let body = &plain.bytes[120..];
    let (b1, b2) = body.split_at(u1);
    assert_eq!(b2.len(), u2);
    let pack = |b: &[u8]| match method {
        1 => lz4_flex::block::compress(b),
        _ => zstd::bulk::compress(b, 1).unwrap(),
    };
    let (c1, c2) = (pack(b1), pack(b2));
    let mut bytes = plain.bytes[..120].to_vec();
    word(&mut bytes, 20, method);
    if method == 1 {
        bytes[26..28].copy_from_slice(&16384u16.to_le_bytes());
    }
    word(&mut bytes, 52, (c1.len() + c2.len()) as u32);
    word(&mut bytes, 76, c1.len() as u32);
    word(&mut bytes, 84, c2.len() as u32);
    bytes.extend_from_slice(&c1);
    bytes.extend_from_slice(&c2);
    Kv3Blob { bytes }
}

#[test]
fn compressed_v5_decodes_like_uncompressed() {
    let plain = kv3_v5(CUSTOM_DATA_FORMAT, &doc());
    let expected = plain.decode().unwrap();
    assert_eq!(expected.root, doc());
    for method in [1, 2] {
        let packed = recompress(&plain, method);
        assert!(
            packed.bytes.len() < plain.bytes.len(),
            "method {method} compresses"
        );
        let h = packed.header().unwrap();
        assert_eq!(h.header_len + h.body_len, packed.bytes.len());
        assert_eq!(packed.decode().unwrap(), expected, "method {method}");
    }
}

#[test]
fn a_claimed_size_over_the_limit_is_refused_before_allocating() {
    let plain = kv3_v5(GENERIC_FORMAT, &doc());
    let mut packed = recompress(&plain, 2);
    word(&mut packed.bytes, 80, 200 * 1024 * 1024);
    let err = packed.decode().unwrap_err().to_string();
    assert!(err.contains("over the limit"), "{err}");
    let limit = decompression_limit(packed.bytes.len());
    assert!(limit < 200 * 1024 * 1024);
}

#[test]
fn a_typed_array_of_billions_of_nulls_runs_out_of_budget() {
    // Root: typed array (10) of nulls (1), count u32::MAX in the 4-byte lane.
    let mut b = kv3_v5(GENERIC_FORMAT, &Kv3Value::Array(vec![Kv3Value::Null])).bytes;
    let h = Kv3Header::read_blob(&b).unwrap();
    let body = 120 + h.buffers[0] as usize;
    // Buffer 2: lanes (4-byte lane holds the count), then types [8, 1], then the trailer.
    let types_at = b.len() - 4 - 2;
    assert_eq!(&b[types_at..types_at + 2], &[8, 1]);
    b[types_at] = 10;
    let count_at = body;
    assert_eq!(&b[count_at..count_at + 4], &1u32.to_le_bytes());
    word(&mut b, count_at, u32::MAX);
    let err = decode(&b).unwrap_err().to_string();
    assert!(
        err.contains("more values than the buffer sizes allow"),
        "{err}"
    );
}

#[test]
fn deep_nesting_is_refused() {
    let mut v = Kv3Value::Null;
    for _ in 0..(DECODE_DEPTH + 5) {
        v = Kv3Value::Array(vec![v]);
    }
    let err = kv3_v5(GENERIC_FORMAT, &v).decode().unwrap_err().to_string();
    assert!(err.contains("nesting deeper than 64"), "{err}");
}

#[test]
fn every_byte_flip_decodes_or_fails_cleanly() {
    let plain = kv3_v5(CUSTOM_DATA_FORMAT, &doc());
    for method in [0, 1, 2] {
        let blob = if method == 0 {
            plain.clone()
        } else {
            recompress(&plain, method)
        };
        let (mut same, mut other, mut refused) = (0usize, 0usize, 0usize);
        for i in 0..blob.bytes.len() {
            for flip in [0x01u8, 0x80, 0xff] {
                let mut b = blob.bytes.clone();
                b[i] ^= flip;
                match decode(&b) {
                    Ok(d) if d.root == doc() => same += 1,
                    Ok(_) => other += 1,
                    Err(e) => {
                        // Every refusal is this format's, and says where.
                        let text = e.to_string();
                        assert!(
                            text.starts_with("nav-source2: kv3"),
                            "{i} ^ {flip:#x}: {text}"
                        );
                        assert!(
                            e.offset().is_some_and(|o| o <= b.len()),
                            "{i} ^ {flip:#x}: {text}"
                        );
                        refused += 1;
                    }
                }
            }
        }
        println!(
            "method {method}: {same} flips decode the same, {other} another value, {refused} refused"
        );
        // The counts are the decoder's behaviour on this blob: a deliberate change to the
        // decoder or the encoder updates them.
        let expected = match method {
            0 => (193, 4334, 5379),
            1 => (166, 132, 494),
            _ => (161, 130, 510),
        };
        assert_eq!((same, other, refused), expected, "method {method}");
    }
    // The format GUID does not change how the body decodes: every flip in it gives the document.
    let flipped = |i: usize, flip: u8| {
        let mut b = plain.bytes.clone();
        b[i] ^= flip;
        decode(&b)
    };
    for i in 4..20 {
        for flip in [0x01u8, 0x80, 0xff] {
            assert_eq!(flipped(i, flip).unwrap().root, doc(), "{i} ^ {flip:#x}");
        }
    }
    // The header fields are refused by name.
    let refusal = |i: usize, flip: u8| flipped(i, flip).unwrap_err().to_string();
    let not_kv3 = "is not a binary KV3 blob of version 2 to 5 (bytes 02..05 33 56 4b)";
    assert_eq!(
        refusal(1, 0x01),
        format!("nav-source2: kv3 magic: magic [05 32 56 4b] at offset 0x0 {not_kv3}")
    );
    assert_eq!(
        refusal(0, 0xff),
        format!("nav-source2: kv3 magic: magic [fa 33 56 4b] at offset 0x0 {not_kv3}")
    );
    // (The offset is the end of the header, where the check is made, not the field's own.)
    assert_eq!(
        refusal(20, 0x80),
        "nav-source2: kv3 compression: compression method 128 is not 0, 1 (LZ4) or 2 (zstd) at offset 0x78"
    );
}

#[test]
fn guids_read_as_usual() {
    assert_eq!(
        format_guid(&CUSTOM_DATA_FORMAT),
        "7300f029-8e00-45f9-b9c3-32e1403c9620"
    );
    assert_eq!(
        format_guid(&GENERIC_FORMAT),
        "7412167c-06e9-4698-aff2-e63eb59037e7"
    );
}
