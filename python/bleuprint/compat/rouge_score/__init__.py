"""Google's rouge-score 0.1.2 (``rouge_score``), computed by bleuprint's core.

``from bleuprint.compat.rouge_score import rouge_scorer, scoring`` works as ``from rouge_score
import rouge_scorer, scoring``; :func:`install` makes ``import rouge_score`` (and
``rouge_score.rouge_scorer``, ``.scoring``, ``.tokenize``, ``.tokenizers``, ``.io``) load this
package, for code you cannot edit; ``python -m bleuprint.compat.rouge_score script.py ARGS``
runs a script that way. As rouge-score's own ``__init__``, this one imports no module.

- :mod:`~bleuprint.compat.rouge_score.rouge_scorer`: ``RougeScorer`` (``score``,
  ``score_multi``), on :class:`bleuprint.ROUGE`: the same ``Score`` floats, compared with
  ``==``, the same ``ValueError`` for a bad type (raised when scoring, as rouge-score does).
- :mod:`~bleuprint.compat.rouge_score.scoring`: ``Score``, ``AggregateScore``,
  ``BaseScorer``, ``fmeasure`` and ``BootstrapAggregator``, whose intervals equal
  rouge-score's for the same ``np.random.seed``
  (:mod:`bleuprint.significance.percentile_bootstrap`).
- :mod:`~bleuprint.compat.rouge_score.tokenize` and
  :mod:`~bleuprint.compat.rouge_score.tokenizers`: rouge-score's tokenizer (lowercase, runs of
  ``[a-z0-9]``, nltk's Porter stemmer on tokens longer than 3 characters), in the core.
- :mod:`~bleuprint.compat.rouge_score.io`: ``compute_scores_and_write_to_csv``.

Not provided: the ``rouge_score.rouge`` command line and ``create_pyrouge_files`` (absl
programs), and ``rouge_scorer``'s private LCS helpers (``_lcs_table``, ``_backtrack_norec``,
``lcs_ind``, ``_find_union``, ``_union_lcs``), which are the scoring itself.
"""

# bleuprint's additions (rouge-score's package has no names of its own).
from bleuprint.compat.aliasing import Alias, AlreadyImportedError


class RougeScoreAlreadyImportedError(AlreadyImportedError):
    """The real rouge-score was imported before ``install()``."""


_alias = Alias("rouge_score", __name__, RougeScoreAlreadyImportedError)
install, uninstall, installed = _alias.install, _alias.uninstall, _alias.installed
