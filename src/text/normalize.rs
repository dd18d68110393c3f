//! Normalization applied to text before it is tokenized: Unicode's (NFC, NFKC) and the
//! speech community's text normalizers (openai-whisper's, [`crate::text::whisper`]).
//!
//! Off by default, so sacrebleu-compatible scores are unchanged. The Unicode tables come from
//! the `unicode-normalization` crate ([`UNICODE_VERSION`]).

use std::borrow::Cow;
use std::sync::OnceLock;

use unicode_normalization::{is_nfc_quick, is_nfkc_quick, IsNormalized, UnicodeNormalization};

pub use unicode_normalization::UNICODE_VERSION;

use crate::error::Result;
use crate::text::whisper::{
    self, BasicTextNormalizer, EnglishTextNormalizer, MultilingualNormalizer, NumberLanguage,
};

/// The leaderboard's revision as a signature shows it (git's short form).
fn open_asr_revision() -> &'static str {
    whisper::OPEN_ASR_REVISION
        .get(..7)
        .unwrap_or(whisper::OPEN_ASR_REVISION)
}

/// `text` under one of the English normalizers.
fn english<'t>(normalizer: &EnglishTextNormalizer, text: &str) -> Result<Cow<'t, str>> {
    let mut out = String::with_capacity(text.len());
    normalizer.normalize(text, &mut out)?;
    Ok(Cow::Owned(out))
}

/// A normalization of text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Normalization {
    /// Canonical composition: merges only canonically equivalent spellings (é vs e + ◌́).
    Nfc,
    /// Compatibility composition: also folds width variants, ligatures and the like (ｆｕｌｌ → full).
    Nfkc,
    /// openai-whisper's `BasicTextNormalizer()`: lowercase, bracketed and parenthesized spans
    /// removed, marks and symbols to spaces, whitespace collapsed.
    WhisperBasic,
    /// openai-whisper's `EnglishTextNormalizer()`: also contractions, titles, fillers, spelled
    /// numbers to digits, British to American spelling.
    WhisperEnglish,
    /// The `whisper-normalizer` package's `EnglishTextNormalizer()`: `WhisperEnglish` with
    /// "kinda", "sorta", "dunno" and "cause" spelled out.
    WhisperNormalizerEnglish,
    /// The `whisper-normalizer` package's `BasicTextNormalizer(preserve_marks=True)`:
    /// `WhisperBasic` keeping Unicode marks (the vowel signs and viramas of Indic scripts,
    /// which `WhisperBasic` turns into spaces).
    WhisperNormalizerBasicMarks,
    /// The Open ASR Leaderboard's `EnglishTextNormalizer()`: `WhisperEnglish` with more
    /// fillers, compound words joined, names and acronyms, and its own spelling table.
    OpenAsrEn,
    /// The Open ASR Leaderboard's `MultilingualNormalizer(remove_diacritics=False)`, digits
    /// left as they are (`lang=None`).
    OpenAsrMultilingual,
    /// The same with `lang="de"`: digits spelled out in German by num2words.
    OpenAsrMultilingualDe,
    /// `lang="fr"`.
    OpenAsrMultilingualFr,
    /// `lang="it"`.
    OpenAsrMultilingualIt,
    /// `lang="es"`.
    OpenAsrMultilingualEs,
    /// `lang="pt"`.
    OpenAsrMultilingualPt,
}

crate::enums::name_table!(Normalization, "normalization", fold_case: true, {
    Nfc => "nfc",
    Nfkc => "nfkc",
    WhisperBasic => "whisper-basic",
    WhisperEnglish => "whisper-english",
    WhisperNormalizerEnglish => "whisper-normalizer-english",
    WhisperNormalizerBasicMarks => "whisper-normalizer-basic-marks",
    OpenAsrEn => "open-asr-en",
    OpenAsrMultilingual => "open-asr-multilingual",
    OpenAsrMultilingualDe => "open-asr-multilingual-de",
    OpenAsrMultilingualFr => "open-asr-multilingual-fr",
    OpenAsrMultilingualIt => "open-asr-multilingual-it",
    OpenAsrMultilingualEs => "open-asr-multilingual-es",
    OpenAsrMultilingualPt => "open-asr-multilingual-pt",
});

impl Normalization {
    /// The name a signature records: an upstream's normalizer with the upstream's version
    /// (`whisper-english@20250625`, `whisper-normalizer-english@0.1.15`), as another version
    /// can give another string.
    pub fn signature_name(self) -> String {
        match self {
            Self::Nfc | Self::Nfkc => self.name().to_owned(),
            Self::WhisperBasic | Self::WhisperEnglish => {
                format!("{}@{}", self.name(), whisper::UPSTREAM_VERSION)
            }
            Self::WhisperNormalizerEnglish | Self::WhisperNormalizerBasicMarks => {
                format!("{}@{}", self.name(), whisper::PACKAGE_VERSION)
            }
            Self::OpenAsrEn | Self::OpenAsrMultilingual => {
                format!("{}@{}", self.name(), open_asr_revision())
            }
            _ => format!(
                "{}@{}+num2words-{}",
                self.name(),
                open_asr_revision(),
                whisper::NUM2WORDS_VERSION
            ),
        }
    }

    /// The language of an `open-asr-multilingual` normalizer's number words.
    fn number_language(self) -> Option<NumberLanguage> {
        match self {
            Self::OpenAsrMultilingualDe => Some(NumberLanguage::De),
            Self::OpenAsrMultilingualFr => Some(NumberLanguage::Fr),
            Self::OpenAsrMultilingualIt => Some(NumberLanguage::It),
            Self::OpenAsrMultilingualEs => Some(NumberLanguage::Es),
            Self::OpenAsrMultilingualPt => Some(NumberLanguage::Pt),
            _ => None,
        }
    }

    /// `text` normalized; borrowed when the form leaves it as it is (Unicode forms: all ASCII
    /// text).
    ///
    /// # Errors
    /// `whisper-english`'s, for a number past Python's 4,300-digit conversion limit (where
    /// upstream raises too).
    pub fn apply(self, text: &str) -> Result<Cow<'_, str>> {
        match self {
            Self::Nfc | Self::Nfkc => Ok(self.unicode(text)),
            Self::WhisperBasic => Ok(Cow::Owned(whisper::whisper_basic(text, false, false))),
            Self::WhisperEnglish => {
                // Built once: its tables are read-only.
                static ENGLISH: OnceLock<EnglishTextNormalizer> = OnceLock::new();
                english(ENGLISH.get_or_init(EnglishTextNormalizer::new), text)
            }
            Self::WhisperNormalizerEnglish => {
                static ENGLISH: OnceLock<EnglishTextNormalizer> = OnceLock::new();
                let normalizer = ENGLISH.get_or_init(EnglishTextNormalizer::whisper_normalizer);
                english(normalizer, text)
            }
            Self::WhisperNormalizerBasicMarks => {
                let mut out = String::with_capacity(text.len());
                BasicTextNormalizer::new(false, false)
                    .preserving_marks()
                    .normalize(text, &mut out);
                Ok(Cow::Owned(out))
            }
            Self::OpenAsrEn => {
                static ENGLISH: OnceLock<EnglishTextNormalizer> = OnceLock::new();
                english(ENGLISH.get_or_init(EnglishTextNormalizer::open_asr), text)
            }
            Self::OpenAsrMultilingual
            | Self::OpenAsrMultilingualDe
            | Self::OpenAsrMultilingualFr
            | Self::OpenAsrMultilingualIt
            | Self::OpenAsrMultilingualEs
            | Self::OpenAsrMultilingualPt => {
                let mut out = String::with_capacity(text.len());
                MultilingualNormalizer {
                    language: self.number_language(),
                }
                .normalize(text, &mut out);
                Ok(Cow::Owned(out))
            }
        }
    }

    /// `text` in a Unicode form.
    fn unicode(self, text: &str) -> Cow<'_, str> {
        if text.is_ascii() {
            return Cow::Borrowed(text);
        }
        let quick = if self == Self::Nfc {
            is_nfc_quick(text.chars())
        } else {
            is_nfkc_quick(text.chars())
        };
        if quick == IsNormalized::Yes {
            return Cow::Borrowed(text);
        }
        Cow::Owned(if self == Self::Nfc {
            text.nfc().collect()
        } else {
            text.nfkc().collect()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        let decomposed = "e\u{301}te\u{301}";
        let apply = |form: Normalization, text| form.apply(text).unwrap().into_owned();
        assert_eq!(apply(Normalization::Nfc, decomposed), "été");
        assert_eq!(apply(Normalization::Nfkc, decomposed), "été");
        assert_eq!(apply(Normalization::Nfc, "ｆｕｌｌ ﬁ"), "ｆｕｌｌ ﬁ");
        assert_eq!(apply(Normalization::Nfkc, "ｆｕｌｌ ﬁ"), "full fi");
        assert!(matches!(
            Normalization::Nfc.apply("plain").unwrap(),
            Cow::Borrowed(_)
        ));
        let said = "Mr. Smith's colour, one hundred [laughs]";
        assert_eq!(
            apply(Normalization::WhisperBasic, said),
            "mr smith s colour one hundred "
        );
        assert_eq!(
            apply(Normalization::WhisperEnglish, said),
            "mister smith is color 100"
        );
        assert_eq!(
            Normalization::WhisperEnglish.signature_name(),
            "whisper-english@20250625"
        );
        assert_eq!(Normalization::Nfkc.signature_name(), "nfkc");
        assert_eq!(
            apply(
                Normalization::WhisperNormalizerEnglish,
                "I dunno, one hundred"
            ),
            "i do not know 100"
        );
        assert_eq!(
            Normalization::WhisperNormalizerEnglish.signature_name(),
            "whisper-normalizer-english@0.1.15"
        );
        assert_eq!(
            apply(Normalization::WhisperNormalizerBasicMarks, "नमस्ते (hi)"),
            "नमस्ते "
        );
        assert!(matches!(
            Normalization::Nfc.apply("été").unwrap(),
            Cow::Borrowed(_)
        ));
        // Hangul jamo compose into syllables.
        assert_eq!(apply(Normalization::Nfc, "\u{1100}\u{1161}"), "가");
        assert_eq!(apply(Normalization::Nfkc, "Ⅻ"), "XII");
    }

    #[test]
    fn names() {
        assert_eq!(
            Normalization::from_name("NFKC").ok(),
            Some(Normalization::Nfkc)
        );
        assert_eq!(
            Normalization::from_name("nfc").map(|n| n.name()).ok(),
            Some("nfc")
        );
        assert!(Normalization::from_name("nfd").is_err());
    }
}
