//! Enum boilerplate, written once: option names from one table per enum ([`name_table!`]), and
//! the conversions into an enum from the values its variants wrap ([`wrap_from!`]).

/// Implements `NAMES`, `from_name` and `name` for an enum from one table of
/// `Variant => "name"` pairs of its fieldless variants. `what` names the option in errors
/// (`unknown tokenizer "x"; expected one of ...`). With `fold_case`, `from_name` ignores ASCII
/// case. Variants with fields, which no name can build, follow as `others: { pattern =>
/// "name" }`: `name` gives their name, `from_name` does not take it.
macro_rules! name_table {
    ($ty:ty, $what:literal, $(fold_case: $fold:literal,)? { $($variant:ident => $name:literal),+ $(,)? } $(, others: { $($other:pat => $other_name:literal),+ $(,)? })?) => {
        impl $ty {
            /// Every accepted name, in order.
            pub const NAMES: [&'static str; [$($name),+].len()] = [$($name),+];

            /// Parses a name.
            ///
            /// # Errors
            /// [`crate::ErrorKind::InvalidOption`] for a name not in `NAMES`, naming the
            /// accepted ones.
            pub fn from_name(name: &str) -> $crate::error::Result<Self> {
                let folded;
                let key = if false $(|| $fold)? {
                    folded = name.to_ascii_lowercase();
                    folded.as_str()
                } else {
                    name
                };
                match key {
                    $($name => Ok(Self::$variant),)+
                    _ => Err($crate::error::Error::invalid_option(format!(
                        concat!("unknown ", $what, " {:?}; expected one of {}"),
                        name,
                        Self::NAMES.join(", ")
                    ))),
                }
            }

            /// The option's name (as signatures show it).
            pub fn name(&self) -> &'static str {
                match self {
                    $(Self::$variant => $name,)+
                    $($($other => $other_name,)+)?
                }
            }
        }
    };
}

pub(crate) use name_table;

/// Implements `From<T>` for an enum with a variant `Variant(T)`, for each listed pair:
/// `wrap_from!(ArithmeticError { Core(Error), Python(PythonError) })`.
macro_rules! wrap_from {
    ($ty:ty { $($variant:ident($from:ty)),+ $(,)? }) => {
        $(
            impl From<$from> for $ty {
                fn from(value: $from) -> Self {
                    Self::$variant(value)
                }
            }
        )+
    };
}

pub(crate) use wrap_from;
