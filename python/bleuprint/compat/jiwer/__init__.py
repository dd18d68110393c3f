"""jiwer 4.0.0's API, computed by bleuprint's core: ``import bleuprint.compat.jiwer as jiwer``.

The functions take the **reference first**, as jiwer's do, and return exactly what jiwer
returns: the same floats, the same ``int`` where jiwer returns one (``wer`` is the insertion
count when every reference is empty; ``mer``/``wip``/``wil`` are then 0 or 1), the same
``ValueError`` cases, and ``WordOutput``/``CharacterOutput`` objects with the same fields,
including ``alignments`` as lists of :class:`AlignmentChunk`. ``visualize_alignment`` returns
byte-identical text.

Transforms: jiwer's transform classes and the compositions ``wer_default``, ``cer_default``,
``wer_standardize``, ``wer_contiguous``, ``wer_standardize_contiguous`` and ``cer_contiguous``
are provided here, so jiwer need not be installed. Any callable with jiwer's transform
contract also works, jiwer's own transform objects included. With the default transforms (ours
or jiwer's) the text is split in the Rust core; otherwise the transforms run in Python and the
core aligns their output.

Differences: the output classes are bleuprint's (equal field by field to jiwer's, but not
instances of jiwer's classes), and the command line is ``python -m
bleuprint.compat.jiwer.cli`` (jiwer's options and output, on ``argparse`` instead of click).

The package follows jiwer's own modules, each with jiwer's ``__all__``:
:mod:`~bleuprint.compat.jiwer.transforms`, :mod:`~bleuprint.compat.jiwer.transformations`,
:mod:`~bleuprint.compat.jiwer.process`, :mod:`~bleuprint.compat.jiwer.measures`,
:mod:`~bleuprint.compat.jiwer.alignment` and :mod:`~bleuprint.compat.jiwer.cli` (not imported
here, as jiwer does not import its ``cli``).
"""

# As jiwer's own package does: every name of each module.
from bleuprint.compat.jiwer import alignment, measures, process, transformations, transforms
from bleuprint.compat.jiwer.alignment import *  # noqa: F403
from bleuprint.compat.jiwer.measures import *  # noqa: F403
from bleuprint.compat.jiwer.process import *  # noqa: F403
from bleuprint.compat.jiwer.transformations import *  # noqa: F403
from bleuprint.compat.jiwer.transforms import *  # noqa: F403

#: jiwer's package attribute of the same name.
name = "jiwer"

__all__ = [
    *alignment.__all__,
    *measures.__all__,
    *process.__all__,
    *transformations.__all__,
    *transforms.__all__,
]
