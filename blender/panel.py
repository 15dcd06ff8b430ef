"""The navkit tab of the 3D view's side panel (filled in with ``apply``)."""

CLASSES = ()
