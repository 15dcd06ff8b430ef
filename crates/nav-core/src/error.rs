//! The one error type of navkit.
//!
//! An [`Error`] names the format, a field path (`area 12 connections[2]`) and an [`ErrorKind`]
//! that carries the byte offset. Its `Display` is one line meant for people:
//!
//! ```text
//! nav-source: area 12 connections[2]: count 4294967295 at offset 0x1a2c exceeds the 8 bytes left
//! ```
//!
//! The error is boxed, so a `Result<&T, Error>` stays two words wide on the hot path.

use core::fmt;

/// What went wrong, with the byte offset where it applies.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The input ends before a fixed-size field does.
    #[error("{needed} bytes needed at offset {offset:#x}, only {left} left")]
    Truncated {
        /// Where the field starts.
        offset: usize,
        /// Bytes the field needs.
        needed: usize,
        /// Bytes left from `offset` to the end of the input.
        left: usize,
    },
    /// A stored count asks for more records than the bytes that remain could hold.
    #[error(
        "count {count} at offset {offset:#x} exceeds the {left} bytes left ({record_size} bytes each)"
    )]
    CountTooLarge {
        /// The count as stored.
        count: u64,
        /// Size of one record in bytes.
        record_size: usize,
        /// Where the records would start (or where the count is stored).
        offset: usize,
        /// Bytes left from `offset` to the end of the input.
        left: usize,
    },
    /// The file does not start with the expected signature.
    #[error("magic {} at offset {offset:#x} is not {expected}", show_bytes(found))]
    BadMagic {
        /// Where the magic sits.
        offset: usize,
        /// The bytes found there (at most 16).
        found: Vec<u8>,
        /// What was expected, in words.
        expected: &'static str,
    },
    /// The version is outside what the crate reads.
    #[error("version {version} at offset {offset:#x} is not supported ({supported})")]
    UnsupportedVersion {
        /// Where the version is stored.
        offset: usize,
        /// The stored version.
        version: u64,
        /// What is supported, in words.
        supported: String,
    },
    /// A stored offset points outside the input, backwards, or into a region already used.
    #[error("offset {target:#x} stored at {offset:#x} is {reason}")]
    BadOffset {
        /// Where the offset is stored.
        offset: usize,
        /// The stored value (already made absolute where the format stores relative offsets).
        target: u64,
        /// Why it is refused, in words (`past the end of the 4096-byte file`).
        reason: String,
    },
    /// Bytes remain after the last record of a format that has no room for them.
    #[error("{len} unexpected bytes after the last record, at offset {offset:#x}")]
    TrailingBytes {
        /// Where the unexpected bytes start.
        offset: usize,
        /// How many there are.
        len: usize,
    },
    /// Any other structural problem found while reading.
    #[error("{message} at offset {offset:#x}")]
    Invalid {
        /// Where it was found.
        offset: usize,
        /// What is wrong, in words.
        message: String,
    },
    /// The writer was given a model the format cannot hold (a count over a field's range, a
    /// version that has no layout).
    #[error("{message}")]
    Unrepresentable {
        /// What cannot be written, in words.
        message: String,
    },
    /// A value stored in the model disagrees with the one the writer computes from the payload.
    #[error("stored value {stored} disagrees with the computed {computed}")]
    Mismatch {
        /// The value stored in the model.
        stored: u64,
        /// The value computed from the payload.
        computed: u64,
    },
}

/// Bytes as a quoted string where printable, hex otherwise.
fn show_bytes(bytes: &[u8]) -> String {
    if !bytes.is_empty() && bytes.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
        format!(
            "\"{}\"",
            bytes.iter().map(|b| *b as char).collect::<String>()
        )
    } else {
        let hex: Vec<String> = bytes.iter().map(|b| format!("{b:02x}")).collect();
        format!("[{}]", hex.join(" "))
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Inner {
    format: &'static str,
    context: String,
    kind: ErrorKind,
}

/// An error from reading or writing a navmesh file.
#[derive(Clone, PartialEq, Eq)]
pub struct Error(Box<Inner>);

/// `Result` with navkit's [`Error`].
pub type Result<T, E = Error> = core::result::Result<T, E>;

impl Error {
    /// A new error of `format` (the crate name, `nav-quake`) at the field `context`.
    #[cold]
    pub fn new(format: &'static str, context: impl fmt::Display, kind: ErrorKind) -> Self {
        Error(Box::new(Inner {
            format,
            context: context.to_string(),
            kind,
        }))
    }

    /// A structural problem found while reading ([`ErrorKind::Invalid`]) at `offset`.
    ///
    /// ```
    /// let e = nav_core::Error::invalid("nav2-mgsv", "FileHeader ChunkCount", 0x0c, "3 is not a multiple of 4");
    /// assert_eq!(e.to_string(), "nav2-mgsv: FileHeader ChunkCount: 3 is not a multiple of 4 at offset 0xc");
    /// ```
    #[cold]
    pub fn invalid(
        format: &'static str,
        context: impl fmt::Display,
        offset: usize,
        message: impl fmt::Display,
    ) -> Self {
        Error::new(
            format,
            context,
            ErrorKind::Invalid {
                offset,
                message: message.to_string(),
            },
        )
    }

    /// A stored offset (or size) that is refused ([`ErrorKind::BadOffset`]): `target` is the
    /// value stored at `offset`, `reason` says why, in words (`past the end of the 4096-byte
    /// file`).
    #[cold]
    pub fn bad_offset(
        format: &'static str,
        context: impl fmt::Display,
        offset: usize,
        target: u64,
        reason: impl fmt::Display,
    ) -> Self {
        Error::new(
            format,
            context,
            ErrorKind::BadOffset {
                offset,
                target,
                reason: reason.to_string(),
            },
        )
    }

    /// A writer error: the model holds something the format cannot.
    #[cold]
    pub fn unrepresentable(
        format: &'static str,
        context: impl fmt::Display,
        message: impl fmt::Display,
    ) -> Self {
        Error::new(
            format,
            context,
            ErrorKind::Unrepresentable {
                message: message.to_string(),
            },
        )
    }

    /// The format (crate name) that raised the error.
    pub fn format(&self) -> &'static str {
        self.0.format
    }

    /// The field path (`links[17]`), empty when the error concerns the whole file.
    pub fn context(&self) -> &str {
        &self.0.context
    }

    /// What went wrong.
    pub fn kind(&self) -> &ErrorKind {
        &self.0.kind
    }

    /// The byte offset the error points at, where it has one.
    pub fn offset(&self) -> Option<usize> {
        match &self.0.kind {
            ErrorKind::Truncated { offset, .. }
            | ErrorKind::CountTooLarge { offset, .. }
            | ErrorKind::BadMagic { offset, .. }
            | ErrorKind::UnsupportedVersion { offset, .. }
            | ErrorKind::BadOffset { offset, .. }
            | ErrorKind::TrailingBytes { offset, .. }
            | ErrorKind::Invalid { offset, .. } => Some(*offset),
            ErrorKind::Unrepresentable { .. } | ErrorKind::Mismatch { .. } => None,
        }
    }

    /// Puts `outer` in front of the field path: `areas[3]` + `connections` reads
    /// `areas[3] connections`. Use it where an error crosses a record boundary.
    #[cold]
    pub fn within(mut self, outer: impl fmt::Display) -> Self {
        let outer = outer.to_string();
        self.0.context = match (outer.is_empty(), self.0.context.is_empty()) {
            (true, _) => core::mem::take(&mut self.0.context),
            (false, true) => outer,
            (false, false) => format!("{outer} {}", self.0.context),
        };
        self
    }

    /// Moves every offset the error carries by `base`, for errors raised while reading a slice
    /// that starts at `base` in a larger input (a subrecord inside a plugin, say).
    #[cold]
    pub fn shifted(mut self, base: usize) -> Self {
        match &mut self.0.kind {
            ErrorKind::Truncated { offset, .. }
            | ErrorKind::CountTooLarge { offset, .. }
            | ErrorKind::BadMagic { offset, .. }
            | ErrorKind::UnsupportedVersion { offset, .. }
            | ErrorKind::BadOffset { offset, .. }
            | ErrorKind::TrailingBytes { offset, .. }
            | ErrorKind::Invalid { offset, .. } => *offset = offset.saturating_add(base),
            ErrorKind::Unrepresentable { .. } | ErrorKind::Mismatch { .. } => {}
        }
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.context.is_empty() {
            write!(f, "{}: {}", self.0.format, self.0.kind)
        } else {
            write!(f, "{}: {}: {}", self.0.format, self.0.context, self.0.kind)
        }
    }
}

impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The Display form is what a person needs in a test failure too.
        write!(f, "Error({self})")
    }
}

impl std::error::Error for Error {}

/// A context worked out only when it is shown: `Later(|| format!(..))` displays what the closure
/// returns. Writers hand it to [`crate::write::narrow`] and the error constructors, so a check
/// that passes (every check, on a valid model) builds no string.
#[derive(Clone, Copy)]
pub struct Later<F>(pub F);

impl<F: Fn() -> S, S: fmt::Display> fmt::Display for Later<F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (self.0)().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn later_builds_its_context_only_for_an_error() {
        let calls = core::cell::Cell::new(0);
        let context = Later(|| {
            calls.set(calls.get() + 1);
            format!("record {:08X}", 0xabu32)
        });
        let fits: Result<u8> = crate::write::narrow("test", context, 200u32);
        assert_eq!(fits.ok(), Some(200));
        assert_eq!(calls.get(), 0, "a check that passes built its context");
        let Err(e) = crate::write::narrow::<u8, u32>("test", context, 300) else {
            panic!("300 fits no u8");
        };
        assert_eq!(calls.get(), 1);
        assert!(e.to_string().contains("record 000000AB"), "{e}");
    }

    #[test]
    fn reads_like_the_design_says() {
        let e = Error::new(
            "nav-source",
            "area 12 connections[2]",
            ErrorKind::CountTooLarge {
                count: 4294967295,
                record_size: 4,
                offset: 0x1a2c,
                left: 8,
            },
        );
        assert_eq!(
            e.to_string(),
            "nav-source: area 12 connections[2]: count 4294967295 at offset 0x1a2c exceeds the 8 bytes left (4 bytes each)"
        );
        assert_eq!(e.offset(), Some(0x1a2c));
    }

    #[test]
    fn within_and_shifted_compose() {
        let e = Error::new(
            "x",
            "count",
            ErrorKind::Truncated {
                offset: 4,
                needed: 4,
                left: 1,
            },
        )
        .within("areas[3]")
        .within("")
        .shifted(0x100);
        assert_eq!(e.context(), "areas[3] count");
        assert_eq!(e.offset(), Some(0x104));
        let bare = Error::new("x", "", ErrorKind::TrailingBytes { offset: 9, len: 2 });
        assert_eq!(
            bare.to_string(),
            "x: 2 unexpected bytes after the last record, at offset 0x9"
        );
        assert_eq!(bare.within("tail").context(), "tail");
    }

    #[test]
    fn constructors_build_their_kinds() {
        let e = Error::invalid("x", "chunks[2]", 0x40, "type 3 where a type 0 belongs");
        assert_eq!(
            e.to_string(),
            "x: chunks[2]: type 3 where a type 0 belongs at offset 0x40"
        );
        assert_eq!(e.offset(), Some(0x40));
        assert!(matches!(e.kind(), ErrorKind::Invalid { offset: 0x40, .. }));
        let e = Error::bad_offset(
            "x",
            "SearchSpaceOffset",
            0x10,
            0x9000,
            "past the end of the file",
        );
        assert_eq!(
            e.to_string(),
            "x: SearchSpaceOffset: offset 0x9000 stored at 0x10 is past the end of the file"
        );
        assert_eq!(e.offset(), Some(0x10));
    }

    #[test]
    fn magic_is_shown_readably() {
        let text = Error::new(
            "nav-quake",
            "header",
            ErrorKind::BadMagic {
                offset: 0,
                found: b"QSNM".to_vec(),
                expected: "NAV2 or NAV3",
            },
        )
        .to_string();
        assert_eq!(
            text,
            "nav-quake: header: magic \"QSNM\" at offset 0x0 is not NAV2 or NAV3"
        );
        let bin = Error::new(
            "y",
            "",
            ErrorKind::BadMagic {
                offset: 0,
                found: vec![0xce, 0xfa],
                expected: "0xFEEDFACE",
            },
        );
        assert_eq!(
            bin.to_string(),
            "y: magic [ce fa] at offset 0x0 is not 0xFEEDFACE"
        );
    }
}

/// A writer's refusal as an I/O error, for the streaming writers (`write_to`): kind
/// [`std::io::ErrorKind::InvalidData`], with the [`Error`] inside. [`refused`] takes it back out.
pub fn refusal(error: Error) -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::InvalidData, error)
}

/// The [`Error`] a streaming writer refused a model with, or `None` for an I/O error of the
/// destination (a full disk, a closed pipe).
pub fn refused(error: &std::io::Error) -> Option<&Error> {
    error.get_ref().and_then(|e| e.downcast_ref::<Error>())
}

#[cfg(test)]
mod refusal_tests {
    use super::*;

    #[test]
    fn a_refusal_carries_the_error_through_io() {
        let e = Error::invalid("nav-test", "areas[3].id", 0x10, "zero is not an id");
        let io = refusal(e.clone());
        assert_eq!(io.kind(), std::io::ErrorKind::InvalidData);
        assert_eq!(refused(&io), Some(&e));
        assert_eq!(refused(&std::io::Error::other("disk full")), None);
    }
}
