"""File > Export > navkit navmesh (filled in with ``apply``)."""

import bpy

CLASSES = ()


def menu_export(self, context):
    pass
