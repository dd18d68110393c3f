//! N-gram counting (in progress).
