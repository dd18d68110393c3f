//! `none`: the identity (sacrebleu `NoneTokenizer`).

pub(super) fn tokenize(line: &str, out: &mut String) {
    out.push_str(line);
}

#[cfg(test)]
mod tests {
    #[test]
    fn identity() {
        let mut out = String::new();
        super::tokenize("  a\tb ", &mut out);
        assert_eq!(out, "  a\tb ");
    }
}
