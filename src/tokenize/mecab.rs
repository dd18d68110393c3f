//! MeCab through its C API, loaded at run time from the `libmecab` that the `mecab-python3`
//! and `mecab-ko` wheels bundle.
//!
//! sacrebleu's `ja-mecab` and `ko-mecab` tokenizers are `tagger.parse(line.strip()).strip()`
//! through a SWIG wrapper that holds the GIL. Calling the same library directly gives the same
//! strings, with the GIL released and the lines shared out over threads: one [`MecabModel`]
//! (the dictionary, shared read-only) and one [`Tagger`] per worker, as MeCab documents for
//! multithreaded use. A [`super::Pipeline`] holds a model (`Tokenizer::Mecab`), and each thread
//! that runs it makes its own tagger ([`super::TextScratch`]).

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::mem::ManuallyDrop;
use std::ops::Deref;
use std::path::Path;
use std::ptr::NonNull;
use std::sync::{Mutex, MutexGuard, PoisonError};

use libloading::Library;
use rustc_hash::{FxHashMap, FxHasher};

use crate::error::{Error, ErrorKind, Result};
use crate::parallel;
use crate::text::py_strip;

/// `mecab_dictionary_info_t` from `mecab.h` (unchanged since MeCab 0.99).
#[repr(C)]
struct RawDictionaryInfo {
    filename: *const c_char,
    charset: *const c_char,
    size: u32,
    kind: c_int,
    lsize: u32,
    rsize: u32,
    version: u16,
    next: *const RawDictionaryInfo,
}

/// One dictionary that a model loaded (`mecab_dictionary_info_t`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DictionaryInfo {
    /// The dictionary file, e.g. `.../ipadic/dicdir/sys.dic`.
    pub filename: String,
    /// Its character set, e.g. `utf8`.
    pub charset: String,
    /// How many words it holds.
    pub size: u32,
    /// `0` system, `1` user, `2` unknown-word dictionary.
    pub kind: i32,
    /// Left context attributes.
    pub lsize: u32,
    /// Right context attributes.
    pub rsize: u32,
    /// The dictionary format version.
    pub version: u16,
}

type ModelNew = unsafe extern "C" fn(c_int, *mut *mut c_char) -> *mut c_void;
type Destroy = unsafe extern "C" fn(*mut c_void);
type NewTagger = unsafe extern "C" fn(*mut c_void) -> *mut c_void;
type ModelDictionaryInfo = unsafe extern "C" fn(*mut c_void) -> *const RawDictionaryInfo;
type SparseToStr2 = unsafe extern "C" fn(*mut c_void, *const c_char, usize) -> *const c_char;
type StrError = unsafe extern "C" fn(*mut c_void) -> *const c_char;
type Version = unsafe extern "C" fn() -> *const c_char;

/// The C functions used, copied out of the library (valid while it stays loaded).
struct Api {
    model_new: ModelNew,
    model_destroy: Destroy,
    model_new_tagger: NewTagger,
    model_dictionary_info: ModelDictionaryInfo,
    destroy: Destroy,
    sparse_tostr2: SparseToStr2,
    strerror: StrError,
    version: Version,
}

impl Api {
    fn load(library: &Library, path: &Path) -> Result<Self> {
        /// Looks up one symbol as a plain function pointer.
        fn get<T: Copy>(library: &Library, path: &Path, name: &str) -> Result<T> {
            // SAFETY: every `T` above is the C signature of the symbol it is looked up under
            // (mecab.h); the pointer is only called while `library` is loaded (`MecabModel`
            // keeps it).
            unsafe { library.get::<T>(name.as_bytes()) }
                .map(|symbol| *symbol)
                .map_err(|e| {
                    Error::invalid_option(format!(
                        "{} is not a usable libmecab: no {name} ({e})",
                        path.display()
                    ))
                })
        }
        Ok(Self {
            model_new: get(library, path, "mecab_model_new")?,
            model_destroy: get(library, path, "mecab_model_destroy")?,
            model_new_tagger: get(library, path, "mecab_model_new_tagger")?,
            model_dictionary_info: get(library, path, "mecab_model_dictionary_info")?,
            destroy: get(library, path, "mecab_destroy")?,
            sparse_tostr2: get(library, path, "mecab_sparse_tostr2")?,
            strerror: get(library, path, "mecab_strerror")?,
            version: get(library, path, "mecab_version")?,
        })
    }
}

/// Copies a C string that MeCab owns; `None` for a null pointer.
///
/// # Safety
/// `ptr` must be null or point to a NUL-terminated string that stays valid during the call.
unsafe fn c_string(ptr: *const c_char) -> Option<String> {
    // SAFETY: guaranteed by the caller.
    (!ptr.is_null()).then(|| {
        unsafe { CStr::from_ptr(ptr) }
            .to_string_lossy()
            .into_owned()
    })
}

/// MeCab's error message, or a note that it gave none (its `strerror` answered NULL).
fn reason(message: Option<String>) -> String {
    message.unwrap_or_else(|| "MeCab gave no reason".to_owned())
}

/// A string MeCab always provides (a version, a dictionary's file name): NULL breaks that
/// invariant, an internal error naming `what`, never an empty string in a signature.
fn provided(value: Option<String>, what: &str) -> Result<String> {
    value.ok_or_else(|| Error::internal(format!("MeCab returned no {what}")))
}

/// The lines a model remembers: sacrebleu's tokenizer keeps its last 2^16 lines
/// (`lru_cache`), and MeCab is slow enough that scoring every system of a test set against the
/// same references should parse those references once.
pub const CACHE_LINES: usize = 1 << 16;
const CACHE_SHARDS: usize = 16;

/// Tokenized lines by the text MeCab saw, in shards so that threads rarely wait for each
/// other. A full shard is emptied before it takes a new line, which bounds the memory.
struct LineCache {
    shards: Vec<Mutex<FxHashMap<Box<str>, Box<str>>>>,
}

impl LineCache {
    fn new() -> Self {
        Self {
            shards: (0..CACHE_SHARDS).map(|_| Mutex::default()).collect(),
        }
    }

    fn shard(&self, input: &str) -> Option<MutexGuard<'_, FxHashMap<Box<str>, Box<str>>>> {
        // Seeded, so that the shard's bits are not the ones its map's buckets are chosen by.
        let mut hasher = FxHasher::default();
        hasher.write_u64(0x9e37_79b9_7f4a_7c15);
        input.hash(&mut hasher);
        // The top bits: CACHE_SHARDS is 16.
        let shard = self.shards.get((hasher.finish() >> 60) as usize)?;
        Some(shard.lock().unwrap_or_else(PoisonError::into_inner))
    }

    /// Appends the remembered tokenization of `input` to `out`; false when there is none.
    fn get_into(&self, input: &str, out: &mut String) -> bool {
        let Some(shard) = self.shard(input) else {
            return false;
        };
        match shard.get(input) {
            Some(tokens) => {
                out.push_str(tokens);
                true
            }
            None => false,
        }
    }

    fn insert(&self, input: &str, tokens: &str) {
        let Some(mut shard) = self.shard(input) else {
            return;
        };
        if shard.len() >= CACHE_LINES / CACHE_SHARDS {
            shard.clear();
        }
        shard.insert(input.into(), tokens.into());
    }

    fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|shard| shard.lock().unwrap_or_else(PoisonError::into_inner).len())
            .sum()
    }

    fn clear(&self) {
        for shard in &self.shards {
            shard.lock().unwrap_or_else(PoisonError::into_inner).clear();
        }
    }
}

/// A loaded MeCab model (dictionary and options), shared by every thread that tokenizes, and
/// the lines it has tokenized.
pub struct MecabModel {
    api: Api,
    model: NonNull<c_void>,
    cache: LineCache,
    // Never unloaded: the functions in `api` live in it, the SWIG module may share it, and the
    // pool threads keep MeCab's thread-local error buffers.
    _library: ManuallyDrop<Library>,
}

// SAFETY: a MeCab `Model` is immutable once built and documented as shareable between threads
// (each thread makes its own `Tagger` from it); the library handle and function pointers are
// plain addresses.
unsafe impl Send for MecabModel {}
// SAFETY: as above; `&MecabModel` only creates taggers and reads the dictionary info.
unsafe impl Sync for MecabModel {}

impl fmt::Debug for MecabModel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("MecabModel")
            .field("model", &self.model)
            .finish_non_exhaustive()
    }
}

/// Two models are the same only when they are one loaded model.
impl PartialEq for MecabModel {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for MecabModel {}

impl MecabModel {
    /// Loads `library` (a `libmecab` shared library) and builds a model from `args`, the
    /// command-line options after the program name (e.g. `["-C", "-d", DICDIR, "-Owakati"]`).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidOption`] when the library cannot be loaded or lacks the MeCab C
    /// API, when an argument holds a NUL, or with MeCab's message when it rejects the options.
    pub fn open(library: &Path, args: &[&str]) -> Result<Self> {
        // SAFETY: loading runs the library's initialisers; libmecab's only set up C++ statics.
        let lib = unsafe { Library::new(library) }.map_err(|e| {
            Error::invalid_option(format!(
                "cannot load libmecab from {}: {e}",
                library.display()
            ))
        })?;
        let api = Api::load(&lib, library)?;
        // argv as MeCab's own command line gets it: a program name, then the options.
        let argv = std::iter::once("mecab")
            .chain(args.iter().copied())
            .map(|a| {
                CString::new(a).map_err(|_| {
                    Error::invalid_option(format!("MeCab argument {a:?} contains a NUL character"))
                })
            })
            .collect::<Result<Vec<CString>>>()?;
        let mut pointers: Vec<*mut c_char> = argv.iter().map(|a| a.as_ptr().cast_mut()).collect();
        let argc = c_int::try_from(pointers.len())
            .map_err(|_| Error::invalid_option("too many MeCab arguments"))?;
        // SAFETY: `pointers` holds `argc` valid NUL-terminated strings that outlive the call;
        // MeCab's option parser reads them and does not keep or modify them.
        let model = unsafe { (api.model_new)(argc, pointers.as_mut_ptr()) };
        let Some(model) = NonNull::new(model) else {
            // SAFETY: with a null tagger, `mecab_strerror` returns MeCab's global error buffer.
            let reason = unsafe { c_string((api.strerror)(std::ptr::null_mut())) };
            return Err(Error::invalid_option(format!(
                "MeCab rejected the arguments {args:?}: {}",
                self::reason(reason)
            )));
        };
        Ok(Self {
            api,
            model,
            cache: LineCache::new(),
            _library: ManuallyDrop::new(lib),
        })
    }

    /// How many tokenized lines the model remembers (at most [`CACHE_LINES`]).
    pub fn cached_lines(&self) -> usize {
        self.cache.len()
    }

    /// Forgets every remembered line, so the next lines are parsed again.
    pub fn clear_cache(&self) {
        self.cache.clear();
    }

    /// The library's MeCab version (`0.996`, or `0.996/ko-0.9.2` for mecab-ko).
    pub fn version(&self) -> Result<String> {
        // SAFETY: `mecab_version` returns a static string.
        provided(unsafe { c_string((self.api.version)()) }, "version")
    }

    /// The dictionaries the model loaded: the system dictionary first, then any user
    /// dictionaries.
    pub fn dictionary_info(&self) -> Result<Vec<DictionaryInfo>> {
        let mut out = Vec::new();
        // SAFETY: the model is live; the list it returns lives as long as the model.
        let mut info = unsafe { (self.api.model_dictionary_info)(self.model.as_ptr()) };
        // SAFETY (loop): each non-null `info` points to a live `mecab_dictionary_info_t`.
        while let Some(d) = unsafe { info.as_ref() } {
            out.push(DictionaryInfo {
                // SAFETY: the fields are null or NUL-terminated strings owned by the model.
                filename: provided(unsafe { c_string(d.filename) }, "dictionary file name")?,
                // SAFETY: as above.
                charset: provided(unsafe { c_string(d.charset) }, "dictionary charset")?,
                size: d.size,
                kind: d.kind,
                lsize: d.lsize,
                rsize: d.rsize,
                version: d.version,
            });
            info = d.next;
        }
        Ok(out)
    }

    /// `tagger.parse(line.strip()).strip()` for every line, as sacrebleu computes it through
    /// the SWIG wrapper, on `workers` threads (`-1`: every core).
    ///
    /// # Errors
    /// [`ErrorKind::InvalidOption`] for a bad `workers` value or when MeCab cannot create a
    /// tagger; [`ErrorKind::InvalidInput`] when MeCab fails on a line.
    pub fn tokenize_batch(&self, lines: &[&str], workers: i64) -> Result<Vec<String>> {
        parallel::try_map_init(
            lines,
            workers,
            || Tagger::new(self),
            |tagger, line| match tagger {
                Ok(tagger) => tagger.parse(line),
                Err(e) => Err(e.clone()),
            },
        )
    }
}

impl Drop for MecabModel {
    fn drop(&mut self) {
        // SAFETY: the model is live and every tagger made from it holds a borrow or a share of
        // it, so none is left.
        unsafe { (self.api.model_destroy)(self.model.as_ptr()) }
    }
}

/// The text MeCab sees for `line` through sacrebleu: `line.strip()`, as a C string. SWIG hands
/// MeCab a NUL-terminated `char*`, so MeCab reads up to the first NUL.
pub fn mecab_input(line: &str) -> &str {
    let line = py_strip(line);
    line.split_once('\0').map_or(line, |(head, _)| head)
}

/// One MeCab tagger: its lattice and output buffer, for one thread at a time (MeCab's taggers
/// are not thread-safe; the model is). `M` keeps the model alive: a borrow of it
/// (`&MecabModel`) or a share (`Arc<MecabModel>`, for a tagger kept in per-thread state).
pub struct Tagger<M: Deref<Target = MecabModel>> {
    model: M,
    ptr: NonNull<c_void>,
}

impl<M: Deref<Target = MecabModel>> fmt::Debug for Tagger<M> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tagger")
            .field("model", &*self.model)
            .field("tagger", &self.ptr)
            .finish()
    }
}

impl<M: Deref<Target = MecabModel>> Tagger<M> {
    /// A new tagger of `model`.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidOption`] with MeCab's message when it cannot create one.
    pub fn new(model: M) -> Result<Self> {
        let api = &model.api;
        // SAFETY: the model is live; the tagger keeps it alive (`model`) until it is
        // destroyed (`Drop`).
        let ptr = unsafe { (api.model_new_tagger)(model.model.as_ptr()) };
        match NonNull::new(ptr) {
            Some(ptr) => Ok(Self { model, ptr }),
            // SAFETY: with a null tagger, `mecab_strerror` returns MeCab's global error buffer.
            None => Err(Error::invalid_option(format!(
                "MeCab could not create a tagger: {}",
                reason(unsafe { c_string((api.strerror)(std::ptr::null_mut())) })
            ))),
        }
    }

    /// The model the tagger was made from.
    pub fn model(&self) -> &M {
        &self.model
    }

    /// `tagger.parse(line.strip()).strip()`, as sacrebleu's `ja-mecab` and `ko-mecab` return
    /// it.
    ///
    /// # Errors
    /// As [`Tagger::parse_into`].
    pub fn parse(&mut self, line: &str) -> Result<String> {
        let mut out = String::new();
        self.parse_into(line, &mut out)?;
        Ok(out)
    }

    /// [`Tagger::parse`] into `out`, replacing its content.
    ///
    /// # Errors
    /// [`ErrorKind::InvalidInput`] with MeCab's message when it fails on the line;
    /// [`ErrorKind::Decode`] when its output is not UTF-8.
    pub fn parse_into(&mut self, line: &str, out: &mut String) -> Result<()> {
        out.clear();
        let input = mecab_input(line);
        if self.model.cache.get_into(input, out) {
            return Ok(());
        }
        // An empty `&str` may have a dangling pointer; MeCab always gets a real one.
        let ptr = if input.is_empty() {
            c"".as_ptr()
        } else {
            input.as_ptr().cast::<c_char>()
        };
        // SAFETY: `ptr` points to `input.len()` readable bytes that outlive the call; the
        // tagger is live and used by this thread alone (`&mut self`). `mecab_sparse_tostr2` is
        // `Tagger::parse(str, len)`, which the SWIG `parse(str)` calls with `strlen(str)`.
        let parsed = unsafe { (self.model.api.sparse_tostr2)(self.ptr.as_ptr(), ptr, input.len()) };
        if parsed.is_null() {
            // SAFETY: the tagger is live; `mecab_strerror` returns its last error message.
            let reason = unsafe { c_string((self.model.api.strerror)(self.ptr.as_ptr())) };
            return Err(Error::invalid_input(format!(
                "MeCab failed on the line {line:?}: {}",
                self::reason(reason)
            )));
        }
        // SAFETY: a non-null result is a NUL-terminated string in the tagger's buffer, valid
        // until its next call; it is copied before that.
        let parsed = unsafe { CStr::from_ptr(parsed) }.to_bytes();
        let parsed = std::str::from_utf8(parsed).map_err(|e| {
            Error::new(
                ErrorKind::Decode,
                format!("MeCab returned invalid UTF-8 for the line {line:?}: {e}"),
            )
        })?;
        out.push_str(py_strip(parsed));
        self.model.cache.insert(input, out);
        Ok(())
    }
}

impl<M: Deref<Target = MecabModel>> Drop for Tagger<M> {
    fn drop(&mut self) {
        // SAFETY: the tagger is live and owned by `self`.
        unsafe { (self.model.api.destroy)(self.ptr.as_ptr()) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn input_is_stripped_and_cut_at_nul() {
        assert_eq!(mecab_input("\u{3000} 日本語 \n"), "日本語");
        assert_eq!(mecab_input(" a \0b "), "a ");
        assert_eq!(mecab_input("\0abc"), "");
        assert_eq!(mecab_input(""), "");
    }

    #[test]
    fn missing_library_is_an_error() {
        let Err(err) = MecabModel::open(Path::new("/nonexistent/libmecab.so.2"), &[]) else {
            panic!("loaded a library that does not exist");
        };
        assert_eq!(err.kind(), ErrorKind::InvalidOption);
        assert!(err.message().contains("/nonexistent/libmecab.so.2"));
    }

    #[test]
    fn library_without_mecab_is_an_error() {
        // libc is loaded in every process and has none of MeCab's symbols.
        match MecabModel::open(Path::new("libc.so.6"), &[]) {
            Ok(_) => panic!("libc passed as libmecab"),
            Err(err) => assert!(err.message().contains("mecab_model_new"), "{err}"),
        }
    }

    #[test]
    fn the_line_cache_is_bounded() {
        let cache = LineCache::new();
        let mut out = String::from("kept ");
        assert!(!cache.get_into("a", &mut out));
        cache.insert("a", "a b");
        assert!(cache.get_into("a", &mut out));
        assert_eq!(out, "kept a b");
        for i in 0..3 * CACHE_LINES {
            cache.insert(&i.to_string(), "x");
        }
        let len = cache.len();
        assert!(len <= CACHE_LINES && len > CACHE_LINES / 4, "{len}");
        cache.clear();
        assert_eq!(cache.len(), 0);
    }

    #[test]
    fn tokenizes_with_a_real_library() {
        let Some(model) = testing::ipadic() else {
            return;
        };
        assert!(model.version().unwrap().starts_with("0.996"));
        assert_eq!(model.dictionary_info().unwrap().len(), 1);
        let lines: Vec<String> = (0..500)
            .map(|i| format!(" 日本語の文 {i} です。\n"))
            .collect();
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        let serial = model.tokenize_batch(&lines, 1).unwrap();
        assert_eq!(model.tokenize_batch(&lines, -1).unwrap(), serial);
        assert!(serial.iter().all(|s| !s.ends_with(char::is_whitespace)));
        assert_eq!(model.tokenize_batch(&["", "\0x"], 1).unwrap(), ["", ""]);
        // Remembered by the text MeCab saw ("" and "\0x" are one), and parsed again once
        // forgotten, to the same strings.
        assert_eq!(model.cached_lines(), 501);
        model.clear_cache();
        assert_eq!(model.cached_lines(), 0);
        assert_eq!(model.tokenize_batch(&lines, -1).unwrap(), serial);
        assert_eq!(model.cached_lines(), 500);
        // A tagger that shares the model gives the same strings.
        let mut tagger = Tagger::new(std::sync::Arc::new(model)).unwrap();
        let shared: Vec<String> = lines.iter().map(|l| tagger.parse(l).unwrap()).collect();
        assert_eq!(shared, serial);
        if let Some(swig) = testing::swig_parse(&["日本語の文です。", " a\u{3000}b ", ""]) {
            let ours: Vec<String> = ["日本語の文です。", " a\u{3000}b ", ""]
                .iter()
                .map(|l| tagger.parse(l).unwrap())
                .collect();
            assert_eq!(ours, swig);
        }
    }
}

/// A real MeCab for tests: the `libmecab` that the installed `mecab-python3` wheel bundles and
/// the `ipadic` dictionary, found as `tokenizers/mecab.py` finds them, by asking Python
/// (`BLEUPRINT_TEST_PYTHON`, default `python3`). Where they are absent a test skips, saying
/// why on stderr.
#[cfg(test)]
pub(crate) mod testing {
    use super::MecabModel;
    use std::path::Path;
    use std::process::{Command, Stdio};

    /// Finds the library and `ipadic`'s arguments (as `tagger_args` builds them, with
    /// `-Owakati`): one per output line, the library first.
    const LOCATE: &str = r#"
import importlib.metadata, shlex, sys
try:
    import ipadic
    files = importlib.metadata.files("mecab-python3") or []
except (ImportError, importlib.metadata.PackageNotFoundError) as e:
    sys.exit(f"mecab-python3 and ipadic are not installed ({e})")
names = [f for f in sorted(files, key=str) if f.name.startswith("libmecab")]
libs = [str(f.locate()) for f in names if ".so" in f.name or f.name.endswith((".dylib", ".dll"))]
if not libs:
    sys.exit("mecab-python3 bundles no libmecab")
print("\n".join([libs[0], "-C", *shlex.split(ipadic.MECAB_ARGS + " -Owakati")]))
"#;

    /// `tagger.parse(line.strip()).strip()` of the SWIG `MeCab.Tagger`, one line per line.
    const SWIG: &str = r#"
import sys, MeCab, ipadic
tagger = MeCab.Tagger(ipadic.MECAB_ARGS + " -Owakati")
lines = sys.stdin.buffer.read().decode("utf-8").split("\n")
sys.stdout.buffer.write("\n".join(tagger.parse(l.strip()).strip() for l in lines).encode("utf-8"))
"#;

    /// Runs `script` with `input` on stdin: its stdout, or `None` after printing why not.
    fn python(script: &str, input: &str) -> Option<String> {
        let interpreter =
            std::env::var("BLEUPRINT_TEST_PYTHON").unwrap_or_else(|_| "python3".to_owned());
        let child = Command::new(&interpreter)
            .args(["-c", script])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn();
        let output = child.and_then(|mut child| {
            if let Some(mut stdin) = child.stdin.take() {
                std::io::Write::write_all(&mut stdin, input.as_bytes())?;
            }
            child.wait_with_output()
        });
        match output {
            Ok(out) if out.status.success() => String::from_utf8(out.stdout).ok(),
            Ok(out) => {
                let why = String::from_utf8_lossy(&out.stderr);
                eprintln!("skipped, no MeCab to test with: {}", why.trim());
                None
            }
            Err(e) => {
                eprintln!("skipped, no MeCab to test with: cannot run {interpreter}: {e}");
                None
            }
        }
    }

    /// The installed `ipadic` model, or `None` (the reason printed) without one.
    pub(crate) fn ipadic() -> Option<MecabModel> {
        let found = python(LOCATE, "")?;
        let mut lines = found.lines();
        let library = lines.next()?;
        let args: Vec<&str> = lines.collect();
        match MecabModel::open(Path::new(library), &args) {
            Ok(model) => Some(model),
            Err(e) => {
                eprintln!("skipped, the installed MeCab does not load: {e}");
                None
            }
        }
    }

    /// The SWIG tagger's `parse(line.strip()).strip()` of each line (lines without `\n`).
    pub(crate) fn swig_parse(lines: &[&str]) -> Option<Vec<String>> {
        let parsed = python(SWIG, &lines.join("\n"))?;
        Some(parsed.split('\n').map(str::to_owned).collect())
    }
}
