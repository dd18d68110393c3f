//! Unicode normalization (NFC, NFKC), applied to text before it is tokenized.
//!
//! Off by default, so sacrebleu-compatible scores are unchanged. The tables come from the
//! `unicode-normalization` crate ([`UNICODE_VERSION`]).

use std::borrow::Cow;

use unicode_normalization::{is_nfc_quick, is_nfkc_quick, IsNormalized, UnicodeNormalization};

pub use unicode_normalization::UNICODE_VERSION;

/// A Unicode normalization form.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Normalization {
    /// Canonical composition: merges only canonically equivalent spellings (é vs e + ◌́).
    Nfc,
    /// Compatibility composition: also folds width variants, ligatures and the like (ｆｕｌｌ → full).
    Nfkc,
}

crate::enums::name_table!(Normalization, "normalization", fold_case: true, {
    Nfc => "nfc",
    Nfkc => "nfkc",
});

impl Normalization {
    /// `text` in this form; borrowed when it is in the form already (all ASCII text is).
    pub fn apply(self, text: &str) -> Cow<'_, str> {
        if text.is_ascii() {
            return Cow::Borrowed(text);
        }
        let quick = match self {
            Self::Nfc => is_nfc_quick(text.chars()),
            Self::Nfkc => is_nfkc_quick(text.chars()),
        };
        if quick == IsNormalized::Yes {
            return Cow::Borrowed(text);
        }
        Cow::Owned(match self {
            Self::Nfc => text.nfc().collect(),
            Self::Nfkc => text.nfkc().collect(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        let decomposed = "e\u{301}te\u{301}";
        assert_eq!(Normalization::Nfc.apply(decomposed), "été");
        assert_eq!(Normalization::Nfkc.apply(decomposed), "été");
        assert_eq!(Normalization::Nfc.apply("ｆｕｌｌ ﬁ"), "ｆｕｌｌ ﬁ");
        assert_eq!(Normalization::Nfkc.apply("ｆｕｌｌ ﬁ"), "full fi");
        assert!(matches!(
            Normalization::Nfc.apply("plain"),
            Cow::Borrowed(_)
        ));
        assert!(matches!(Normalization::Nfc.apply("été"), Cow::Borrowed(_)));
        // Hangul jamo compose into syllables.
        assert_eq!(Normalization::Nfc.apply("\u{1100}\u{1161}"), "가");
        assert_eq!(Normalization::Nfkc.apply("Ⅻ"), "XII");
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
