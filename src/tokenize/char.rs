//! `char`: one token per code point (sacrebleu `TokenizerChar`: `" ".join(ch for ch in line)`).

pub(super) fn tokenize(line: &str, out: &mut String) {
    let mut chars = line.chars();
    if let Some(first) = chars.next() {
        out.push(first);
        for c in chars {
            out.push(' ');
            out.push(c);
        }
    }
}
