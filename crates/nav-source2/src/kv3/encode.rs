//! A minimal KV3 encoder: an uncompressed KV3 version 5 blob of a [`Kv3Value`], in the layout the
//! decoder reads, so that samples and new meshes can carry documents without copying a game
//! file. It writes nothing the games need back: the model keeps every blob it read as bytes.

use super::decode::Kv3Value;
use super::header::TRAILER;

#[derive(Default)]
struct Encoder {
    strings: Vec<String>,
    b1: Vec<u8>,
    b2: Vec<u8>,
    b4: Vec<u8>,
    b8: Vec<u8>,
    types: Vec<u8>,
    objects: Vec<u32>,
}

impl Encoder {
    fn string_id(&mut self, s: &str) -> u32 {
        let i = match self.strings.iter().position(|x| x == s) {
            Some(i) => i,
            None => {
                self.strings.push(s.to_string());
                self.strings.len() - 1
            }
        };
        u32::try_from(i).unwrap_or(u32::MAX)
    }

    fn value(&mut self, v: &Kv3Value) {
        match v {
            Kv3Value::Null => self.types.push(1),
            Kv3Value::Bool(b) => self.types.push(if *b { 13 } else { 14 }),
            Kv3Value::Int(i) => {
                self.types.push(3);
                self.b8.extend_from_slice(&i.to_le_bytes());
            }
            Kv3Value::UInt(u) => {
                self.types.push(4);
                self.b8.extend_from_slice(&u.to_le_bytes());
            }
            Kv3Value::Float(x) => {
                self.types.push(19);
                self.b4.extend_from_slice(&x.to_le_bytes());
            }
            Kv3Value::Double(x) => {
                self.types.push(5);
                self.b8.extend_from_slice(&x.to_le_bytes());
            }
            Kv3Value::String(s) => {
                self.types.push(6);
                let id = self.string_id(s);
                self.b4.extend_from_slice(&id.to_le_bytes());
            }
            Kv3Value::Array(items) => {
                self.types.push(8);
                let n = u32::try_from(items.len()).unwrap_or(u32::MAX);
                self.b4.extend_from_slice(&n.to_le_bytes());
                for i in items {
                    self.value(i);
                }
            }
            Kv3Value::Object(members) => {
                self.types.push(9);
                self.objects
                    .push(u32::try_from(members.len()).unwrap_or(u32::MAX));
                for (k, m) in members {
                    // The member's type byte comes before its name id.
                    let at = self.types.len();
                    let id = self.string_id(k);
                    self.b4.extend_from_slice(&id.to_le_bytes());
                    self.value(m);
                    debug_assert!(self.types.len() > at);
                }
            }
        }
    }
}

fn lanes(out: &mut Vec<u8>, b1: &[u8], b2: &[u8], b4: &[u8], b8: &[u8]) {
    out.extend_from_slice(b1);
    for (width, lane) in [(2usize, b2), (4, b4), (8, b8)] {
        if !lane.is_empty() {
            out.resize(out.len().next_multiple_of(width), 0);
            out.extend_from_slice(lane);
        }
    }
}

fn u32_of(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// The bytes of an uncompressed KV3 version 5 blob holding `root`, with this format GUID.
pub(super) fn kv3_v5(format: [u8; 16], root: &Kv3Value) -> Vec<u8> {
    let mut e = Encoder::default();
    e.value(root);
    // Buffer 1: the strings in the 1-byte lane, and the string count first in the 4-byte lane.
    let mut strings = Vec::new();
    for s in &e.strings {
        strings.extend_from_slice(s.as_bytes());
        strings.push(0);
    }
    let mut buffer1 = Vec::new();
    lanes(
        &mut buffer1,
        &strings,
        &[],
        &u32_of(e.strings.len()).to_le_bytes(),
        &[],
    );
    // Buffer 2: object lengths, the main lanes, the types, the trailer.
    let mut buffer2 = Vec::new();
    for n in &e.objects {
        buffer2.extend_from_slice(&n.to_le_bytes());
    }
    lanes(&mut buffer2, &e.b1, &e.b2, &e.b4, &e.b8);
    buffer2.extend_from_slice(&e.types);
    buffer2.extend_from_slice(&TRAILER.to_le_bytes());
    let mut h = Vec::with_capacity(120 + buffer1.len() + buffer2.len());
    h.extend_from_slice(&[5, 0x33, 0x56, 0x4b]);
    h.extend_from_slice(&format);
    let words = [
        0u32, // compression: none
        0,    // dictionary id and frame size (two u16)
        u32_of(strings.len()),
        1,
        0,
        u32_of(e.types.len()),
        0, // objects and arrays (two u16), unused by readers
        u32_of(buffer1.len() + buffer2.len()),
        u32_of(buffer1.len() + buffer2.len()),
        0, // blocks
        0, // blob bytes
        0, // bytes2
        0, // block sizes
        u32_of(buffer1.len()),
        0,
        u32_of(buffer2.len()),
        0,
        u32_of(e.b1.len()),
        u32_of(e.b2.len() / 2),
        u32_of(e.b4.len() / 4),
        u32_of(e.b8.len() / 8),
        1,
        u32_of(e.objects.len()),
        0,
        0,
    ];
    for w in words {
        h.extend_from_slice(&w.to_le_bytes());
    }
    h.extend_from_slice(&buffer1);
    h.extend_from_slice(&buffer2);
    h
}
