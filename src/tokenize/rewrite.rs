//! Rewriting a line pass by pass, as the Python tokenizers do with `str.replace` and `re.sub`:
//! each pass reads one buffer and writes the other, then the two swap.

use std::cell::Cell;

/// `text = text.replace(from, to)` (non-overlapping, left to right, like Python's; a regex
/// without metacharacters substitutes the same), writing into `spare` and swapping.
pub(super) fn replace(text: &mut String, spare: &mut String, from: &str, to: &str) {
    if !text.contains(from) {
        return;
    }
    spare.clear();
    let mut rest = text.as_str();
    while let Some((head, tail)) = rest.split_once(from) {
        spare.push_str(head);
        spare.push_str(to);
        rest = tail;
    }
    spare.push_str(rest);
    std::mem::swap(text, spare);
}

/// Runs `f` over every character of `text`, its output becoming the new `text`.
pub(super) fn map_chars(
    text: &mut String,
    spare: &mut String,
    mut f: impl FnMut(char, &mut String),
) {
    spare.clear();
    for c in text.chars() {
        f(c, spare);
    }
    std::mem::swap(text, spare);
}

/// Appends `' c '`: what `re.sub(r'(c)', r' \1 ', ...)` makes of a character it isolates.
#[inline]
pub(super) fn push_spaced(c: char, out: &mut String) {
    out.push(' ');
    out.push(c);
    out.push(' ');
}

/// Lines longer than this do not keep the scratch buffers alive between calls.
const KEEP_SCRATCH: usize = 1 << 20;

thread_local! {
    /// Two buffers to rewrite lines through, reused across calls.
    static SCRATCH: Cell<(String, String)> = const { Cell::new((String::new(), String::new())) };
}

/// Runs `f` with two empty buffers for rewriting a line: this thread's, kept between calls
/// unless a long line grew them, for tokenizers whose callers hold no scratch state.
pub(super) fn with_scratch<R>(f: impl FnOnce(&mut String, &mut String) -> R) -> R {
    // `Cell::take` cannot panic, and a missing thread local just means fresh buffers.
    let (mut text, mut spare) = SCRATCH.try_with(Cell::take).unwrap_or_default();
    text.clear();
    spare.clear();
    let result = f(&mut text, &mut spare);
    if text.capacity() <= KEEP_SCRATCH && spare.capacity() <= KEEP_SCRATCH {
        // Ignoring the error is fine: it only happens while the thread is exiting.
        let _ = SCRATCH.try_with(|cell| cell.set((text, spare)));
    }
    result
}
