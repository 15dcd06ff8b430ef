//! Reading the values of a [`super::Flat`] in place: [`Value`], one value's bytes, with its
//! elements, fields and scalars, and [`show`], a value as short text.

use std::fmt::Write as _;

use super::tags::{
    BYTES, F32, F64, FALSE, INT, MAP, SEQ, STR, TAG, TRUE, UINT, UNIT, VARIANT, WIDE,
};

/// One encoded value: exactly its bytes, tag first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Value<'f>(&'f [u8]);

/// A LEB128 number at the start of `b`, and the bytes after it.
fn varint(b: &[u8]) -> Option<(u64, &[u8])> {
    let mut v = 0u64;
    for (i, byte) in b.iter().enumerate().take(10) {
        v |= u64::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            return Some((v, b.get(i + 1..)?));
        }
    }
    None
}

/// A name index at the start of `b`, and the bytes after it.
fn name_at(b: &[u8]) -> Option<(u32, &[u8])> {
    let (v, rest) = varint(b)?;
    Some((u32::try_from(v).ok()?, rest))
}

/// A length at the start of `b`, and the bytes after it.
fn length_at(b: &[u8]) -> Option<(usize, &[u8])> {
    let (n, rest) = varint(b)?;
    Some((usize::try_from(n).ok()?, rest))
}

/// The length in bytes of the value at the start of `b`.
fn extent(b: &[u8]) -> Option<usize> {
    let (&tag, body) = b.split_first()?;
    let payload = match tag {
        UNIT | FALSE | TRUE => 0,
        INT | UINT => {
            let (_, rest) = varint(body)?;
            body.len() - rest.len()
        }
        WIDE => 16,
        F32 => 4,
        F64 => 8,
        STR | BYTES => {
            let (n, rest) = varint(body)?;
            (body.len() - rest.len()).checked_add(usize::try_from(n).ok()?)?
        }
        SEQ | MAP => {
            let (n, rest) = length_at(body)?;
            (body.len() - rest.len()).checked_add(n)?
        }
        TAG => {
            let (_, rest) = name_at(body)?;
            body.len() - rest.len()
        }
        VARIANT => {
            let (_, rest) = name_at(body)?;
            (body.len() - rest.len()).checked_add(extent(rest)?)?
        }
        _ => return None,
    };
    (payload < b.len()).then_some(1 + payload)
}

/// The value at the start of `b`, and the bytes after it.
fn split(b: &[u8]) -> Option<(Value<'_>, &[u8])> {
    let (v, rest) = b.split_at_checked(extent(b)?)?;
    Some((Value(v), rest))
}

impl<'f> Value<'f> {
    /// The value at the start of `b` (`None` if the bytes are not one).
    pub(super) fn at(b: &'f [u8]) -> Option<Self> {
        split(b).map(|(v, _)| v)
    }

    /// Its bytes.
    pub(super) fn raw(self) -> &'f [u8] {
        self.0
    }

    /// Its tag.
    pub(super) fn tag(self) -> u8 {
        self.0.first().copied().unwrap_or(UNIT)
    }

    fn body(self) -> &'f [u8] {
        self.0.get(1..).unwrap_or_default()
    }

    /// The contents after the length, of a value tagged `tag` ([`SEQ`] or [`MAP`]); none for
    /// any other value.
    fn contents(self, tag: u8) -> &'f [u8] {
        if self.tag() == tag && matches!(tag, SEQ | MAP) {
            length_at(self.body()).map_or(&[], |(_, rest)| rest)
        } else {
            &[]
        }
    }

    /// Whether it is a plain value (not a sequence, map or variant with content).
    pub(super) fn is_plain(self) -> bool {
        !matches!(self.tag(), SEQ | MAP | VARIANT)
    }

    /// The elements of a sequence (none for anything else).
    pub(super) fn items(self) -> impl Iterator<Item = Value<'f>> {
        let mut rest = self.contents(SEQ);
        std::iter::from_fn(move || {
            let (v, r) = split(rest)?;
            rest = r;
            Some(v)
        })
    }

    /// The fields of a map, name index and value (none for anything else).
    pub(super) fn fields(self) -> impl Iterator<Item = (u32, Value<'f>)> {
        let mut rest = self.contents(MAP);
        std::iter::from_fn(move || {
            let (k, r) = name_at(rest)?;
            let (v, r) = split(r)?;
            rest = r;
            Some((k, v))
        })
    }

    /// The value of the first field named by index `name`, of a map.
    pub(super) fn field(self, name: u32) -> Option<Value<'f>> {
        self.fields().find(|(k, _)| *k == name).map(|(_, v)| v)
    }

    /// The name of a unit variant.
    pub(super) fn name(self) -> Option<u32> {
        match self.tag() {
            TAG => name_at(self.body()).map(|(n, _)| n),
            _ => None,
        }
    }

    /// The name and content of a variant with content.
    pub(super) fn variant(self) -> Option<(u32, Value<'f>)> {
        match self.tag() {
            VARIANT => {
                let (n, rest) = name_at(self.body())?;
                Some((n, Value::at(rest)?))
            }
            _ => None,
        }
    }

    /// An integer's value.
    pub(super) fn integer(self) -> Option<i128> {
        let body = self.body();
        match self.tag() {
            INT => {
                let (z, _) = varint(body)?;
                let half = i128::from(z >> 1);
                Some(if z & 1 == 0 { half } else { -half - 1 })
            }
            UINT => Some(varint(body)?.0.into()),
            WIDE => Some(i128::from_le_bytes(*body.first_chunk::<16>()?)),
            _ => None,
        }
    }

    /// A FormID: hex digits, as a Skyrim model writes it (`"0410E930"`), or an integer.
    pub(super) fn form_id(self) -> Option<i128> {
        match self.tag() {
            STR => core::str::from_utf8(self.text())
                .ok()
                .and_then(|s| u32::from_str_radix(s, 16).ok())
                .map(i128::from),
            _ => self.integer(),
        }
    }

    /// The bytes of text or raw bytes.
    fn text(self) -> &'f [u8] {
        match self.tag() {
            STR | BYTES => varint(self.body())
                .and_then(|(n, rest)| rest.get(..usize::try_from(n).ok()?))
                .unwrap_or_default(),
            _ => &[],
        }
    }
}

/// The longest string shown whole in a change.
const MAX_TEXT: usize = 48;

/// An `f32` by its bits as text (NaNs with their bits).
pub(super) fn float32(bits: u32) -> String {
    let v = f32::from_bits(bits);
    if v.is_nan() {
        format!("NaN ({bits:#010x})")
    } else {
        format!("{v:?}")
    }
}

/// An `f64` by its bits as text (NaNs with their bits).
pub(super) fn float64(bits: u64) -> String {
    let v = f64::from_bits(bits);
    if v.is_nan() {
        format!("NaN ({bits:#018x})")
    } else {
        format!("{v:?}")
    }
}

/// Text as shown in a change: quoted, long text cut.
pub(super) fn quoted(v: &str) -> String {
    let count = v.chars().count();
    if count > MAX_TEXT {
        let head: String = v.chars().take(MAX_TEXT).collect();
        format!("{head:?}… ({count} characters)")
    } else {
        format!("{v:?}")
    }
}

/// A value as one short piece of text, as [`super::show`] shows its tree: plain values in full
/// (long strings cut), compound ones summarised. `names` is the table of names.
pub(super) fn show(v: Value<'_>, names: &[std::borrow::Cow<'static, str>]) -> String {
    let name = |i: u32| -> &str {
        usize::try_from(i)
            .ok()
            .and_then(|i| names.get(i))
            .map_or("?", |n| n.as_ref())
    };
    let body = v.body();
    match v.tag() {
        UNIT => "null".into(),
        FALSE => "false".into(),
        TRUE => "true".into(),
        INT | UINT | WIDE => v.integer().map(|i| i.to_string()).unwrap_or_default(),
        F32 => body
            .first_chunk::<4>()
            .map(|b| float32(u32::from_le_bytes(*b)))
            .unwrap_or_default(),
        F64 => body
            .first_chunk::<8>()
            .map(|b| float64(u64::from_le_bytes(*b)))
            .unwrap_or_default(),
        STR => quoted(&String::from_utf8_lossy(v.text())),
        BYTES => format!("<{} bytes>", v.text().len()),
        SEQ => {
            let short: Vec<Value<'_>> = v.items().take(17).collect();
            if short.len() <= 16 && short.iter().all(|e| e.is_plain()) {
                let mut s = String::from("[");
                for (i, e) in short.iter().enumerate() {
                    if i > 0 {
                        s.push_str(", ");
                    }
                    s.push_str(&show(*e, names));
                }
                s.push(']');
                s
            } else {
                format!("[{} items]", v.items().count())
            }
        }
        MAP => format!("{{{} fields}}", v.fields().count()),
        TAG => v.name().map(name).unwrap_or_default().to_string(),
        VARIANT => {
            let mut s = String::new();
            if let Some((n, inner)) = v.variant() {
                let _ = write!(s, "{} {}", name(n), show(inner, names));
            }
            s
        }
        _ => String::new(),
    }
}
