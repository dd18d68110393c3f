"""Direct access to the tokenizers, identical string for string to sacrebleu's."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Union, overload

from bleuprint import _core
from bleuprint.layout import as_text_sequence

#: Tokenizer names available in this build.
TOKENIZERS: tuple[str, ...] = tuple(_core.TOKENIZERS)


@overload
def tokenize(text: str, tokenizer: str = "13a", *, workers: int = -1) -> str: ...
@overload
def tokenize(text: Sequence[str], tokenizer: str = "13a", *, workers: int = -1) -> list[str]: ...
def tokenize(
    text: Union[str, Sequence[str]], tokenizer: str = "13a", *, workers: int = -1
) -> Union[str, list[str]]:
    """Tokenizes one string, or a batch of strings in one parallel call.

    >>> tokenize("Hello, world!")
    'Hello , world !'
    """
    if isinstance(text, str):
        return _core.tokenize([text], tokenizer, workers=1)[0]
    return _core.tokenize(as_text_sequence(text, "text"), tokenizer, workers=workers)
