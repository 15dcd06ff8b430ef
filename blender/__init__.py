"""navkit for Blender: import the navmeshes of six game engines, edit them, write them back.

File > Import > navkit navmesh reads every file navkit reads; File > Export > navkit navmesh
writes an imported object back onto its source through ``apply`` (everything the mesh does not
show is kept), or builds a new file from any mesh. The N panel's navkit tab shows the active
face's cell and flags, validates, fixes and finds paths. The navkit Python package comes with the
add-on as a wheel.
"""

import bpy

from . import exporter, importer, panel

CLASSES = (importer.ImportNavkit, *exporter.CLASSES, *panel.CLASSES)


def register():
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.TOPBAR_MT_file_import.append(importer.menu_import)
    bpy.types.TOPBAR_MT_file_export.append(exporter.menu_export)


def unregister():
    bpy.types.TOPBAR_MT_file_export.remove(exporter.menu_export)
    bpy.types.TOPBAR_MT_file_import.remove(importer.menu_import)
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)
