//! Where segment `i`'s hypothesis and references are: the input layouts the driver
//! ([`super::rows`]) reads. Each checks its own shape once, before any row is computed.

use super::shared::ReferenceGroups;
use crate::error::{row_item, Error, Result};

/// An input layout: `len()` segments, each with a hypothesis and its references, items of type
/// [`Layout::Item`] (`str` for text, `[T]` for token sequences) borrowed for `'a`.
pub trait Layout<'a>: Sync {
    /// What a hypothesis or a reference is.
    type Item: ?Sized + 'a;

    /// Number of segments.
    fn len(&self) -> usize;

    /// True when there is no segment.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Checks the shape: lengths agree and, where `needs_references` and the layout can tell
    /// up front, every segment has a reference.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidInput`] naming the inconsistency.
    fn check(&self, needs_references: bool) -> Result<()>;

    /// The hypothesis of segment `i`.
    ///
    /// # Errors
    /// [`crate::ErrorKind::Internal`] for `i >= len()`.
    fn hypothesis(&self, i: usize) -> Result<&'a Self::Item>;

    /// The references of segment `i`, in order (empty for `i >= len()`).
    fn references(&self, i: usize) -> impl Iterator<Item = &'a Self::Item> + '_;

    /// The index in the whole input of this layout's first segment (a part of a larger input
    /// counted a chunk at a time), for error messages.
    fn first_segment(&self) -> usize {
        0
    }

    /// The segments grouped by identical references, when the layout can share them and some
    /// segments do; `None` scores segment by segment.
    ///
    /// # Errors
    /// As [`ReferenceGroups::find`].
    fn shared_references(&self, workers: i64) -> Result<Option<ReferenceGroups>> {
        let _ = workers;
        Ok(None)
    }

    /// Whether segments `a` and `b` have the same references, text for text: members of a
    /// group share a hash, and this tells a collision apart. The default, `a == b`, is never
    /// wrong (a segment then gets its references prepared on its own); a layout that
    /// overrides [`Layout::shared_references`] compares the text.
    fn same_references(&self, a: usize, b: usize) -> bool {
        a == b
    }
}

/// sacrebleu's layout: `streams[k][i]` is the k-th reference of segment `i`, and `None` drops
/// it for that segment (an empty string is a real, empty reference).
#[derive(Debug, Clone, Copy)]
pub struct Streams<'a> {
    hypotheses: &'a [&'a str],
    streams: &'a [Vec<Option<&'a str>>],
    first: usize,
}

impl<'a> Streams<'a> {
    /// The hypotheses with their reference streams.
    pub fn new(hypotheses: &'a [&'a str], streams: &'a [Vec<Option<&'a str>>]) -> Self {
        Self::part(hypotheses, streams, 0)
    }

    /// Segments `first..` of a larger input, with their reference streams' entries.
    pub fn part(
        hypotheses: &'a [&'a str],
        streams: &'a [Vec<Option<&'a str>>],
        first: usize,
    ) -> Self {
        Self {
            hypotheses,
            streams,
            first,
        }
    }
}

impl<'a> Layout<'a> for Streams<'a> {
    type Item = str;

    fn len(&self) -> usize {
        self.hypotheses.len()
    }

    /// At least one stream, each with one entry per hypothesis.
    fn check(&self, _needs_references: bool) -> Result<()> {
        let hypotheses = self.hypotheses.len();
        if self.streams.is_empty() {
            return Err(Error::invalid_input("no reference streams were given"));
        }
        for (k, stream) in self.streams.iter().enumerate() {
            if stream.len() != hypotheses {
                return Err(Error::invalid_input(format!(
                    "reference stream {k} has {} segments but there are {hypotheses} hypotheses",
                    stream.len(),
                )));
            }
        }
        Ok(())
    }

    fn hypothesis(&self, i: usize) -> Result<&'a str> {
        row_item(self.hypotheses, i, "hypothesis").copied()
    }

    fn references(&self, i: usize) -> impl Iterator<Item = &'a str> + '_ {
        self.streams
            .iter()
            .filter_map(move |s| s.get(i).copied().flatten())
    }

    fn first_segment(&self) -> usize {
        self.first
    }

    fn shared_references(&self, workers: i64) -> Result<Option<ReferenceGroups>> {
        let streams = self.streams;
        ReferenceGroups::find(self.len(), workers, |i| {
            streams.iter().map(move |s| s.get(i).copied().flatten())
        })
    }

    fn same_references(&self, a: usize, b: usize) -> bool {
        self.references(a).eq(self.references(b))
    }
}

/// A list of references per hypothesis: `references[i]` are those of `hypotheses[i]`, in
/// order. Items are text (`H = &str`) or token sequences (`H = Vec<T>`, counted as given).
#[derive(Debug)]
pub struct Grouped<'a, H> {
    hypotheses: &'a [H],
    references: &'a [Vec<H>],
}

impl<'a, H> Grouped<'a, H> {
    /// The hypotheses with their reference lists.
    pub fn new(hypotheses: &'a [H], references: &'a [Vec<H>]) -> Self {
        Self {
            hypotheses,
            references,
        }
    }

    /// One list per hypothesis and, where `needs_references`, none of them empty.
    fn check_lists(&self, needs_references: bool) -> Result<()> {
        let hypotheses = self.hypotheses.len();
        if self.references.len() != hypotheses {
            return Err(Error::invalid_input(format!(
                "hypotheses has {hypotheses} items but references has {}: give one list of \
                 references per hypothesis",
                self.references.len()
            )));
        }
        if needs_references {
            if let Some(i) = self.references.iter().position(Vec::is_empty) {
                return Err(Error::invalid_input(format!(
                    "references[{i}] is empty: every hypothesis needs at least one reference"
                )));
            }
        }
        Ok(())
    }

    fn list(&self, i: usize) -> &'a [H] {
        self.references.get(i).map_or(&[], Vec::as_slice)
    }
}

impl<'a> Layout<'a> for Grouped<'a, &'a str> {
    type Item = str;

    fn len(&self) -> usize {
        self.hypotheses.len()
    }

    fn check(&self, needs_references: bool) -> Result<()> {
        self.check_lists(needs_references)
    }

    fn hypothesis(&self, i: usize) -> Result<&'a str> {
        row_item(self.hypotheses, i, "hypothesis").copied()
    }

    fn references(&self, i: usize) -> impl Iterator<Item = &'a str> + '_ {
        self.list(i).iter().copied()
    }

    fn shared_references(&self, workers: i64) -> Result<Option<ReferenceGroups>> {
        ReferenceGroups::find(self.len(), workers, |i| {
            self.list(i).iter().copied().map(Some)
        })
    }

    fn same_references(&self, a: usize, b: usize) -> bool {
        self.list(a) == self.list(b)
    }
}

impl<'a, T: Sync + 'a> Layout<'a> for Grouped<'a, Vec<T>> {
    type Item = [T];

    fn len(&self) -> usize {
        self.hypotheses.len()
    }

    fn check(&self, needs_references: bool) -> Result<()> {
        self.check_lists(needs_references)
    }

    fn hypothesis(&self, i: usize) -> Result<&'a [T]> {
        row_item(self.hypotheses, i, "hypothesis").map(Vec::as_slice)
    }

    fn references(&self, i: usize) -> impl Iterator<Item = &'a [T]> + '_ {
        self.list(i).iter().map(Vec::as_slice)
    }
}

/// Exactly one reference per hypothesis: `references[i]` is that of `hypotheses[i]` (jiwer's
/// layout). Items are text (`H = &str`) or token sequences (`H = Vec<T>`).
#[derive(Debug)]
pub struct Pairs<'a, H> {
    hypotheses: &'a [H],
    references: &'a [H],
}

impl<'a, H> Pairs<'a, H> {
    /// The hypotheses with their references.
    pub fn new(hypotheses: &'a [H], references: &'a [H]) -> Self {
        Self {
            hypotheses,
            references,
        }
    }

    /// As many references as hypotheses.
    fn check_lengths(&self) -> Result<()> {
        let (hyps, refs) = (self.hypotheses.len(), self.references.len());
        if hyps == refs {
            Ok(())
        } else {
            Err(Error::invalid_input(format!(
                "there are {refs} references but {hyps} hypotheses"
            )))
        }
    }
}

impl<'a> Layout<'a> for Pairs<'a, &'a str> {
    type Item = str;

    fn len(&self) -> usize {
        self.hypotheses.len()
    }

    fn check(&self, _needs_references: bool) -> Result<()> {
        self.check_lengths()
    }

    fn hypothesis(&self, i: usize) -> Result<&'a str> {
        row_item(self.hypotheses, i, "hypothesis").copied()
    }

    fn references(&self, i: usize) -> impl Iterator<Item = &'a str> + '_ {
        self.references.get(i).copied().into_iter()
    }
}

impl<'a, T: Sync + 'a> Layout<'a> for Pairs<'a, Vec<T>> {
    type Item = [T];

    fn len(&self) -> usize {
        self.hypotheses.len()
    }

    fn check(&self, _needs_references: bool) -> Result<()> {
        self.check_lengths()
    }

    fn hypothesis(&self, i: usize) -> Result<&'a [T]> {
        row_item(self.hypotheses, i, "hypothesis").map(Vec::as_slice)
    }

    fn references(&self, i: usize) -> impl Iterator<Item = &'a [T]> + '_ {
        self.references.get(i).map(Vec::as_slice).into_iter()
    }
}

/// One hypothesis with its references.
#[derive(Debug, Clone)]
pub struct Segment<'a> {
    /// The system output.
    pub hypothesis: &'a str,
    /// Its references (at least one).
    pub references: Vec<&'a str>,
}

/// A list of [`Segment`]s, each carrying its own references.
#[derive(Debug, Clone, Copy)]
pub struct Segments<'a>(pub &'a [Segment<'a>]);

impl<'a> Layout<'a> for Segments<'a> {
    type Item = str;

    fn len(&self) -> usize {
        self.0.len()
    }

    fn check(&self, _needs_references: bool) -> Result<()> {
        Ok(())
    }

    fn hypothesis(&self, i: usize) -> Result<&'a str> {
        row_item(self.0, i, "segment").map(|s| s.hypothesis)
    }

    fn references(&self, i: usize) -> impl Iterator<Item = &'a str> + '_ {
        self.0
            .get(i)
            .map_or(&[][..], |s| s.references.as_slice())
            .iter()
            .copied()
    }
}
