//! BLEU (in progress).
