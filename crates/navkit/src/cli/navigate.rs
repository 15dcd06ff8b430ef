//! The navigation commands: `locate`, `path` and `islands`, over the one graph every format
//! builds ([`nav_core::navigation`]).

use std::path::Path;

use nav_core::navigation::{CellId, Endpoint, Graph, Navigator, Route, Weight};
use serde_json::{Value, json};

use super::args::WeightArg;
use super::output::{detect_or_fail, input_error, out_raw, print_json, read_input};
use super::{CmdResult, Failure};
use crate::registry::AnyFormat;

/// The file's navigation graph, ready for queries.
pub(super) fn navigator_of(
    forced: Option<&'static dyn AnyFormat>,
    path: &Path,
) -> Result<Navigator, Failure> {
    let bytes = read_input(path)?;
    let format = detect_or_fail(forced, path, &bytes)?;
    let graph = format
        .open(&bytes)
        .map_err(|e| input_error(path, e))?
        .navigation()
        .ok_or_else(|| input_error(path, format!("{} has no navigation mapping", format.name())))?;
    Navigator::new(graph).map_err(|e| input_error(path, e))
}

/// A cell id or a point `x,y,z`, as the commands take them.
pub(super) fn endpoint(text: &str) -> Result<Endpoint, Failure> {
    let parts: Vec<&str> = text.split(',').collect();
    if parts.len() == 3 {
        let mut p = [0f32; 3];
        for (c, t) in p.iter_mut().zip(&parts) {
            *c = t.trim().parse().map_err(|_| {
                Failure::Usage(format!("`{text}` is not a point x,y,z of three numbers"))
            })?;
        }
        return Ok(Endpoint::Point(p));
    }
    text.parse::<CellId>()
        .map(Endpoint::Cell)
        .map_err(|e| Failure::Usage(e.to_string()))
}

fn id_of(graph: &Graph, cell: u32) -> String {
    graph
        .cells
        .get(cell as usize)
        .map_or_else(|| "?".into(), |c| c.id.to_string())
}

/// A cell id as JSON: the number where it has no part, else its text (`"0410E930:12"`).
fn id_json(graph: &Graph, cell: u32) -> Value {
    match graph.cells.get(cell as usize).map(|c| c.id) {
        Some(CellId { part: None, id }) => json!(id),
        Some(id) => json!(id.to_string()),
        None => Value::Null,
    }
}

fn point_of(text: &str) -> Result<[f32; 3], Failure> {
    let coords: Vec<&str> = text
        .split([',', ' ', '\t'])
        .filter(|s| !s.is_empty())
        .collect();
    let [x, y, z] = coords.as_slice() else {
        return Err(Failure::Usage(format!("`{text}` is not a point x y z")));
    };
    let num = |t: &str| {
        t.parse::<f32>()
            .map_err(|_| Failure::Usage(format!("`{text}` is not a point x y z")))
    };
    Ok([num(x)?, num(y)?, num(z)?])
}

/// `navkit locate FILE X Y Z` or `navkit locate FILE --points POINTS`.
pub(super) fn locate(
    forced: Option<&'static dyn AnyFormat>,
    path: &Path,
    point: &[f32],
    points: Option<&Path>,
    json: bool,
) -> CmdResult {
    let nav = navigator_of(forced, path)?;
    let graph = nav.graph();
    if let Some(list) = points {
        let text = std::fs::read_to_string(list)
            .map_err(|e| Failure::Input(format!("{}: {e}", list.display())))?;
        let mut out = String::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let p = point_of(line)?;
            let found = nav.locate(p);
            if json {
                let v = match found {
                    Some(l) => json!({"cell": id_json(graph, l.cell), "distance": l.distance}),
                    None => json!({"cell": null, "distance": null}),
                };
                out.push_str(&v.to_string());
            } else {
                match found {
                    Some(l) => out.push_str(&format!("{} {}", id_of(graph, l.cell), l.distance)),
                    None => out.push('-'),
                }
            }
            out.push('\n');
        }
        out_raw(&out);
        return Ok(());
    }
    let [x, y, z] = point else {
        return Err(Failure::Usage(
            "locate takes a point X Y Z, or --points FILE".into(),
        ));
    };
    let found = nav.locate([*x, *y, *z]);
    match (found, json) {
        (Some(l), true) => print_json(&json!({
            "cell": id_json(graph, l.cell),
            "distance": l.distance,
        })),
        (Some(l), false) => out!(
            "cell {} ({} above or below its surface)",
            id_of(graph, l.cell),
            l.distance
        ),
        (None, true) => print_json(&json!({"cell": null, "distance": null})),
        (None, false) => eprintln!("navkit: {}: no cell at ({x}, {y}, {z})", path.display()),
    }
    if found.is_some() {
        Ok(())
    } else {
        Err(Failure::Reported)
    }
}

fn weight(arg: WeightArg) -> Weight {
    match arg {
        WeightArg::Distance => Weight::Distance,
        WeightArg::Hops => Weight::Hops,
    }
}

/// An end as the user gave it, as JSON: a cell id as [`id_json`] writes one, a point as
/// `[x, y, z]`.
fn end_json(text: &str) -> Value {
    match endpoint(text) {
        Ok(Endpoint::Cell(CellId { part: None, id })) => json!(id),
        Ok(Endpoint::Cell(id)) => json!(id.to_string()),
        Ok(Endpoint::Point(p)) => json!(p),
        Err(_) => json!(text),
    }
}

fn route_json(graph: &Graph, from: &str, to: &str, route: &Route) -> Value {
    json!({
        "from": end_json(from),
        "to": end_json(to),
        "reachable": route.reachable,
        "cells": route.cells.iter().map(|c| id_json(graph, *c)).collect::<Vec<_>>(),
        "cost": if route.reachable { json!(route.cost) } else { Value::Null },
        "reason": route.reason,
    })
}

fn route_text(graph: &Graph, from: &str, to: &str, route: &Route) -> String {
    if !route.reachable {
        let why = route.reason.as_deref().unwrap_or("no path");
        return format!("{from} -> {to}: unreachable: {why}");
    }
    let cells: Vec<String> = route.cells.iter().map(|c| id_of(graph, *c)).collect();
    format!(
        "{from} -> {to}: cost {} over {} cells: {}",
        route.cost,
        cells.len(),
        cells.join(" ")
    )
}

/// `navkit path FILE FROM TO` or `navkit path FILE --pairs PAIRS`.
pub(super) fn path(
    forced: Option<&'static dyn AnyFormat>,
    file: &Path,
    ends: &[String],
    pairs: Option<&Path>,
    arg: WeightArg,
    walk_only: bool,
    json: bool,
) -> CmdResult {
    let nav = navigator_of(forced, file)?;
    let graph = nav.graph();
    let one = |from: &str, to: &str| -> Result<Route, Failure> {
        nav.path(endpoint(from)?, endpoint(to)?, weight(arg), walk_only)
            .map_err(|e| input_error(file, e))
    };
    if let Some(list) = pairs {
        let text = std::fs::read_to_string(list)
            .map_err(|e| Failure::Input(format!("{}: {e}", list.display())))?;
        let mut out = String::new();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let words: Vec<&str> = line.split_whitespace().collect();
            let [from, to] = words.as_slice() else {
                return Err(Failure::Usage(format!(
                    "{}: `{line}` is not two ends FROM TO",
                    list.display()
                )));
            };
            let route = one(from, to)?;
            if json {
                out.push_str(&route_json(graph, from, to, &route).to_string());
            } else {
                out.push_str(&route_text(graph, from, to, &route));
            }
            out.push('\n');
        }
        out_raw(&out);
        return Ok(());
    }
    let [from, to] = ends else {
        return Err(Failure::Usage("path takes FROM TO, or --pairs FILE".into()));
    };
    let route = one(from, to)?;
    if json {
        print_json(&route_json(graph, from, to, &route));
    } else {
        out!("{}", route_text(graph, from, to, &route));
    }
    Ok(())
}

/// `navkit islands FILE`.
pub(super) fn islands(
    forced: Option<&'static dyn AnyFormat>,
    path: &Path,
    walk_only: bool,
    json: bool,
) -> CmdResult {
    let nav = navigator_of(forced, path)?;
    let graph = nav.graph();
    let islands = nav.islands(walk_only);
    if json {
        let list: Vec<Value> = islands
            .iter()
            .map(|cells| {
                json!({
                    "size": cells.len(),
                    "cells": cells.iter().map(|c| id_json(graph, *c)).collect::<Vec<_>>(),
                })
            })
            .collect();
        print_json(&json!({
            "file": path.display().to_string(),
            "cells": graph.cells.len(),
            "islands": list,
        }));
        return Ok(());
    }
    let mut out = String::new();
    for (i, cells) in islands.iter().enumerate() {
        let shown: Vec<String> = cells.iter().take(12).map(|c| id_of(graph, *c)).collect();
        let more = cells.len().saturating_sub(shown.len());
        out.push_str(&format!(
            "island {i}: {} cells: {}{}\n",
            cells.len(),
            shown.join(" "),
            if more > 0 {
                format!(" (+{more} more)")
            } else {
                String::new()
            }
        ));
    }
    out.push_str(&format!(
        "{}: {} cells in {} islands\n",
        path.display(),
        graph.cells.len(),
        islands.len()
    ));
    out_raw(&out);
    Ok(())
}

/// Adds the way from `from` to `to` to a picture's geometry: a node of kind `path` at each
/// cell's centre, linked in order (`navkit render --path`). An unreachable pair is an error.
pub(super) fn overlay_path(
    forced: Option<&'static dyn AnyFormat>,
    file: &Path,
    g: &mut nav_core::geometry::Geometry,
    from: &str,
    to: &str,
) -> CmdResult {
    let nav = navigator_of(forced, file)?;
    let route = nav
        .path(endpoint(from)?, endpoint(to)?, Weight::Distance, false)
        .map_err(|e| input_error(file, e))?;
    if !route.reachable {
        let why = route.reason.as_deref().unwrap_or("no path");
        return Err(input_error(
            file,
            format!("--path {from} {to}: unreachable: {why}"),
        ));
    }
    let graph = nav.graph();
    let mut last = None;
    for cell in &route.cells {
        let Some(centre) = graph.cells.get(*cell as usize).and_then(|c| c.centre) else {
            continue;
        };
        let node = g.push_node(centre, "path");
        if let Some(prev) = last {
            g.push_link(prev, node, "path");
        }
        last = Some(node);
    }
    Ok(())
}
