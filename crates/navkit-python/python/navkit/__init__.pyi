"""Type stubs for navkit (the extension module navkit._navkit)."""

import os
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

__version__: str

_Point = Union[Sequence[float], npt.NDArray[np.floating[Any]]]
_End = Union[int, str, _Point]

class NavError(ValueError):
    """A file navkit cannot read, or a question it cannot answer (the CLI's one-line message)."""

class Finding:
    """One finding of ``Navmesh.validate()``."""

    @property
    def severity(self) -> str:
        """``"error"``, ``"warning"`` or ``"info"``."""
    @property
    def path(self) -> str:
        """Where, as a path in the model (``nodes[12] links[3]``)."""
    @property
    def message(self) -> str:
        """What, in words."""

class Path:
    """A route between two cells, or why there is none (``Navmesh.path``)."""

    @property
    def cells(self) -> List[int]:
        """The route's cells, start to end, as indices into ``Navmesh.cell_ids``."""
    @property
    def ids(self) -> List[str]:
        """The route's cells by the ids users know (``"61"``, ``"0410E930:12"``)."""
    @property
    def cost(self) -> float:
        """The route's cost under the weight asked for (0.0 when unreachable)."""
    @property
    def reachable(self) -> bool:
        """Whether a route exists."""
    @property
    def reason(self) -> Optional[str]:
        """Why there is no route, when unreachable."""
    @property
    def start(self) -> Optional[int]:
        """The start cell's index, or ``None`` for a point on no cell."""
    @property
    def end(self) -> Optional[int]:
        """The end cell's index, or ``None`` for a point on no cell."""
    def __len__(self) -> int: ...

class Navmesh:
    """A navmesh file, read once; usable from several threads."""

    @property
    def format(self) -> str:
        """The format's name (``"nav-source"``)."""
    @property
    def version(self) -> str:
        """The version as the file states it."""
    @property
    def variant(self) -> Optional[str]:
        """A game flavour or sub-format, where the format has them."""
    @property
    def source(self) -> Optional[os.PathLike[str]]:
        """The file it was read from, or ``None``."""
    def info(self) -> Dict[str, Any]:
        """What ``navkit info --json`` prints."""
    def dump(self) -> str:
        """The whole structure as text (``navkit dump``)."""
    def to_bytes(self) -> bytes:
        """The navmesh written as a file."""
    def save(self, path: Union[str, os.PathLike[str]]) -> None:
        """Writes the navmesh to ``path`` atomically."""
    def to_json(self) -> str:
        """The JSON document (``navkit to-json``)."""
    def to_dict(self) -> Dict[str, Any]:
        """The JSON document as Python objects."""
    def validate(self) -> List[Finding]:
        """Semantic findings."""
    def fix(self) -> List[str]:
        """Makes the navmesh consistent after an edit, in place; one line per change."""
    def copy(self) -> "Navmesh":
        """An independent copy."""
    def parts(self) -> Dict[str, "Navmesh"]:
        """The navmeshes a container holds, by name (FormID as 8 hex digits)."""
    def replace(self, form_id: Union[int, str], navmesh: "Navmesh") -> None:
        """Puts ``navmesh`` in place of the part ``form_id``, in place."""
    def export(self, path: Union[str, os.PathLike[str]]) -> None:
        """Writes the geometry as ``.obj`` or ``.glb``."""
    def render(self, path: Union[str, os.PathLike[str]], size: int = 1024) -> None:
        """Draws the navmesh from above into ``.png`` or ``.svg``."""
    @property
    def up(self) -> str:
        """Which axis of the file points up: ``"y"`` or ``"z"``."""
    @property
    def vertices(self) -> npt.NDArray[np.float32]:
        """The geometry's vertices, float32 ``(N, 3)``; assign the same shape to move them."""
    @vertices.setter
    def vertices(self, value: npt.ArrayLike) -> None: ...
    def apply(
        self,
        vertices: npt.ArrayLike,
        offsets: npt.ArrayLike,
        indices: npt.ArrayLike,
        attributes: Optional[Dict[str, npt.ArrayLike]] = None,
    ) -> List[str]:
        """Puts an edited mesh back onto the navmesh, in place; one line per change."""
    @property
    def polygon_records(self) -> Dict[str, npt.NDArray[np.int64]]:
        """Which record each polygon is: ``index``, ``id`` (-1 where none), ``part``."""
    def polygon_attributes(self) -> Dict[str, npt.NDArray[np.int64]]:
        """Each polygon's raw attribute values, named as in the JSON."""
    def attribute_bits(self) -> Dict[str, Dict[str, int]]:
        """The format's named flag bits: ``{attribute: {bit name: mask}}``."""
    @property
    def polygons(self) -> Tuple[npt.NDArray[np.int64], npt.NDArray[np.uint32]]:
        """``(offsets, indices)``: polygon k is ``indices[offsets[k]:offsets[k + 1]]``."""
    @property
    def polygon_kinds(self) -> npt.NDArray[np.uint16]:
        """Each polygon's kind, an index into ``kinds``."""
    @property
    def node_kinds(self) -> npt.NDArray[np.uint16]:
        """Each graph node's kind, an index into ``kinds``."""
    @property
    def link_kinds(self) -> npt.NDArray[np.uint16]:
        """Each graph link's kind (the link type the file stores), an index into ``kinds``."""
    @property
    def kinds(self) -> List[str]:
        """The names of the polygon and link kinds."""
    @property
    def nodes(self) -> npt.NDArray[np.float32]:
        """The geometry's graph nodes, float32 ``(N, 3)``; assign the same shape to move them."""
    @nodes.setter
    def nodes(self, value: npt.ArrayLike) -> None: ...
    def apply_graph(
        self, nodes: npt.ArrayLike, links: Optional[npt.ArrayLike] = None
    ) -> List[str]:
        """Puts a graph with moved nodes back onto the navmesh, in place; one line per change."""
    @property
    def links(self) -> npt.NDArray[np.uint32]:
        """The geometry's graph links, uint32 ``(M, 2)``."""
    @property
    def cell_ids(self) -> npt.NDArray[np.uint64]:
        """The navigation cells' ids."""
    @property
    def cells(self) -> Dict[str, npt.NDArray[Any]]:
        """Per-cell arrays: id, part, centre, radius, corner_start, corner_count, and each
        per-record attribute named as in the JSON (``attribute_flags``, ``flags``, ...): int64
        raw values, -1 for a cell that is no polygon record (a node)."""
    @property
    def cell_corners(self) -> npt.NDArray[np.float32]:
        """Every cell's polygon corners, float32 ``(M, 3)``."""
    def locate(self, point: _Point) -> Optional[int]:
        """The index of the cell under ``point``, or ``None``."""
    def locate_many(self, points: npt.ArrayLike) -> npt.NDArray[np.int64]:
        """``locate`` for every row of an ``(N, 3)`` array; -1 where no cell is."""
    def path(
        self, a: _End, b: _End, *, weight: str = "distance", walk_only: bool = False
    ) -> Path:
        """The cheapest route from ``a`` to ``b`` (cell ids or points)."""
    def islands(self, *, walk_only: bool = False) -> List[npt.NDArray[np.int64]]:
        """The connected components, largest first, as arrays of cell indices."""

def build(
    format: str, vertices: npt.ArrayLike, triangles: npt.ArrayLike
) -> Tuple[Navmesh, List[str]]:
    """A new navmesh of ``format`` from a triangle mesh, and the builder's warnings."""

def kind_colour(kind: int) -> Tuple[int, int, int]:
    """The ``(r, g, b)`` colour (0-255) of attribute kind ``kind`` in ``render`` and ``export``."""

def open(
    path_or_bytes: Union[str, os.PathLike[str], bytes, bytearray],
    *,
    format: Optional[str] = None,
    flavour: Optional[str] = None,
) -> Navmesh:
    """Reads a navmesh file from a path or bytes."""

def from_json(text: Union[str, bytes], *, format: Optional[str] = None) -> Navmesh:
    """Reads a navmesh from its JSON document."""

def from_dict(d: Dict[str, Any], *, format: Optional[str] = None) -> Navmesh:
    """Reads a navmesh from ``Navmesh.to_dict()``'s dictionary."""

def diff(a: Navmesh, b: Navmesh) -> List[str]:
    """The differences between two navmeshes of one format, one line each."""

def formats() -> List[Dict[str, Any]]:
    """The formats this build reads."""

__all__: List[str]
