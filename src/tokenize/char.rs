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

#[cfg(test)]
mod tests {
    #[test]
    fn spaces_every_code_point() {
        let cases = [("", ""), ("ab", "a b"), ("a b", "a   b"), ("日本", "日 本")];
        for (input, expected) in cases {
            let mut out = String::new();
            super::tokenize(input, &mut out);
            assert_eq!(out, expected, "{input:?}");
        }
    }
}
