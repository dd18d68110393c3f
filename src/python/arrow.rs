//! pyarrow string arrays read in place through the Arrow C data interface
//! (<https://arrow.apache.org/docs/format/CDataInterface.html>): the capsules of
//! `Array.__arrow_c_array__()` point at the array's own buffers, so a column's text reaches
//! the core without a copy and without a Python string per cell.

use std::ffi::{c_char, c_void, CStr};

/// `struct ArrowSchema` of the C data interface.
#[repr(C)]
pub(crate) struct ArrowSchema {
    format: *const c_char,
    name: *const c_char,
    metadata: *const c_char,
    flags: i64,
    n_children: i64,
    children: *mut *mut ArrowSchema,
    dictionary: *mut ArrowSchema,
    release: Option<unsafe extern "C" fn(*mut ArrowSchema)>,
    private_data: *mut c_void,
}

/// `struct ArrowArray` of the C data interface.
#[repr(C)]
pub(crate) struct ArrowArray {
    length: i64,
    null_count: i64,
    offset: i64,
    n_buffers: i64,
    n_children: i64,
    buffers: *mut *const c_void,
    children: *mut *mut ArrowArray,
    dictionary: *mut ArrowArray,
    release: Option<unsafe extern "C" fn(*mut ArrowArray)>,
    private_data: *mut c_void,
}

/// The `length + 1` offsets of a string array (`string`: int32, `large_string`: int64).
pub(crate) enum Offsets<'a> {
    Small(&'a [i32]),
    Large(&'a [i64]),
}

/// A string array's buffers, borrowed: `data` runs from the buffer's start to the last
/// offset, `offsets` starts at the array's first cell, and `validity` is the bitmap with the
/// bit index of that cell (`None`: no nulls).
pub(crate) struct StringArray<'a> {
    pub(crate) data: &'a [u8],
    pub(crate) offsets: Offsets<'a>,
    pub(crate) validity: Option<(&'a [u8], usize)>,
}

impl StringArray<'_> {
    /// Whether cell `i` holds a string (its validity bit is set).
    pub(crate) fn is_valid(&self, i: usize) -> bool {
        self.validity.is_none_or(|(bits, first)| {
            let at = first + i;
            bits.get(at / 8).is_some_and(|b| b >> (at % 8) & 1 == 1)
        })
    }
}

/// A buffer of `count` values of `T` at `pointer`, checked for null and alignment.
///
/// # Safety
/// A non-null `pointer` must be valid for reads of `count` values of `T` for `'a`.
unsafe fn buffer<'a, T>(
    pointer: *const c_void,
    count: usize,
    what: &str,
) -> Result<&'a [T], String> {
    if count == 0 {
        return Ok(&[]);
    }
    if pointer.is_null() {
        return Err(format!("the {what} buffer is missing"));
    }
    if pointer as usize % std::mem::align_of::<T>() != 0 {
        return Err(format!("the {what} buffer is not aligned"));
    }
    // SAFETY: non-null and aligned (checked); valid for `count` values (the caller).
    Ok(unsafe { std::slice::from_raw_parts(pointer.cast::<T>(), count) })
}

/// The buffers of an exported `string` or `large_string` array; anything else is refused
/// with a message saying why.
///
/// # Safety
/// `schema` and `array` must be the live, unreleased structs of one export (as a capsule of
/// `__arrow_c_array__` holds them), whose buffers stay valid for `'a`. The producer is
/// trusted for buffer sizes, as every consumer of the interface must: the offsets are read
/// for `offset + length + 1` entries and the data up to the last offset.
pub(crate) unsafe fn string_array<'a>(
    schema: &'a ArrowSchema,
    array: &'a ArrowArray,
) -> Result<StringArray<'a>, String> {
    if schema.release.is_none() || array.release.is_none() {
        return Err("the array was already released".into());
    }
    let format = if schema.format.is_null() {
        &[][..]
    } else {
        // SAFETY: a live schema's format is a NUL-terminated string.
        unsafe { CStr::from_ptr(schema.format) }.to_bytes()
    };
    let large = match format {
        b"u" => false,
        b"U" => true,
        other => {
            return Err(format!(
                "it holds Arrow type {:?}, not string or large_string",
                String::from_utf8_lossy(other)
            ))
        }
    };
    if array.n_buffers != 3 || array.buffers.is_null() || array.n_children != 0 {
        return Err("its buffers are not a string array's".into());
    }
    let (Ok(length), Ok(offset)) = (usize::try_from(array.length), usize::try_from(array.offset))
    else {
        return Err("its length or offset is negative".into());
    };
    let entries = offset
        .checked_add(length)
        .and_then(|n| n.checked_add(1))
        .ok_or("its length and offset overflow")?;
    if length == 0 {
        // An empty array may export no offsets at all.
        return Ok(StringArray {
            data: &[],
            offsets: Offsets::Large(&[0]),
            validity: None,
        });
    }
    // SAFETY: a string array exports three buffer pointers (checked: n_buffers == 3).
    let pointers = unsafe { std::slice::from_raw_parts(array.buffers, 3) };
    let &[validity_pointer, offsets_pointer, data_pointer] = pointers else {
        return Err("its buffers are not a string array's".into());
    };
    let missing = || String::from("its offsets are missing");
    let (offsets, first, last) = if large {
        // SAFETY: the offsets buffer holds `offset + length + 1` int64 values (the format).
        let all: &[i64] = unsafe { buffer(offsets_pointer, entries, "offsets") }?;
        let cut = all.get(offset..).ok_or_else(missing)?;
        let (first, last) = cut.first().zip(cut.last()).ok_or_else(missing)?;
        (Offsets::Large(cut), *first, *last)
    } else {
        // SAFETY: as above, int32 values.
        let all: &[i32] = unsafe { buffer(offsets_pointer, entries, "offsets") }?;
        let cut = all.get(offset..).ok_or_else(missing)?;
        let (first, last) = cut.first().zip(cut.last()).ok_or_else(missing)?;
        (Offsets::Small(cut), i64::from(*first), i64::from(*last))
    };
    let end = usize::try_from(last)
        .ok()
        .filter(|_| (0..=last).contains(&first))
        .ok_or("its offsets do not rise from 0 or more")?;
    // SAFETY: the data buffer holds at least the bytes up to the last offset (the format).
    let data: &[u8] = unsafe { buffer(data_pointer, end, "data") }?;
    let validity = if validity_pointer.is_null() {
        None
    } else {
        let slots = (offset + length).div_ceil(8);
        // SAFETY: a validity bitmap holds a bit for each of the `offset + length` slots.
        let bits: &[u8] = unsafe { buffer(validity_pointer, slots, "validity") }?;
        Some((bits, offset))
    };
    Ok(StringArray {
        data,
        offsets,
        validity,
    })
}
