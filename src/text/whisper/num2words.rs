//! num2words 0.5.14's `num2words(n, lang=...)` for non-negative integers in German, French,
//! Spanish, Portuguese and Italian: the number words the Open ASR Leaderboard's
//! `MultilingualNormalizer` writes for digits.
//!
//! The first four share num2words' generic algorithm (`Num2Word_Base.splitnum` splits a
//! number at its largest card, `clean` folds the pieces left to right with the language's
//! `merge`); Italian has its own. Numbers are unbounded (cards reach 10^603), so they are
//! `BigUint`s. Where num2words raises (`OverflowError` from 10^606 in German and French and
//! 10^27 in Spanish and Portuguese, `NotImplementedError` from 66 digits in Italian) this
//! returns `None`, as the leaderboard then keeps the digits.

use std::sync::OnceLock;

use num_bigint::BigUint;
use num_traits::{ToPrimitive, Zero};

use super::open_asr_tables as t;

/// A language num2words spells numbers in, as the leaderboard's multilingual normalizer uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NumberLanguage {
    /// German (`lang="de"`).
    De,
    /// French (`lang="fr"`).
    Fr,
    /// Spanish (`lang="es"`).
    Es,
    /// Portuguese (`lang="pt"`).
    Pt,
    /// Italian (`lang="it"`).
    It,
}

impl NumberLanguage {
    /// Every language, in the order of [`Self::code`]s listed to users.
    pub const ALL: [Self; 5] = [Self::De, Self::Fr, Self::It, Self::Es, Self::Pt];

    /// The ISO 639-1 code num2words takes.
    pub fn code(self) -> &'static str {
        match self {
            Self::De => "de",
            Self::Fr => "fr",
            Self::Es => "es",
            Self::Pt => "pt",
            Self::It => "it",
        }
    }

    /// The language of a code, if num2words' is reproduced for it.
    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|l| l.code() == code)
    }
}

/// `num2words(int(digits), lang=...)`, or `None` where num2words raises. `digits` are ASCII
/// decimal digits (leading zeros allowed).
pub fn cardinal(language: NumberLanguage, digits: &str) -> Option<String> {
    let significant = digits.trim_start_matches('0');
    let value = if significant.is_empty() {
        BigUint::zero()
    } else {
        BigUint::parse_bytes(significant.as_bytes(), 10)?
    };
    match language {
        NumberLanguage::It => italian(&value),
        _ => {
            let cards = Cards::of(language);
            if significant.len() > cards.max_exponent {
                return None; // value >= MAXVAL: OverflowError
            }
            let (words, _) = cards.words(&value)?;
            Some(if language == NumberLanguage::Pt {
                portuguese_and(words)
            } else {
                words
            })
        }
    }
}

/// A converter's `cards`, largest first, and its `MAXVAL` (10^`max_exponent`).
struct Cards {
    language: NumberLanguage,
    cards: Vec<(BigUint, &'static str)>,
    max_exponent: usize,
}

impl Cards {
    fn of(language: NumberLanguage) -> &'static Self {
        static DE: OnceLock<Cards> = OnceLock::new();
        static FR: OnceLock<Cards> = OnceLock::new();
        static ES: OnceLock<Cards> = OnceLock::new();
        static PT: OnceLock<Cards> = OnceLock::new();
        let (cell, table, max_exponent): (_, &'static [(u32, u32, &str)], _) = match language {
            NumberLanguage::De => (&DE, &t::CARDS_DE, t::MAX_EXPONENT_DE),
            NumberLanguage::Fr => (&FR, &t::CARDS_FR, t::MAX_EXPONENT_FR),
            NumberLanguage::Es => (&ES, &t::CARDS_ES, t::MAX_EXPONENT_ES),
            // Italian has an algorithm of its own and asks for no cards.
            NumberLanguage::Pt | NumberLanguage::It => (&PT, &t::CARDS_PT, t::MAX_EXPONENT_PT),
        };
        cell.get_or_init(|| Self {
            language,
            cards: table
                .iter()
                .map(|&(m, e, word)| (BigUint::from(m) * BigUint::from(10u32).pow(e), word))
                .collect(),
            max_exponent,
        })
    }

    /// The word of card `n`.
    fn word(&self, n: u32) -> Option<&'static str> {
        let n = BigUint::from(n);
        self.cards.iter().find(|(k, _)| *k == n).map(|&(_, w)| w)
    }

    /// `clean(splitnum(value))`: (words, value).
    fn words(&self, value: &BigUint) -> Option<(String, BigUint)> {
        let (elem, elem_word) = self.cards.iter().find(|(k, _)| k <= value)?;
        let (div, rem) = if value.is_zero() {
            (BigUint::from(1u32), BigUint::zero())
        } else {
            (value / elem, value % elem)
        };
        let first = if div == BigUint::from(1u32) {
            (self.word(1)?.to_owned(), div)
        } else if div == *value {
            return None; // num2words' tally branch, which no language here reaches
        } else {
            self.words(&div)?
        };
        let mut acc = self.merge(first, ((*elem_word).to_owned(), elem.clone()));
        if !rem.is_zero() {
            let rest = self.words(&rem)?;
            acc = self.merge(acc, rest);
        }
        Some(acc)
    }

    fn merge(&self, curr: (String, BigUint), next: (String, BigUint)) -> (String, BigUint) {
        match self.language {
            NumberLanguage::De => merge_de(curr, next),
            NumberLanguage::Fr => merge_fr(curr, next),
            NumberLanguage::Es => merge_es(curr, next),
            NumberLanguage::Pt | NumberLanguage::It => merge_pt(curr, next),
        }
    }
}

fn big(n: u64) -> BigUint {
    BigUint::from(n)
}

fn rem(n: &BigUint, m: u32) -> u32 {
    (n % m).to_u32().unwrap_or(0)
}

/// `s[:-k]`, by characters.
fn drop_last(s: &str, k: usize) -> &str {
    let cut = s.char_indices().rev().nth(k - 1).map_or(0, |(i, _)| i);
    s.get(..cut).unwrap_or_default()
}

/// `Num2Word_DE.merge`.
fn merge_de(
    (mut ctext, cnum): (String, BigUint),
    (mut ntext, nnum): (String, BigUint),
) -> (String, BigUint) {
    let million = big(1_000_000);
    if cnum == big(1) {
        if nnum == big(100) || nnum == big(1000) {
            return (format!("ein{ntext}"), nnum);
        } else if nnum < million {
            return (ntext, nnum);
        }
        ctext = "eine".to_owned();
    }
    let val = if nnum > cnum {
        if nnum >= million {
            if cnum > big(1) {
                ntext.push_str(if ntext.ends_with('e') { "n" } else { "en" });
            }
            ctext.push(' ');
        }
        &cnum * &nnum
    } else {
        if nnum < big(10) && big(10) < cnum && cnum < big(100) {
            if nnum == big(1) {
                ntext = "ein".to_owned();
            }
            let unit = std::mem::replace(&mut ntext, ctext);
            ctext = unit + "und";
        } else if cnum >= million {
            ctext.push(' ');
        }
        &cnum + &nnum
    };
    (ctext + &ntext, val)
}

/// `Num2Word_FR.merge`.
fn merge_fr(
    (mut ctext, cnum): (String, BigUint),
    (mut ntext, nnum): (String, BigUint),
) -> (String, BigUint) {
    let million = big(1_000_000);
    if cnum == big(1) {
        if nnum < million {
            return (ntext, nnum);
        }
    } else {
        let eighty = cnum >= big(80) && rem(&cnum, 100) == 80;
        if (eighty || (rem(&cnum, 100) == 0 && cnum < big(1000)))
            && nnum < million
            && ctext.ends_with('s')
        {
            ctext.pop();
        }
        if cnum < big(1000) && nnum != big(1000) && !ntext.ends_with('s') && rem(&nnum, 100) == 0 {
            ntext.push('s');
        }
    }
    if nnum < cnum && cnum < big(100) {
        let joiner = if rem(&nnum, 10) == 1 && cnum != big(80) {
            " et "
        } else {
            "-"
        };
        return (format!("{ctext}{joiner}{ntext}"), cnum + nnum);
    }
    if nnum > cnum {
        let val = &cnum * &nnum;
        return (format!("{ctext} {ntext}"), val);
    }
    (format!("{ctext} {ntext}"), cnum + nnum)
}

/// `Num2Word_ES.merge` (`gender_stem` "o").
fn merge_es(
    (mut ctext, cnum): (String, BigUint),
    (mut ntext, nnum): (String, BigUint),
) -> (String, BigUint) {
    if cnum == big(1) {
        if nnum < big(1_000_000) {
            return (ntext, nnum);
        }
        ctext = "un".to_owned();
    } else if cnum == big(100) && rem(&nnum, 1000) != 0 {
        ctext.push_str("to");
    }
    if nnum < cnum {
        let joiner = if cnum < big(100) { " y " } else { " " };
        return (format!("{ctext}{joiner}{ntext}"), cnum + nnum);
    } else if rem(&nnum, 1_000_000) == 0 && cnum > big(1) {
        ntext = format!("{}lones", drop_last(&ntext, 3));
    }
    if nnum == big(100) {
        if cnum == big(5) {
            ctext = "quinien".to_owned();
            ntext.clear();
        } else if cnum == big(7) {
            ctext = "sete".to_owned();
        } else if cnum == big(9) {
            ctext = "nove".to_owned();
        }
        ntext.push_str("tos");
    } else {
        ntext.insert(0, ' ');
    }
    let val = &cnum * &nnum;
    (ctext + &ntext, val)
}

/// `Num2Word_PT.merge`.
fn merge_pt(
    (mut ctext, cnum): (String, BigUint),
    (mut ntext, nnum): (String, BigUint),
) -> (String, BigUint) {
    if cnum == big(1) {
        if nnum < big(1_000_000) {
            return (ntext, nnum);
        }
        ctext = "um".to_owned();
    } else if cnum == big(100) && rem(&nnum, 1000) != 0 {
        ctext = "cento".to_owned();
    }
    if nnum < cnum {
        return (format!("{ctext} e {ntext}"), cnum + nnum);
    } else if rem(&nnum, 1_000_000_000) == 0 && cnum > big(1) {
        ntext = format!("{}liões", drop_last(&ntext, 4));
    } else if rem(&nnum, 1_000_000) == 0 && cnum > big(1) {
        ntext = format!("{}lhões", drop_last(&ntext, 4));
    }
    if ntext == "milião" {
        ntext = "milhão".to_owned();
    }
    if nnum == big(100) {
        let hundreds = cnum
            .to_usize()
            .and_then(|c| c.checked_sub(1))
            .and_then(|i| t::PT_HUNDREDS.get(i));
        ctext = hundreds.map_or(ctext, |&h| h.to_owned());
        ntext.clear();
    } else {
        ntext.insert(0, ' ');
    }
    let val = &cnum * &nnum;
    (ctext + &ntext, val)
}

/// `Num2Word_PT.to_cardinal`'s fix-up: "mil e cento e catorze" -> "mil cento e catorze".
fn portuguese_and(mut result: String) -> String {
    for ext in [
        "mil",
        "milhão",
        "milhões",
        "mil milhões",
        "bilião",
        "biliões",
        "mil biliões",
    ] {
        if portuguese_and_applies(&result, ext) {
            result = result.replace(&format!("{ext} e"), ext);
        }
    }
    result
}

/// `re.match('.*{ext} e \w*entos? (?=.*e)', result)`.
fn portuguese_and_applies(result: &str, ext: &str) -> bool {
    let needle = format!("{ext} e ");
    result.match_indices(&needle).any(|(at, _)| {
        let rest = result.get(at + needle.len()..).unwrap_or_default();
        let word_end = rest
            .char_indices()
            .find(|&(_, c)| !super::unicode::is_word(c))
            .map_or(rest.len(), |(i, _)| i);
        let (word, after) = rest.split_at(word_end);
        (word.ends_with("ento") || word.ends_with("entos"))
            && after.starts_with(' ')
            && after.get(1..).is_some_and(|a| a.contains('e'))
    })
}

/// `Num2Word_IT().to_cardinal(value)`, `None` from 66 digits (`NotImplementedError`).
fn italian(value: &BigUint) -> Option<String> {
    let small = value.to_u64().filter(|&v| v < 1_000_000);
    let string = match small {
        Some(v) if v < 20 => t::IT_CARDINAL.get(usize::try_from(v).ok()?)?.to_string(),
        Some(v) if v < 100 => italian_tens(u32::try_from(v).ok()?)?,
        Some(v) if v < 1000 => {
            let hundreds = v / 100;
            let mut prefix = "cento".to_owned();
            if hundreds != 1 {
                prefix = format!(
                    "{}cento",
                    t::IT_CARDINAL.get(usize::try_from(hundreds).ok()?)?
                );
            }
            let postfix = omit_zero(italian(&big(v % 100))?);
            phonetic_contraction(&(prefix + &postfix))
        }
        Some(v) => {
            let thousands = v / 1000;
            let prefix = if thousands == 1 {
                "mille".to_owned()
            } else {
                italian(&big(thousands))? + "mila"
            };
            prefix + &omit_zero(italian(&big(v % 1000))?)
        }
        None => italian_big(value)?,
    };
    Some(accentuate(&string))
}

fn italian_tens(number: u32) -> Option<String> {
    let (tens, units) = (number / 10, number % 10);
    let prefix = match t::IT_TENS.iter().find(|&&(k, _)| k == tens) {
        Some(&(_, word)) => word.to_owned(),
        None => format!(
            "{}anta",
            drop_last(t::IT_CARDINAL.get(usize::try_from(tens).ok()?)?, 1)
        ),
    };
    let postfix = omit_zero((*t::IT_CARDINAL.get(usize::try_from(units).ok()?)?).to_owned());
    Some(phonetic_contraction(&(prefix + &postfix)))
}

/// `big_number_to_cardinal`.
fn italian_big(value: &BigUint) -> Option<String> {
    let digits = value.to_str_radix(10);
    let length = digits.len();
    if length >= 66 {
        return None;
    }
    let predigits = if length % 3 == 0 { 3 } else { length % 3 };
    let (multiplier, exponent) = digits.split_at(predigits);
    let prefix_word = t::IT_EXPONENT_PREFIXES.get(exponent.len() / 6)?;
    let mut infix = if exponent.len() % 6 == 0 {
        format!("{prefix_word}ilione")
    } else {
        format!("{prefix_word}iliardo")
    };
    let prefix = if multiplier == "1" {
        "un ".to_owned()
    } else {
        infix = format!(" {}i", drop_last(&infix, 1));
        italian(&BigUint::parse_bytes(multiplier.as_bytes(), 10)?)?
    };
    let postfix = if exponent.bytes().all(|b| b == b'0') {
        String::new()
    } else {
        let postfix = italian(&BigUint::parse_bytes(exponent.as_bytes(), 10)?)?;
        infix.push_str(if postfix.contains(" e ") { ", " } else { " e " });
        postfix
    };
    Some(prefix + &infix + &postfix)
}

fn omit_zero(s: String) -> String {
    if s == "zero" {
        String::new()
    } else {
        s
    }
}

fn phonetic_contraction(s: &str) -> String {
    s.replace("oo", "o")
        .replace("ao", "o")
        .replace("io", "o")
        .replace("au", "u")
        .replace("iu", "u")
}

/// `accentuate`: a word ending in "tre" (longer than it) ends in "tré".
fn accentuate(s: &str) -> String {
    let words: Vec<String> = crate::text::py_split(s)
        .map(|w| {
            let plain = w.replace("tré", "tre");
            if w.ends_with("tre") && w.chars().count() > 3 {
                format!("{}tré", drop_last(&plain, 3))
            } else {
                plain
            }
        })
        .collect();
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spelled() {
        let n = |l, d: &str| cardinal(l, d).unwrap_or_default();
        use NumberLanguage::*;
        assert_eq!(n(De, "0"), "null");
        assert_eq!(n(De, "21"), "einundzwanzig");
        assert_eq!(n(De, "1000000"), "eine Million");
        assert_eq!(n(Fr, "80"), "quatre-vingts");
        assert_eq!(n(Fr, "71"), "soixante et onze");
        assert_eq!(n(Es, "500"), "quinientos");
        assert_eq!(n(Pt, "1114"), "mil cento e catorze");
        assert_eq!(n(It, "23"), "ventitré");
        assert_eq!(cardinal(Es, &"1".repeat(28)), None);
        assert_eq!(cardinal(It, &"1".repeat(66)), None);
    }
}
