"""The directory to give ``mbrs-decode --plugin_dir``: :data:`PLUGIN_DIR`.

mbrs imports a plugin directory as a top-level module (its parent goes first on
``sys.path``), so the directory is ``bleuprint_mbrs`` inside this package, which holds nothing
else: no other module can be shadowed. Importing it registers bleuprint's mbrs metrics
(``bleuprint_bleu`` and ``bleuprint_chrf``, :mod:`bleuprint.integrations.mbrs`). This package
itself imports nothing::

    PLUGIN=$(python -c 'import bleuprint.integrations.mbrs_plugin as p; print(p.PLUGIN_DIR)')
    mbrs-decode hyps.txt -n 16 --metric bleuprint_bleu --plugin_dir "$PLUGIN"
"""

from __future__ import annotations

import os

#: The plugin directory (a package named ``bleuprint_mbrs``).
PLUGIN_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bleuprint_mbrs")

__all__ = ["PLUGIN_DIR"]
