//! The round-trip oracle, shared by tests, fuzz targets and `navkit roundtrip`.
//!
//! Two properties define a correct format crate:
//!
//! - **bytes**: for every input that parses, writing the view and writing the model both give the
//!   input back, and the bytes written parse to the same model ([`roundtrip_bytes`]);
//! - **model**: for every model the writer accepts, parsing what it wrote gives the model back,
//!   and writing that again gives the same bytes ([`roundtrip_model`]).
//!
//! Along the way the view and the model must agree on the file's summary (its counts), so that a
//! summary read from the view alone says what the model would.

use crate::error::Error;
use crate::format::Format;

/// Why a round trip failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RoundtripError {
    /// The input did not parse.
    #[error("parse: {0}")]
    Parse(Error),
    /// The writer refused the model (or view).
    #[error("write: {0}")]
    Write(Error),
    /// The written bytes differ from the input.
    #[error(
        "{stage} output differs from the input at offset {offset:#x} (input {expected_len} bytes, output {actual_len})"
    )]
    Differs {
        /// Which writer: `write_view` or `write`.
        stage: &'static str,
        /// First differing offset.
        offset: usize,
        /// Length of the input.
        expected_len: usize,
        /// Length of the output.
        actual_len: usize,
    },
    /// The written bytes did not parse back.
    #[error("written bytes do not parse: {0}")]
    Reparse(Error),
    /// The written bytes parsed to a different model.
    #[error("written bytes parse to a different model")]
    ModelDiffers,
    /// The view and the model give different summaries (`navkit info` would depend on which).
    #[error("the view's summary differs from the model's: {view} vs {model}")]
    SummaryDiffers {
        /// The view's summary, as text.
        view: String,
        /// The model's summary, as text.
        model: String,
    },
}

fn compare(stage: &'static str, expected: &[u8], actual: &[u8]) -> Result<(), RoundtripError> {
    match first_difference(expected, actual) {
        None => Ok(()),
        Some(offset) => Err(RoundtripError::Differs {
            stage,
            offset,
            expected_len: expected.len(),
            actual_len: actual.len(),
        }),
    }
}

/// Checks that `bytes` survive parse → write (from the view and from the model) unchanged, and
/// that the output parses to the same model. Returns the model.
pub fn roundtrip_bytes<F: Format + ?Sized>(
    format: &F,
    bytes: &[u8],
) -> Result<F::Model, RoundtripError> {
    let view = format.parse(bytes).map_err(RoundtripError::Parse)?;
    let from_view = format.write_view(&view).map_err(RoundtripError::Write)?;
    compare("write_view", bytes, &from_view)?;
    let model = format.to_model(&view);
    let (from_view, from_model) = (format.view_summary(&view), format.summary(&model));
    if from_view != from_model {
        return Err(RoundtripError::SummaryDiffers {
            view: format!("{from_view:?}"),
            model: format!("{from_model:?}"),
        });
    }
    let written = format.write(&model).map_err(RoundtripError::Write)?;
    compare("write", bytes, &written)?;
    let again = format.read(&written).map_err(RoundtripError::Reparse)?;
    if again != model {
        return Err(RoundtripError::ModelDiffers);
    }
    Ok(model)
}

/// Checks that a model the writer accepts comes back equal from its own bytes, and that writing
/// it twice gives the same bytes. `Ok(None)` means the writer refused the model (that is allowed:
/// not every model fits the format); `Ok(Some(bytes))` gives what was written.
pub fn roundtrip_model<F: Format + ?Sized>(
    format: &F,
    model: &F::Model,
) -> Result<Option<Vec<u8>>, RoundtripError> {
    let Ok(bytes) = format.write(model) else {
        return Ok(None);
    };
    let back = format.read(&bytes).map_err(RoundtripError::Reparse)?;
    if &back != model {
        return Err(RoundtripError::ModelDiffers);
    }
    let again = format.write(&back).map_err(RoundtripError::Write)?;
    compare("write (second time)", &bytes, &again)?;
    Ok(Some(bytes))
}

/// The fuzz oracle for raw bytes: parsing may fail, but must not panic; whatever parses must
/// round-trip. Panics (so the fuzzer records a crash) when it does not.
pub fn fuzz_bytes<F: Format + ?Sized>(format: &F, bytes: &[u8]) {
    if format.parse(bytes).is_err() {
        return;
    }
    // Validation must not panic either, whatever the model holds.
    if let Ok(model) = format.read(bytes) {
        let _ = format.validate(&model);
        let _ = format.summary(&model);
    }
    if let Err(e) = roundtrip_bytes(format, bytes) {
        panic!(
            "{}: input of {} bytes parses but does not round-trip: {e}",
            format.name(),
            bytes.len()
        );
    }
}

/// The fuzz oracle for models: whatever the writer accepts must come back equal.
pub fn fuzz_model<F: Format + ?Sized>(format: &F, model: &F::Model) {
    let _ = format.validate(model);
    if let Err(e) = roundtrip_model(format, model) {
        panic!(
            "{}: model does not round-trip: {e}\n{model:#?}",
            format.name()
        );
    }
}

/// The first offset where `a` and `b` differ (the shorter length if one is a prefix of the
/// other), or `None` when they are equal.
pub fn first_difference(a: &[u8], b: &[u8]) -> Option<usize> {
    if a == b {
        return None;
    }
    Some(
        a.iter()
            .zip(b)
            .position(|(x, y)| x != y)
            .unwrap_or(a.len().min(b.len())),
    )
}
