//! ROUGE as Google's rouge-score 0.1.2 computes it: ROUGE-N (`rouge1` … `rouge9`), ROUGE-L
//! (`rougeL`, the LCS of the two texts) and ROUGE-Lsum (`rougeLsum`, the union LCS of each
//! reference line against every hypothesis line, each token counted once).
//!
//! A row holds `[match, hyp, ref]` per type, in the order the types were asked for, taken from
//! the reference with the best F-measure (rouge-score's `score_multi`, the first on ties):
//! precision `match / max(hyp, 1)`, recall `match / max(ref, 1)` and their F-measure are then
//! rouge-score's floats exactly ([`score`]). Tokens become dense ids per segment
//! ([`crate::count`]), so n-grams are matched by id and LCS runs bit-parallel
//! ([`crate::count::lcs`]).

pub mod pairwise;
pub mod score;
mod union;

use std::collections::HashMap;

use rustc_hash::FxBuildHasher;

use crate::count::clip::{count, Clip};
use crate::count::lcs::{length_with_masks, one_word_masks, Lcs};
use crate::count::ngrams::{extend_order, NgramIds, ABSENT};
use crate::count::vocabulary::Vocabulary;
use crate::error::{to_i64, Error, Result};
use crate::statistics::{SegmentScorer, StatsMetric};
use crate::tokenize::porter::PorterStemmer;
use crate::tokenize::rouge::Tokens;
use crate::tokenize::{Pipeline, TextScratch};
#[cfg(test)]
use score::Scoring;

use union::LineUnion;

/// The highest ROUGE-N order (`rouge9`; rouge-score's type pattern is `rouge[0-9]`).
pub const MAX_ROUGE_N: usize = 9;

/// Stems remembered per thread before the cache starts over.
const STEM_CACHE_SIZE: usize = 1 << 17;

/// One ROUGE type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RougeType {
    /// `rougeN`: n-gram overlap.
    Ngram(usize),
    /// `rougeL`: the longest common subsequence of the two texts.
    L,
    /// `rougeLsum`: the summary-level union LCS over `\n`-separated lines.
    Lsum,
}

impl RougeType {
    /// The type named `name` (`rouge1` … `rouge9`, `rougeL`, `rougeLsum`).
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for any other name, naming the accepted ones.
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "rougeL" => return Ok(Self::L),
            "rougeLsum" => return Ok(Self::Lsum),
            _ => {}
        }
        let n = name.strip_prefix("rouge").and_then(|d| {
            let mut digits = d.bytes();
            match (digits.next(), digits.next()) {
                (Some(b @ b'1'..=b'9'), None) => Some(usize::from(b - b'0')),
                _ => None,
            }
        });
        n.map(Self::Ngram).ok_or_else(|| {
            Error::invalid_option(format!(
                "unknown ROUGE type {name:?}; expected rouge1 ... rouge{MAX_ROUGE_N} (n-grams), \
                 rougeL or rougeLsum"
            ))
        })
    }

    /// The type's name.
    pub fn name(self) -> String {
        match self {
            Self::Ngram(n) => format!("rouge{n}"),
            Self::L => "rougeL".to_owned(),
            Self::Lsum => "rougeLsum".to_owned(),
        }
    }
}

/// How several references make one row, per type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MultiReference {
    /// rouge-score's `score_multi`: the `[match, hyp, ref]` of the reference with the best
    /// F-measure, the first on ties.
    BestF,
    /// pycocoevalcap's `Rouge.calc_score`: the highest precision and the highest recall, each
    /// from whichever reference gives it, as `[p_match, hyp, r_match, ref]`.
    MaxPrecisionRecall,
}

impl MultiReference {
    /// The choice named `name` (`best-f`, `max-precision-recall`).
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for any other name.
    pub fn from_name(name: &str) -> Result<Self> {
        match name {
            "best-f" => Ok(Self::BestF),
            "max-precision-recall" => Ok(Self::MaxPrecisionRecall),
            other => Err(Error::invalid_option(format!(
                "unknown multi_reference {other:?}; expected 'best-f' (rouge-score's \
                 score_multi) or 'max-precision-recall' (pycocoevalcap's ROUGE-L)"
            ))),
        }
    }

    /// The choice's name.
    pub fn name(self) -> &'static str {
        match self {
            Self::BestF => "best-f",
            Self::MaxPrecisionRecall => "max-precision-recall",
        }
    }

    /// Columns per type.
    pub fn columns(self) -> usize {
        match self {
            Self::BestF => 3,
            Self::MaxPrecisionRecall => 4,
        }
    }

    /// The column names of one type.
    fn parts(self) -> &'static [&'static str] {
        match self {
            Self::BestF => &["match", "hyp", "ref"],
            Self::MaxPrecisionRecall => &["pmatch", "hyp", "rmatch", "ref"],
        }
    }
}

/// How text becomes tokens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RougeTokenizer {
    /// rouge-score's default tokenizer ([`crate::tokenize::rouge`]), optionally stemmed.
    Default {
        /// nltk's Porter stemmer on tokens longer than 3 characters.
        stem: bool,
    },
    /// A bleuprint tokenizer: the whole text for ROUGE-N and ROUGE-L, each non-empty line for
    /// ROUGE-Lsum.
    Pipeline(Pipeline),
    /// Tokens split by the caller: line 0 holds the whole text's tokens, each later line one
    /// sentence's, tokens separated by single spaces (a callable tokenizer's output, encoded).
    PreSplit,
    /// Python's `str.split(" ")` (pycocoevalcap's ROUGE-L): every space separates, so empty
    /// tokens count and an empty text is one empty token.
    SplitSpace,
}

/// ROUGE settings: the types, the tokenizer, how references combine (one `[match, hyp, ref]`
/// triple per type, or four columns under [`MultiReference::MaxPrecisionRecall`]) and the
/// F-measure's beta.
#[derive(Debug, Clone, PartialEq)]
pub struct RougeConfig {
    /// The types, in row order.
    pub types: Vec<RougeType>,
    /// How text becomes tokens.
    pub tokenizer: RougeTokenizer,
    /// How several references make one row.
    pub references: MultiReference,
    /// The F-measure's beta (rouge-score's F1: 1; pycocoevalcap's ROUGE-L: 1.2).
    pub beta: f64,
}

impl RougeConfig {
    /// rouge-score's settings for `types` under `tokenizer`.
    pub fn rouge_score(types: Vec<RougeType>, tokenizer: RougeTokenizer) -> Self {
        Self {
            types,
            tokenizer,
            references: MultiReference::BestF,
            beta: 1.0,
        }
    }

    /// Columns of a statistics row.
    pub fn width(&self) -> usize {
        self.references.columns() * self.types.len()
    }

    /// `rouge1_match, rouge1_hyp, rouge1_ref, ...` (`rougeL_pmatch, rougeL_hyp,
    /// rougeL_rmatch, rougeL_ref` under [`MultiReference::MaxPrecisionRecall`]).
    pub fn column_names(&self) -> Vec<String> {
        let parts = self.references.parts();
        self.types
            .iter()
            .flat_map(|t| parts.iter().map(move |part| format!("{}_{part}", t.name())))
            .collect()
    }

    /// How rows of these settings score.
    pub fn scoring(&self) -> score::Scoring {
        score::Scoring {
            types: self.types.len(),
            references: self.references,
            beta: self.beta,
        }
    }

    /// The highest n-gram order among the types (0 without ROUGE-N).
    fn max_n(&self) -> usize {
        self.types
            .iter()
            .map(|t| match t {
                RougeType::Ngram(n) => *n,
                _ => 0,
            })
            .max()
            .unwrap_or(0)
    }

    /// Checks the settings.
    ///
    /// # Errors
    /// [`crate::ErrorKind::InvalidOption`] for no types, a repeated type or an order above
    /// [`MAX_ROUGE_N`].
    pub fn validate(&self) -> Result<()> {
        if !(self.beta.is_finite() && self.beta > 0.0) {
            return Err(Error::invalid_option(format!(
                "ROUGE's beta must be a positive finite number, got {}",
                self.beta
            )));
        }
        if self.types.is_empty() {
            return Err(Error::invalid_option(
                "ROUGE needs at least one type (rouge1 ... rouge9, rougeL, rougeLsum)",
            ));
        }
        for (k, t) in self.types.iter().enumerate() {
            if let RougeType::Ngram(n) = t {
                if !(1..=MAX_ROUGE_N).contains(n) {
                    return Err(Error::invalid_option(format!(
                        "ROUGE-N needs 1 <= n <= {MAX_ROUGE_N}, got {n}"
                    )));
                }
            }
            if self.types.get(..k).is_some_and(|before| before.contains(t)) {
                return Err(Error::invalid_option(format!(
                    "ROUGE type {} is given twice",
                    t.name()
                )));
            }
        }
        Ok(())
    }
}

/// One text as ids: its tokens, its lines' tokens for ROUGE-Lsum and its n-grams.
#[derive(Debug, Default, Clone)]
pub struct RougeText {
    /// The whole text's token ids ([`ABSENT`] for a hypothesis token no reference has).
    pub tokens: Vec<u32>,
    /// The lines' token ids, one after another (ROUGE-Lsum only), where they are not
    /// `tokens` ([`RougeText::lines`]).
    own_lines: Vec<u32>,
    /// Whether the lines' tokens are the whole text's (rouge-score's tokenizer, whose tokens
    /// never cross a `\n`), kept once.
    lines_are_tokens: bool,
    /// Line `k` is `lines()[bounds[k]..bounds[k + 1]]`.
    pub bounds: Vec<u32>,
    /// `ngrams[n - 1]`: the ids of the text's n-grams, in order (orders 2 and up; order 1 is
    /// `tokens`).
    pub ngrams: Vec<Vec<u32>>,
    /// As a reference ([`RougeText::index`]): per id, its occurrences among the n-grams of
    /// the orders asked for.
    counts: Vec<u32>,
    /// As a reference of at most 64 tokens, for ROUGE-L: its tokens' match masks.
    masks: Vec<u64>,
    /// Whether `counts` and `masks` are made.
    indexed: bool,
    masked: bool,
}

impl RougeText {
    fn clear(&mut self) {
        self.tokens.clear();
        self.own_lines.clear();
        self.lines_are_tokens = false;
        self.bounds.clear();
        self.ngrams.iter_mut().for_each(Vec::clear);
        (self.indexed, self.masked) = (false, false);
    }

    /// Makes what matching any hypothesis against this text as a reference needs: its n-gram
    /// counts and, for ROUGE-L, its match masks. A text of a segment's references is indexed
    /// once for all the hypotheses that share them; ids must be the segment's own (dense), as
    /// the counts are indexed by id.
    fn index(&mut self, types: &[RougeType]) {
        self.counts.clear();
        for kind in types {
            if let RougeType::Ngram(n) = *kind {
                let ids = if n == 1 {
                    &self.tokens
                } else {
                    self.ngrams.get(n - 1).map_or(&[][..], Vec::as_slice)
                };
                grow(&mut self.counts, ids);
                count(&mut self.counts, ids);
            }
        }
        self.masked = types.contains(&RougeType::L)
            && one_word_masks(&self.tokens, &mut self.masks).is_some();
        self.indexed = true;
    }

    /// The ids of the text's n-grams (`n >= 1`).
    fn order(&self, n: usize) -> &[u32] {
        if n == 1 {
            &self.tokens
        } else {
            self.ngrams.get(n - 1).map_or(&[], Vec::as_slice)
        }
    }

    /// The lines' token ids, one after another.
    pub fn lines(&self) -> &[u32] {
        if self.lines_are_tokens {
            &self.tokens
        } else {
            &self.own_lines
        }
    }

    /// Its lines' token ids, line by line.
    fn line_slices(&self) -> impl Iterator<Item = &[u32]> + Clone + '_ {
        let lines = self.lines();
        self.bounds.windows(2).filter_map(move |w| {
            let [start, end] = <[u32; 2]>::try_from(w).ok()?;
            lines.get(start as usize..end as usize)
        })
    }

    /// Fills the n-gram ids of orders `2..=max_n` from the tokens, each by `id`.
    fn count_ngrams(&mut self, max_n: usize, mut id: impl FnMut(u32, u32) -> u32) {
        if self.ngrams.len() < max_n {
            self.ngrams.resize_with(max_n, Vec::new);
        }
        let mut order = std::mem::take(&mut self.tokens);
        let mut ids = order.clone();
        for n in 2..=max_n {
            extend_order(&mut ids, &order, n, &mut id);
            if let Some(slot) = self.ngrams.get_mut(n - 1) {
                slot.clone_from(&ids);
            }
        }
        std::mem::swap(&mut self.tokens, &mut order);
    }
}

/// Text to token strings under a [`RougeTokenizer`], with a per-thread stem cache.
#[derive(Debug, Default)]
pub struct TokenReader {
    tokens: Tokens,
    scratch: TextScratch,
    stemmer: PorterStemmer,
    stems: StemCache,
    stem: String,
}

impl TokenReader {
    /// rouge-score's tokenizer (stemmed with `stem`): calls `each(token, line)` for the tokens
    /// of `text` in order, `line` counting non-empty lines (0 without `lines`), and returns,
    /// with `lines`, the token count at the start of each non-empty line, then the total
    /// ([`Tokens::line_bounds`]; tokens never cross a `\n`).
    pub fn read_default(
        &mut self,
        text: &str,
        lines: bool,
        stem: bool,
        mut each: impl FnMut(&[u8], usize),
    ) -> &[u32] {
        if lines {
            self.tokens.read_lines(text);
        } else {
            self.tokens.read(text);
        }
        let bounds = self.tokens.line_bounds();
        let mut line = 0usize;
        for (k, token) in self.tokens.iter().enumerate() {
            while bounds.get(line + 1).is_some_and(|&b| b as usize <= k) {
                line += 1;
            }
            if stem && token.len() > 3 {
                each(
                    stemmed(&mut self.stems, &self.stemmer, &mut self.stem, token),
                    line,
                );
            } else {
                each(token, line);
            }
        }
        bounds
    }

    /// Calls `each(token, line)` for the tokens of `text`: the whole text's (`line = None`),
    /// then, with `lines`, each non-empty line's (`Some(k)` for the k-th such line). The
    /// default tokenizer reads the text once and gives each token once with its line.
    /// Returns the number of lines (0 without `lines`), tokenless ones included.
    ///
    /// # Errors
    /// MeCab's, for a pipeline that runs it.
    pub fn read(
        &mut self,
        tokenizer: &RougeTokenizer,
        text: &str,
        lines: bool,
        mut each: impl FnMut(&[u8], Option<usize>, bool),
    ) -> Result<usize> {
        match tokenizer {
            RougeTokenizer::Default { stem } => {
                let bounds = self.read_default(text, lines, *stem, |token, line| {
                    // `true`: the token is on the whole text's list and its line's at once.
                    each(token, lines.then_some(line), true);
                });
                Ok(bounds.len().saturating_sub(1))
            }
            RougeTokenizer::Pipeline(pipeline) => {
                for token in pipeline.tokens(text, &mut self.scratch)? {
                    each(token.as_bytes(), None, false);
                }
                let mut count = 0;
                if lines {
                    let non_empty = text.split('\n').filter(|l| !l.is_empty());
                    for (k, line) in non_empty.enumerate() {
                        for token in pipeline.tokens(line, &mut self.scratch)? {
                            each(token.as_bytes(), Some(k), false);
                        }
                        count = k + 1;
                    }
                }
                Ok(count)
            }
            RougeTokenizer::SplitSpace => {
                for token in text.split(' ') {
                    each(token.as_bytes(), None, false);
                }
                let mut count = 0;
                if lines {
                    let non_empty = text.split('\n').filter(|l| !l.is_empty());
                    for (k, line) in non_empty.enumerate() {
                        for token in line.split(' ') {
                            each(token.as_bytes(), Some(k), false);
                        }
                        count = k + 1;
                    }
                }
                Ok(count)
            }
            RougeTokenizer::PreSplit => {
                let mut parts = text.split('\n');
                let whole = parts.next().unwrap_or_default();
                for token in whole.split(' ').filter(|t| !t.is_empty()) {
                    each(token.as_bytes(), None, false);
                }
                let mut count = 0;
                if lines {
                    for (k, line) in parts.enumerate() {
                        for token in line.split(' ').filter(|t| !t.is_empty()) {
                            each(token.as_bytes(), Some(k), false);
                        }
                        count = k + 1;
                    }
                }
                Ok(count)
            }
        }
    }
}

/// Stems already computed: the token's index into `stems`, so a known token costs one lookup.
#[derive(Debug, Default)]
struct StemCache {
    index: HashMap<Box<[u8]>, u32, FxBuildHasher>,
    stems: Vec<Box<[u8]>>,
}

/// The stem of `token` (ASCII), from the cache or the stemmer.
fn stemmed<'c>(
    cache: &'c mut StemCache,
    stemmer: &PorterStemmer,
    buffer: &mut String,
    token: &[u8],
) -> &'c [u8] {
    let known = cache.index.get(token).copied();
    let at = match known {
        Some(at) => at as usize,
        None => {
            if cache.stems.len() >= STEM_CACHE_SIZE {
                cache.index.clear();
                cache.stems.clear();
            }
            stemmer.stem_into(std::str::from_utf8(token).unwrap_or_default(), buffer);
            let at = cache.stems.len();
            cache.stems.push(buffer.as_bytes().into());
            cache
                .index
                .insert(token.into(), u32::try_from(at).unwrap_or(u32::MAX));
            at
        }
    };
    cache.stems.get(at).map_or(&[], |s| s)
}

/// Reads texts into [`RougeText`]s with ids from a vocabulary: interned (references, or
/// every sentence of a pairwise set) or only looked up (a hypothesis against its segment's
/// references).
#[derive(Debug, Default)]
pub struct TextIds {
    reader: TokenReader,
    /// Token text to id; a token's id is also its unigram's n-gram id.
    vocabulary: Vocabulary,
    /// Ids of tokens and n-grams alike.
    pub ngram_ids: NgramIds,
}

impl TextIds {
    /// Forgets every id.
    pub fn clear(&mut self) {
        self.vocabulary.clear();
        self.ngram_ids.clear();
    }

    /// `text` as ids into `out`, interning new tokens and n-grams (`intern`) or giving them
    /// [`ABSENT`].
    ///
    /// # Errors
    /// The tokenizer's.
    pub fn read(
        &mut self,
        config: &RougeConfig,
        text: &str,
        intern: bool,
        out: &mut RougeText,
    ) -> Result<()> {
        out.clear();
        let lines = config.types.contains(&RougeType::Lsum);
        let Self {
            reader,
            vocabulary,
            ngram_ids,
        } = self;
        let mut id_of = |token: &[u8]| token_id(vocabulary, ngram_ids, token, intern);
        if let RougeTokenizer::Default { stem } = config.tokenizer {
            // Every token on its line's list and the whole text's at once: one list serves
            // both, and the tokenizer's line bounds are the lines'.
            out.lines_are_tokens = true;
            let bounds = reader.read_default(text, lines, stem, |token, _| {
                out.tokens.push(id_of(token));
            });
            if lines {
                out.bounds.extend_from_slice(bounds);
            }
        } else {
            read_lines_apart(reader, &config.tokenizer, text, lines, &mut id_of, out)?;
        }
        let max_n = config.max_n();
        if max_n >= 2 {
            out.count_ngrams(max_n, |prefix, last| {
                if intern {
                    ngram_ids.intern(prefix, last)
                } else {
                    ngram_ids.lookup(prefix, last)
                }
            });
        }
        Ok(())
    }
}

/// The tokens of `text` under a tokenizer that reads its lines apart (a pipeline's, or tokens
/// given by the caller) as ids (`id_of`) into `out`: the whole text's, and with `lines` each
/// line's with the lines' bounds.
///
/// # Errors
/// The tokenizer's.
fn read_lines_apart(
    reader: &mut TokenReader,
    tokenizer: &RougeTokenizer,
    text: &str,
    lines: bool,
    id_of: &mut impl FnMut(&[u8]) -> u32,
    out: &mut RougeText,
) -> Result<()> {
    let mut line_of_last: Option<usize> = None;
    let start_lines = |out: &mut RougeText, line: usize, last: &mut Option<usize>| {
        // Lines without tokens still count; bounds close every line before `line`.
        while last.map_or(0, |l| l + 1) <= line {
            out.bounds
                .push(u32::try_from(out.own_lines.len()).unwrap_or(u32::MAX));
            *last = Some(last.map_or(0, |l| l + 1));
        }
    };
    let count = reader.read(tokenizer, text, lines, |token, line, both| {
        let id = id_of(token);
        match line {
            None => out.tokens.push(id),
            Some(k) => {
                start_lines(out, k, &mut line_of_last);
                if both {
                    out.tokens.push(id);
                }
                out.own_lines.push(id);
            }
        }
    })?;
    if lines {
        if count > 0 {
            start_lines(out, count - 1, &mut line_of_last);
        }
        out.bounds
            .push(u32::try_from(out.own_lines.len()).unwrap_or(u32::MAX));
    }
    Ok(())
}

/// The id of `token`: interned (`intern`; a new token gets a new id, shared with the n-grams'
/// ids) or only looked up ([`ABSENT`] for a token never interned).
fn token_id(
    vocabulary: &mut Vocabulary,
    ngram_ids: &mut NgramIds,
    token: &[u8],
    intern: bool,
) -> u32 {
    if intern {
        vocabulary.intern_with(token, || ngram_ids.new_id())
    } else {
        vocabulary.lookup(token).unwrap_or(ABSENT)
    }
}

/// The per-thread work of matching one hypothesis against one reference, over ids.
#[derive(Debug, Default)]
pub struct Matcher {
    budget: Vec<u32>,
    clip: Clip,
    lcs: Lcs,
    at: Vec<u32>,
    /// Per token id: occurrences left in the hypothesis (ROUGE-Lsum).
    left_hyp: Vec<u32>,
    /// ROUGE-Lsum's union.
    union: LineUnion,
    /// Per type: the best triple so far and its F-measure, computed once a second reference
    /// competes (one reference needs none).
    best: Vec<(Option<f64>, Option<[i64; 3]>)>,
}

fn grow(counts: &mut Vec<u32>, ids: &[u32]) {
    let need = ids
        .iter()
        .filter(|&&id| id != ABSENT)
        .max()
        .map_or(0, |&m| m as usize + 1);
    if counts.len() < need {
        counts.resize(need, 0);
    }
}

impl Matcher {
    /// `[match, hyp, ref]` of `kind` for `hypothesis` against `reference`.
    ///
    /// # Errors
    /// ROUGE-Lsum's, for lines too long to hold their LCS rows in memory.
    pub fn triple(
        &mut self,
        kind: RougeType,
        hypothesis: &RougeText,
        reference: &RougeText,
    ) -> Result<[i64; 3]> {
        Ok(match kind {
            RougeType::Ngram(n) => {
                let (h, r) = (hypothesis.order(n), reference.order(n));
                let count_of = |text: &RougeText| text.tokens.len().saturating_sub(n - 1);
                let matched = if reference.indexed {
                    self.clip.within(&reference.counts, h)
                } else {
                    grow(&mut self.budget, r);
                    count(&mut self.budget, r);
                    let matched = self.clip.take(&mut self.budget, h);
                    self.clip.give_back(&mut self.budget);
                    for &id in r {
                        if let Some(c) = self.budget.get_mut(id as usize) {
                            *c = 0;
                        }
                    }
                    matched
                };
                debug_assert!(h.len() == count_of(hypothesis));
                [
                    to_i64(matched),
                    to_i64(count_of(hypothesis)),
                    to_i64(count_of(reference)),
                ]
            }
            RougeType::L => {
                let lcs = self.lcs.length(&reference.tokens, &hypothesis.tokens);
                [
                    to_i64(lcs),
                    to_i64(hypothesis.tokens.len()),
                    to_i64(reference.tokens.len()),
                ]
            }
            RougeType::Lsum => [
                to_i64(self.union_hits(hypothesis, reference)?),
                to_i64(hypothesis.lines().len()),
                to_i64(reference.lines().len()),
            ],
        })
    }

    /// rouge-score's `_summary_level_lcs` hits: for each reference line, the union of its LCS
    /// positions against every hypothesis line; each token at those positions counts while
    /// both texts have occurrences of it left.
    fn union_hits(&mut self, hypothesis: &RougeText, reference: &RougeText) -> Result<usize> {
        let (hypothesis_lines, reference_lines) = (hypothesis.lines(), reference.lines());
        if hypothesis_lines.is_empty() || reference_lines.is_empty() {
            return Ok(0);
        }
        let lines = RougeText::line_slices;
        self.union.reset(lines(reference), lines(hypothesis));
        for (k, h) in lines(hypothesis).enumerate() {
            let mut prepared = false;
            for (line, r) in lines(reference).enumerate() {
                if !self.union.may_add(line, k) {
                    continue;
                }
                if !prepared {
                    self.lcs.prepare(h);
                    prepared = true;
                }
                if let Err(e) = self.lcs.indices_with(r, h, &mut self.at) {
                    self.lcs.release(h);
                    return Err(e);
                }
                self.union.add(line, r, &self.at);
            }
            if prepared {
                self.lcs.release(h);
            }
        }
        // rouge-score takes each hit from both texts' token counts; the reference's never run
        // out first (a line's used positions are some of its tokens), so only the
        // hypothesis' are kept. Ids past the reference's are no reference line's.
        let bound = self.union.id_bound();
        if self.left_hyp.len() < bound {
            self.left_hyp.resize(bound, 0);
        }
        for &id in hypothesis_lines {
            if let Some(c) = self.left_hyp.get_mut(id as usize) {
                *c += 1;
            }
        }
        let mut hits = 0;
        for (line, r) in reference.line_slices().enumerate() {
            for k in self.union.used(line, r.len()) {
                let left = r.get(k).and_then(|&id| self.left_hyp.get_mut(id as usize));
                if let Some(c) = left.filter(|c| **c > 0) {
                    hits += 1;
                    *c -= 1;
                }
            }
        }
        for &id in hypothesis_lines {
            if let Some(c) = self.left_hyp.get_mut(id as usize) {
                *c = 0;
            }
        }
        Ok(hits)
    }

    /// The row of `hypothesis` against `references` under `config`: per type the best
    /// reference's triple (rouge-score's `score_multi`: the highest F-measure, the first on
    /// ties), or the highest precision's and highest recall's counts (pycocoevalcap).
    ///
    /// # Errors
    /// As [`Matcher::triple`].
    pub fn row<'r>(
        &mut self,
        config: &RougeConfig,
        hypothesis: &RougeText,
        references: impl Iterator<Item = &'r RougeText>,
        row: &mut [i64],
    ) -> Result<()> {
        match config.references {
            MultiReference::BestF => self.best_f_row(config, hypothesis, references, row),
            MultiReference::MaxPrecisionRecall => {
                self.max_precision_recall_row(&config.types, hypothesis, references, row)
            }
        }
    }

    /// pycocoevalcap's `max(prec)` and `max(rec)` over the references, per type: `[p_match,
    /// hyp, r_match, ref]`, where `p_match` is the most matches (the hypothesis' length is
    /// the same for every reference) and `r_match / ref` the highest recall as a float, the
    /// first on ties.
    fn max_precision_recall_row<'r>(
        &mut self,
        types: &[RougeType],
        hypothesis: &RougeText,
        references: impl Iterator<Item = &'r RougeText>,
        row: &mut [i64],
    ) -> Result<()> {
        let mut best: Vec<Option<[i64; 4]>> = vec![None; types.len()];
        for reference in references {
            for (kind, best) in types.iter().zip(best.iter_mut()) {
                let [matched, hyp, length] = self.triple(*kind, hypothesis, reference)?;
                *best = Some(match *best {
                    None => [matched, hyp, matched, length],
                    Some([p_match, _, r_match, r_length]) => {
                        let recall = |m: i64, r: i64| score::ratio(m, r);
                        let (r_match, r_length) =
                            if recall(matched, length) > recall(r_match, r_length) {
                                (matched, length)
                            } else {
                                (r_match, r_length)
                            };
                        [p_match.max(matched), hyp, r_match, r_length]
                    }
                });
            }
        }
        for (out, cells) in row.chunks_exact_mut(4).zip(&best) {
            out.copy_from_slice(&cells.unwrap_or_default());
        }
        Ok(())
    }

    fn best_f_row<'r>(
        &mut self,
        config: &RougeConfig,
        hypothesis: &RougeText,
        references: impl Iterator<Item = &'r RougeText>,
        row: &mut [i64],
    ) -> Result<()> {
        let (types, scoring) = (&config.types, config.scoring());
        let mut best = std::mem::take(&mut self.best);
        best.clear();
        best.resize(types.len(), (None, None));
        for reference in references {
            // ROUGE-L's length, which ROUGE-Lsum of one line each reuses when the lines are
            // the tokens (rouge-score's own tokenizer).
            let mut lcs: Option<usize> = None;
            for (kind, best) in types.iter().zip(best.iter_mut()) {
                let triple = match kind {
                    RougeType::L => {
                        let length = if reference.masked {
                            length_with_masks(
                                &reference.masks,
                                &hypothesis.tokens,
                                reference.tokens.len(),
                            )
                        } else {
                            self.lcs.length(&reference.tokens, &hypothesis.tokens)
                        };
                        lcs = Some(length);
                        [
                            to_i64(length),
                            to_i64(hypothesis.tokens.len()),
                            to_i64(reference.tokens.len()),
                        ]
                    }
                    RougeType::Lsum
                        if hypothesis.bounds.len() <= 2 && reference.bounds.len() <= 2 =>
                    {
                        // One line each: the union is that line's LCS, and every token of a
                        // common subsequence has occurrences left in both texts.
                        let same = hypothesis.lines_are_tokens && reference.lines_are_tokens;
                        let length = match lcs {
                            Some(length) if same => length,
                            _ => self.lcs.length(reference.lines(), hypothesis.lines()),
                        };
                        [
                            to_i64(length),
                            to_i64(hypothesis.lines().len()),
                            to_i64(reference.lines().len()),
                        ]
                    }
                    _ => self.triple(*kind, hypothesis, reference)?,
                };
                match best {
                    (_, None) => *best = (None, Some(triple)),
                    (known, Some(so_far)) => {
                        let f_so_far = known.unwrap_or_else(|| scoring.cells(so_far).fmeasure);
                        let f = scoring.cells(&triple).fmeasure;
                        *best = if f > f_so_far {
                            (Some(f), Some(triple))
                        } else {
                            (Some(f_so_far), Some(*so_far))
                        };
                    }
                }
            }
        }
        for (out, (_, triple)) in row.chunks_exact_mut(3).zip(&best) {
            out.copy_from_slice(&triple.unwrap_or_default());
        }
        self.best = best;
        Ok(())
    }
}

/// The per-thread scorer of segments given as text.
#[derive(Debug)]
pub struct RougeScorer<'c> {
    config: &'c RougeConfig,
    ids: TextIds,
    references: Vec<RougeText>,
    n_references: usize,
    hypothesis: RougeText,
    matcher: Matcher,
}

impl<'a> SegmentScorer<'a, str> for RougeScorer<'_> {
    fn prepare<I: Iterator<Item = &'a str>>(&mut self, references: I) -> Result<()> {
        self.ids.clear();
        self.n_references = 0;
        for reference in references {
            if self.references.len() <= self.n_references {
                self.references.push(RougeText::default());
            }
            let slot = self
                .references
                .get_mut(self.n_references)
                .ok_or_else(|| Error::internal("a reference slot was just made"))?;
            self.ids.read(self.config, reference, true, slot)?;
            slot.index(&self.config.types);
            self.n_references += 1;
        }
        Ok(())
    }

    fn score(&mut self, hypothesis: &'a str, row: &mut [i64]) -> Result<()> {
        self.ids
            .read(self.config, hypothesis, false, &mut self.hypothesis)?;
        let references = self.references.get(..self.n_references).unwrap_or_default();
        self.matcher
            .row(self.config, &self.hypothesis, references.iter(), row)
    }
}

impl<'a, 'c> StatsMetric<'a, str> for &'c RougeConfig {
    type Scorer = RougeScorer<'c>;

    fn width(&self) -> usize {
        RougeConfig::width(self)
    }

    fn scorer(&self) -> RougeScorer<'c> {
        RougeScorer {
            config: self,
            ids: TextIds::default(),
            references: Vec::new(),
            n_references: 0,
            hypothesis: RougeText::default(),
            matcher: Matcher::default(),
        }
    }

    fn validate(&self) -> Result<()> {
        RougeConfig::validate(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// pycocoevalcap 1.2's `Rouge().calc_score([candidate], references)`.
    fn coco(candidate: &str, references: &[&str]) -> (Vec<i64>, f64) {
        let config = RougeConfig {
            references: MultiReference::MaxPrecisionRecall,
            beta: 1.2,
            ..RougeConfig::rouge_score(vec![RougeType::L], RougeTokenizer::SplitSpace)
        };
        let row = crate::statistics::segment_stats(candidate, references, &config).unwrap();
        let f = config.scoring().cells(&row).fmeasure;
        (row, f)
    }

    #[test]
    fn pycocoevalcap_rouge_l() {
        // Empty tokens count: "a b  c" is four tokens, as str.split(" ") makes them; the
        // precision is the first reference's (3 of 4), the recall the second's (1 of 1).
        assert_eq!(
            coco("a b  c", &["a  b c", "c"]),
            (vec![3, 4, 1, 1], 0.879_807_692_307_692_3)
        );
        // Precision from the first reference, recall from the second.
        let (row, f) = coco("x y z w", &["x y", "a b c z w q"]);
        assert_eq!((row, f), (vec![2, 4, 2, 2], 0.709_302_325_581_395_4));
        // An empty caption is one empty token, which no reference "a" has.
        assert_eq!(coco("", &["a"]), (vec![0, 1, 0, 1], 0.0));
        assert_eq!(coco("", &[""]).1, 1.0);
    }

    #[test]
    fn beta_one_is_rouge_scores_fmeasure() {
        let scoring = Scoring {
            beta: 1.0,
            ..Scoring::rouge_score(1)
        };
        for triple in [[2, 3, 4], [0, 3, 4], [5, 9, 7], [1, 1, 1]] {
            let [m, h, r] = triple.map(|c| c as f64);
            let (p, rec) = (m / h, m / r);
            let expected = if p + rec > 0.0 {
                2.0 * p * rec / (p + rec)
            } else {
                0.0
            };
            assert_eq!(scoring.cells(&triple).fmeasure, expected);
        }
    }
}
