//! Counting: the pieces every metric's statistics kernel is built from, each written once.
//!
//! - [`vocabulary`]: token text to dense `u32` ids within a segment (an arena and an
//!   [`IdTable`] keyed by the text's hash, verified against the text).
//! - [`id_table`]: the open-addressing `u64 -> u32` map under the other tables, cleared in
//!   O(1).
//! - [`ngrams`]: n-gram ids, each order from the one below: (id of the `(n-1)`-gram prefix,
//!   last symbol) to a dense id, with no string or slice per n-gram.
//! - [`clip`]: matches clipped to per-id budgets (the reference counts), the budget given
//!   back afterwards, so one set of counts serves any number of hypotheses.
//! - [`matcher`]: clipped n-gram counts against the maximum over several references (BLEU,
//!   GLEU).
//! - [`lcs`]: longest common subsequences, bit-parallel, with rouge-score's backtrack (ROUGE-L).
//! - [`bags`]: sentences counted once into n-gram bags whose ids a whole corpus shares
//!   (pairwise matrices, reference aggregation).
//!
//! A metric interns its references' symbols and n-grams, counts them per id, then only looks
//! up its hypothesis' n-grams: an n-gram no reference has cannot match.

pub mod bags;
pub mod clip;
pub mod id_table;
pub mod lcs;
pub mod matcher;
pub mod ngrams;
pub mod vocabulary;

pub use bags::{Aggregation, BagBuilder, DenseCounts, ExpectedCounts, NgramBag};
pub use clip::Clip;
pub use id_table::IdTable;
pub use matcher::NgramMatcher;
pub use ngrams::{extend_order, NgramIds, ABSENT};
pub use vocabulary::Vocabulary;
