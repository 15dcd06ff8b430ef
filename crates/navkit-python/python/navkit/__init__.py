"""navkit: read, write, validate and navigate the navigation meshes of six game engines.

Quake and Quake II bot ``.nav`` (nav-quake), Source ``.nav`` (nav-source), Source 2 ``.nav`` (nav-source2),
Silkroad ``.nvm`` (jmxvnvm), Skyrim plugins and NVNM blobs (skyrim-plugin, nvnm-skyrim) and
Metal Gear Solid V ``.nav2`` (nav2-mgsv), byte for byte, on navkit's Rust core::

    import navkit
    mesh = navkit.open("de_dust2.nav")
    mesh.vertices            # float32 (N, 3)
    mesh.locate_many(points) # cell indices, -1 where none
    mesh.save("copy.nav")    # the same bytes
"""

from ._navkit import (
    Finding,
    NavError,
    Navmesh,
    Path,
    __version__,
    build,
    diff,
    formats,
    from_dict,
    from_json,
    kind_colour,
    open,
)

__all__ = [
    "Finding",
    "NavError",
    "Navmesh",
    "Path",
    "__version__",
    "build",
    "diff",
    "formats",
    "from_dict",
    "from_json",
    "kind_colour",
    "open",
]
