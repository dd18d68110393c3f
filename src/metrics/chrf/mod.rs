//! chrF and chrF++ (Popović 2015, 2017) exactly as sacrebleu 2.6.0's `CHRF` computes them.
//!
//! - [`config`]: the knobs (character and word orders, beta, whitespace, eps smoothing).
//! - [`pairwise`]: sentences counted once, then rows for every hypothesis × reference pair.
//! - [`stats`]: text to one integer row per segment, `[hyp, ref, match]` per order, for the
//!   reference with the best F-score.
//! - [`score`]: a statistics row to a score, with the float operations in sacrebleu's order.

pub mod config;
pub mod pairwise;
pub mod score;
pub mod stats;

pub use crate::statistics::{segment_stats, stream_stats};
pub use config::ChrfConfig;
pub use score::{f_score, f_score_float32, scores_from_rows};
