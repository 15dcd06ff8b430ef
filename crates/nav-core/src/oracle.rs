//! The round-trip oracle, shared by tests, fuzz targets and `navkit roundtrip`.
//!
//! Two properties define a correct format crate:
//!
//! - **bytes**: for every input that parses, writing the view and writing the model both give the
//!   input back, so the bytes written are the input and read as the same model
//!   ([`roundtrip_bytes`]);
//! - **model**: for every model the writer accepts, parsing what it wrote gives the model back,
//!   and writing that again gives the same bytes ([`roundtrip_model`]).
//!
//! Along the way the view and the model must agree on the file's summary (its counts), so that a
//! summary read from the view alone says what the model would.
//!
//! A third property holds for formats with a builder ([`Format::build`]): whatever model the
//! builder makes of a triangle mesh validates without an error and round-trips as above
//! ([`check_build`]).
//!
//! And for formats with a navigation mapping ([`Format::navigation`]), the graph of a model that
//! round-trips is accepted by the [`Navigator`] and a bounded number of queries on it answer
//! without panicking, with routes that follow the graph's edges ([`check_navigation`]).

use crate::error::Error;
use crate::format::{Format, Severity};
use crate::geometry::TriangleMesh;
use crate::navigation::{Endpoint, Navigator, Weight};

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
        /// Which writer: `write_view`, `write`, `write_to` or `write_into`.
        stage: &'static str,
        /// First differing offset.
        offset: usize,
        /// Length of the input.
        expected_len: usize,
        /// Length of the output.
        actual_len: usize,
    },
    /// The streaming writer failed without refusing the model (it wrote to a `Vec`, which
    /// cannot fail: this is a writer bug).
    #[error("write_to: {0}")]
    Stream(String),
    /// The written bytes did not parse back.
    #[error("written bytes do not parse: {0}")]
    Reparse(Error),
    /// The written bytes parsed to a different model.
    #[error("written bytes parse to a different model")]
    ModelDiffers,
    /// The model's navigation graph is refused by the [`Navigator`], or a query on it gives an
    /// invalid answer ([`check_navigation`]).
    #[error("navigation: {0}")]
    Navigation(String),
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

/// [`Format::write_to`] into `out`, its refusal as [`RoundtripError::Write`].
fn stream<F: Format + ?Sized>(
    format: &F,
    model: &F::Model,
    out: &mut dyn std::io::Write,
) -> Result<(), RoundtripError> {
    format
        .write_to(model, out)
        .map_err(|e| match crate::error::refused(&e) {
            Some(refusal) => RoundtripError::Write(refusal.clone()),
            None => RoundtripError::Stream(e.to_string()),
        })
}

/// An `io::Write` that compares what it is given with `expected` instead of keeping it, so that
/// the streaming writer is checked without a second buffer the size of the file (and one pass
/// less over it).
struct Compare<'a> {
    expected: &'a [u8],
    /// Bytes written so far.
    at: usize,
    /// The first offset where the output differs, once seen.
    differs: Option<usize>,
}

impl<'a> Compare<'a> {
    fn new(expected: &'a [u8]) -> Self {
        Compare {
            expected,
            at: 0,
            differs: None,
        }
    }

    /// The comparison's outcome for `stage`, once the writer is done.
    fn finish(self, stage: &'static str) -> Result<(), RoundtripError> {
        let offset = match self.differs {
            Some(offset) => offset,
            None if self.at == self.expected.len() => return Ok(()),
            None => self.at.min(self.expected.len()),
        };
        Err(RoundtripError::Differs {
            stage,
            offset,
            expected_len: self.expected.len(),
            actual_len: self.at,
        })
    }
}

impl std::io::Write for Compare<'_> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.differs.is_none() {
            let rest = self.expected.get(self.at..).unwrap_or_default();
            let n = buf.len().min(rest.len());
            let (same, given) = (
                rest.get(..n).unwrap_or_default(),
                buf.get(..n).unwrap_or_default(),
            );
            self.differs = match first_difference(same, given) {
                Some(i) => Some(self.at + i),
                // Past the end of what was expected.
                None if buf.len() > rest.len() => Some(self.at + rest.len()),
                None => None,
            };
        }
        self.at = self.at.saturating_add(buf.len());
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Checks that `bytes` survive parse → write (from the view and from the model, with every
/// writer) unchanged, and that the view and the model agree on the summary. Returns the model.
///
/// The output is not read again: it was compared with `bytes` byte for byte, and reading `bytes`
/// is what made the model, so a second read could only repeat it (it took about a sixth of
/// `navkit roundtrip`). That a written model reads back equal is [`roundtrip_model`]'s check,
/// for models that did not come from the same bytes.
pub fn roundtrip_bytes<F: Format + ?Sized>(
    format: &F,
    bytes: &[u8],
) -> Result<F::Model, RoundtripError> {
    // Each output is dropped once compared, so a whole game's file is held about twice, not
    // six times.
    let view = format.parse(bytes).map_err(RoundtripError::Parse)?;
    let from_view = format.write_view(&view).map_err(RoundtripError::Write)?;
    compare("write_view", bytes, &from_view)?;
    drop(from_view);
    let model = format.to_model(&view);
    summaries_agree(format, &view, &model)?;
    drop(view);
    let mut out = format.write(&model).map_err(RoundtripError::Write)?;
    compare("write", bytes, &out)?;
    let mut streamed = Compare::new(bytes);
    stream(format, &model, &mut streamed)?;
    streamed.finish("write_to")?;
    // `write_into` replaces whatever the buffer held.
    out.truncate(bytes.len() / 2);
    format
        .write_into(&model, &mut out)
        .map_err(RoundtripError::Write)?;
    compare("write_into", bytes, &out)?;
    drop(out);
    Ok(model)
}

/// [`RoundtripError::SummaryDiffers`] unless the summary counted from `view` is the one
/// counted from `model`.
fn summaries_agree<F: Format + ?Sized>(
    format: &F,
    view: &F::View<'_>,
    model: &F::Model,
) -> Result<(), RoundtripError> {
    let (from_view, from_model) = (format.view_summary(view), format.summary(model));
    if from_view == from_model {
        return Ok(());
    }
    Err(RoundtripError::SummaryDiffers {
        view: format!("{from_view:?}"),
        model: format!("{from_model:?}"),
    })
}

/// Checks that a model the writer accepts comes back equal from its own bytes (and that the view
/// of those bytes gives the model's summary), that writing it twice gives the same bytes, and
/// that the streaming writer ([`Format::write_to`]) accepts and refuses the same models and
/// writes the same bytes, as [`Format::write_into`] does into a buffer that held other bytes.
/// `Ok(None)` means the writer refused the model (that is allowed: not every model fits the
/// format); `Ok(Some(bytes))` gives what was written.
pub fn roundtrip_model<F: Format + ?Sized>(
    format: &F,
    model: &F::Model,
) -> Result<Option<Vec<u8>>, RoundtripError> {
    let mut streamed = Vec::new();
    let streamed = stream(format, model, &mut streamed).map(|()| streamed);
    let bytes = match (format.write(model), streamed) {
        (Ok(bytes), Ok(streamed)) => {
            compare("write_to", &bytes, &streamed)?;
            // `write_into` replaces whatever the buffer held: here, other bytes.
            let mut into = streamed;
            into.truncate(bytes.len() / 2);
            into.iter_mut().for_each(|b| *b = !*b);
            format
                .write_into(model, &mut into)
                .map_err(RoundtripError::Write)?;
            compare("write_into", &bytes, &into)?;
            bytes
        }
        (Err(_), Err(RoundtripError::Write(_))) => return Ok(None),
        (Err(e), Ok(_)) => {
            return Err(RoundtripError::Stream(format!(
                "accepted a model that write refuses ({e})"
            )));
        }
        (Ok(_), Err(e)) => return Err(e),
        (Err(_), Err(e)) => return Err(e),
    };
    let view = format.parse(&bytes).map_err(RoundtripError::Reparse)?;
    let back = format.to_model(&view);
    if &back != model {
        return Err(RoundtripError::ModelDiffers);
    }
    // The written file's view must tell the same summary as the model it came from.
    summaries_agree(format, &view, model)?;
    drop(view);
    let again = format.write(&back).map_err(RoundtripError::Write)?;
    compare("write (second time)", &bytes, &again)?;
    Ok(Some(bytes))
}

/// The fuzz oracle for raw bytes: parsing may fail, but must not panic; whatever parses must
/// round-trip ([`roundtrip_bytes`], which also checks that the view's summary is the model's);
/// validation, the dump and the geometry must not panic on what parses, the geometry must be
/// consistent ([`crate::geometry::Geometry::is_consistent`]), and the navigation graph must pass
/// [`check_navigation`]. Panics (so the fuzzer records a crash) when any of that fails.
pub fn fuzz_bytes<F: Format + ?Sized>(format: &F, bytes: &[u8]) {
    if format.parse(bytes).is_err() {
        return;
    }
    let model = match roundtrip_bytes(format, bytes) {
        Ok(model) => model,
        Err(e) => panic!(
            "{}: input of {} bytes parses but does not round-trip: {e}",
            format.name(),
            bytes.len()
        ),
    };
    // Validation and the text dump must not panic either, whatever the model holds, and the
    // geometry the exporters read must name only what exists.
    let _ = format.validate(&model);
    let _ = format.dump(&model, &mut String::new());
    if let Some(geometry) = format.geometry(&model) {
        assert!(
            geometry.is_consistent(),
            "{}: input of {} bytes parses, but its geometry names polygons, vertices, nodes or kinds that do not exist",
            format.name(),
            bytes.len()
        );
    }
    if let Err(e) = check_navigation(format, &model) {
        panic!(
            "{}: input of {} bytes round-trips, but {e}",
            format.name(),
            bytes.len()
        );
    }
}

/// The fuzz oracle for models: whatever the writer accepts must come back equal, and its
/// navigation graph must pass [`check_navigation`].
pub fn fuzz_model<F: Format + ?Sized>(format: &F, model: &F::Model) {
    let _ = format.validate(model);
    if let Err(e) = roundtrip_model(format, model) {
        panic!(
            "{}: model does not round-trip: {e}\n{model:#?}",
            format.name()
        );
    }
    if let Err(e) = check_navigation(format, model) {
        panic!("{}: {e}\n{model:#?}", format.name());
    }
}

/// How many cells [`check_navigation`] locates and routes between, at most.
const NAVIGATION_PROBES: usize = 8;

/// The navigation oracle, for a model that round-trips: when the format maps models to a
/// navigation graph ([`Format::navigation`]), the [`Navigator`] must accept the graph, and a
/// bounded number of queries must answer sensibly: [`Navigator::locate`] of up to
/// eight cells' centres gives a cell of the graph at a finite distance, routes
/// between them (by id and by point, under each weight, walking only or not) follow the graph's
/// edges and cost what their steps cost ([`Navigator::check_route`]), and the islands hold
/// every cell once. Cheap enough for every fuzz input: one build of the navigator (about linear
/// in the graph), then some twenty queries. Returns how many queries ran (0 for a format
/// without a mapping).
pub fn check_navigation<F: Format + ?Sized>(
    format: &F,
    model: &F::Model,
) -> Result<usize, RoundtripError> {
    let Some(graph) = format.navigation(model) else {
        return Ok(0);
    };
    let fail = |what: String| RoundtripError::Navigation(what);
    let nav = Navigator::new(graph).map_err(|e| fail(e.to_string()))?;
    let cells = &nav.graph().cells;
    let n = cells.len();
    let probes: Vec<usize> = (0..NAVIGATION_PROBES.min(n))
        .map(|k| k * n / NAVIGATION_PROBES.min(n))
        .collect();
    let mut queries = 0;
    for &i in &probes {
        let Some(centre) = cells.get(i).and_then(|c| c.centre) else {
            continue;
        };
        queries += 1;
        if let Some(found) = nav.locate(centre) {
            if found.cell as usize >= n || !(found.distance >= 0.0 && found.distance.is_finite()) {
                return Err(fail(format!(
                    "locate of cell {i}'s centre gives {found:?}, of {n} cells"
                )));
            }
        }
    }
    for (k, pair) in probes.windows(2).enumerate() {
        let (Some(a), Some(b)) = (cells.get(pair[0]), cells.get(pair[1])) else {
            continue;
        };
        let weight = if k % 2 == 0 {
            Weight::Distance
        } else {
            Weight::Hops
        };
        let walk_only = k % 4 >= 2;
        let mut ends = vec![(Endpoint::Cell(a.id), Endpoint::Cell(b.id))];
        if let (Some(p), Some(q)) = (a.centre, b.centre) {
            ends.push((Endpoint::Point(p), Endpoint::Point(q)));
        }
        for (from, to) in ends {
            queries += 1;
            let route = nav
                .path(from, to, weight, walk_only)
                .map_err(|e| fail(format!("path {from:?} -> {to:?}: {e}")))?;
            nav.check_route(&route, weight, walk_only)
                .map_err(|e| fail(format!("path {from:?} -> {to:?}: {e}")))?;
        }
    }
    queries += 1;
    let held: usize = nav.islands(false).iter().map(Vec::len).sum();
    if held != n {
        return Err(fail(format!("the islands hold {held} cells of {n}")));
    }
    Ok(queries)
}

/// Why a model a builder made fails the build oracle.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum BuildError {
    /// Validation finds errors in the built model.
    #[error("the built model does not validate: {}", .0.join("; "))]
    Invalid(Vec<String>),
    /// The writer refuses the built model.
    #[error("the writer refuses the built model: {0}")]
    Unwritable(Error),
    /// The built model does not round-trip ([`roundtrip_model`]).
    #[error("the built model does not round-trip: {0}")]
    Roundtrip(RoundtripError),
}

/// The build oracle: what `format` builds from `mesh` must have no error-severity finding, must
/// be accepted by the writer and must round-trip ([`roundtrip_model`]). A builder may refuse a
/// mesh (that is an `Err` of [`Format::build`], not a failure here). Returns whether a model was
/// built and checked: `Ok(false)` for a format without a builder or a refused mesh.
pub fn check_build<F: Format + ?Sized>(
    format: &F,
    mesh: &TriangleMesh,
) -> Result<bool, BuildError> {
    let Some(Ok(crate::Built { model, .. })) = format.build(mesh) else {
        return Ok(false);
    };
    let errors: Vec<String> = format
        .validate(&model)
        .into_iter()
        .filter(|f| f.severity == Severity::Error)
        .map(|f| f.to_string())
        .collect();
    if !errors.is_empty() {
        return Err(BuildError::Invalid(errors));
    }
    if let Err(e) = format.write(&model) {
        return Err(BuildError::Unwritable(e));
    }
    roundtrip_model(format, &model).map_err(BuildError::Roundtrip)?;
    Ok(true)
}

/// The fuzz oracle for builders: [`check_build`], panicking (so the fuzzer records a crash) when
/// the built model fails it.
pub fn fuzz_build<F: Format + ?Sized>(format: &F, mesh: &TriangleMesh) {
    if let Err(e) = check_build(format, mesh) {
        panic!(
            "{}: the model built from a mesh of {} vertices and {} triangles fails: {e}\n{mesh:?}",
            format.name(),
            mesh.vertices.len(),
            mesh.triangles.len()
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write as _;

    /// What `Compare` says of `chunks` written one by one against `expected`.
    fn compared(expected: &[u8], chunks: &[&[u8]]) -> Result<(), RoundtripError> {
        let mut c = Compare::new(expected);
        for chunk in chunks {
            assert_eq!(c.write(chunk).ok(), Some(chunk.len()));
        }
        c.finish("write_to")
    }

    fn differs_at(offset: usize, actual_len: usize) -> Result<(), RoundtripError> {
        Err(RoundtripError::Differs {
            stage: "write_to",
            offset,
            expected_len: 6,
            actual_len,
        })
    }

    /// A format whose bytes are the model, and whose navigation graph has a cell per byte: a
    /// triangle (or, for bytes from 200, a node of radius `b - 200`) with an edge to the cell
    /// the byte names (`b % (len + 1)`: the last value names no cell). Bytes 250 and up hold a
    /// corner that is not a number.
    struct Cells;

    impl Format for Cells {
        type View<'a> = &'a [u8];
        type Model = Vec<u8>;
        fn name(&self) -> &'static str {
            "cells"
        }
        fn description(&self) -> &'static str {
            "a cell per byte"
        }
        fn extensions(&self) -> &'static [&'static str] {
            &[]
        }
        fn sniff(&self, _: &[u8]) -> bool {
            true
        }
        fn parse<'a>(&self, bytes: &'a [u8]) -> crate::Result<&'a [u8]> {
            Ok(bytes)
        }
        fn to_model(&self, view: &&[u8]) -> Vec<u8> {
            view.to_vec()
        }
        fn write(&self, model: &Vec<u8>) -> crate::Result<Vec<u8>> {
            Ok(model.clone())
        }
        fn validate(&self, _: &Vec<u8>) -> Vec<crate::Finding> {
            Vec::new()
        }
        fn summary(&self, _: &Vec<u8>) -> crate::Summary {
            crate::Summary::new("cells", "1")
        }
        fn navigation(&self, model: &Vec<u8>) -> Option<crate::navigation::Graph> {
            use crate::navigation::{CellId, EdgeKind, Graph};
            let mut g = Graph::new(crate::geometry::UpAxis::Z);
            for (i, &b) in (0u16..).zip(model) {
                let (x, z) = (f32::from(i), f32::from(b % 7));
                let id = CellId::new(u64::from(b % 5));
                if b >= 250 {
                    g.add_polygon_cell(id, &[[x, 0.0, f32::NAN], [x + 1.0, 0.0, z], [x, 1.0, z]]);
                } else if b >= 200 {
                    g.add_node_cell(id, [x, 0.0, z], f32::from(b - 200));
                } else {
                    g.add_polygon_cell(id, &[[x, 0.0, z], [x + 2.0, 0.0, z], [x, 1.0, z]]);
                }
                let to = u32::from(b) % (u32::try_from(model.len()).unwrap() + 1);
                let kind = EdgeKind::ALL[usize::from(b) % EdgeKind::ALL.len()];
                g.add_edge(u32::from(i), to, kind);
            }
            Some(g)
        }
    }

    #[test]
    fn the_navigation_oracle_runs_queries_and_refuses_bad_graphs() {
        let mut checked = 0;
        for seed in 0..300 {
            let bytes = crate::testing::noise(seed, usize::try_from(seed % 40).unwrap());
            let consistent = bytes
                .iter()
                .all(|&b| usize::from(b) % (bytes.len() + 1) != bytes.len());
            if consistent {
                fuzz_bytes(&Cells, &bytes);
                fuzz_model(&Cells, &bytes);
                checked += usize::from(check_navigation(&Cells, &bytes).unwrap() > 1);
            } else {
                let err = check_navigation(&Cells, &bytes).unwrap_err();
                assert!(
                    err.to_string()
                        .starts_with("navigation: the navigation graph is not consistent"),
                    "{err}"
                );
            }
        }
        assert!(checked > 50, "{checked}");
    }

    #[test]
    fn the_streaming_comparison_finds_the_first_difference_across_chunks() {
        let expected = b"abcdef";
        assert_eq!(compared(expected, &[b"ab", b"", b"cdef"]), Ok(()));
        assert_eq!(compared(expected, &[b"abc", b"dXf"]), differs_at(4, 6));
        assert_eq!(compared(expected, &[b"Xbc", b"dXf"]), differs_at(0, 6));
        // Short output: it differs where it ends.
        assert_eq!(compared(expected, &[b"abcd"]), differs_at(4, 4));
        // Long output: it differs where the input ends, whichever chunk crosses it.
        assert_eq!(compared(expected, &[b"abcdefg"]), differs_at(6, 7));
        assert_eq!(compared(expected, &[b"abcdef", b"gh"]), differs_at(6, 8));
        assert_eq!(compared(b"", &[]), Ok(()));
    }
}
