//! One declarative table per group of settings (search parameters,
//! evaluation weights, engine options, time settings), from which
//! everything else is derived: the struct with typed fields, its
//! `Default`, the range-checked setter by name or by index, the
//! `name=value,...` form the CLI's `--params` and AEI's `setoption` use,
//! the listing `aamir params` prints, and the check and help of a CLI flag
//! of a setting's own ([`flag_check`], [`flag_help`]).
//!
//! A setting is one line of a [`table!`]:
//!
//! ```text
//! /// What it does (becomes the field's doc and the listing's text).
//! name: type = default, min..=max;
//! ```
//!
//! `type` is `bool`, an integer type, or an array of one (`[i32; 8]`, each
//! element a setting of its own, named `name_0`, `name_1`, ...). Every
//! element has a flat index, so a tuner can read and write a table as a
//! vector of numbers ([`Table::get`], [`Table::set`]).
//!
//! This module sits below every other: it knows nothing of the game.

use std::fmt::Write as _;
use thiserror::Error;

/// How one setting's value is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// `0`/`1`, `true`/`false`, `on`/`off`, `yes`/`no`.
    Switch,
    /// A whole number within the range.
    Int,
}

/// One line of a table, as the code that lists and checks settings sees it.
#[derive(Clone, Copy, Debug)]
pub struct Spec {
    pub name: &'static str,
    /// The Rust type as written in the table (`usize`, `[i32; 8]`).
    pub ty: &'static str,
    pub kind: ValueKind,
    /// Elements: 1 for a scalar, N for an array.
    pub len: usize,
    /// Smallest value accepted (per element).
    pub min: i64,
    /// Largest value accepted (per element).
    pub max: i64,
    /// The doc comment's lines.
    pub doc: &'static [&'static str],
}

impl Spec {
    /// The doc comment as one line.
    pub fn doc_line(&self) -> String {
        self.doc
            .iter()
            .map(|l| l.trim())
            .filter(|l| !l.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The accepted values, as the listing and errors show them.
    pub fn range_text(&self) -> String {
        match self.kind {
            ValueKind::Switch => "0 or 1".to_string(),
            ValueKind::Int => format!("{} to {}", self.min, self.max),
        }
    }

    /// Reads `text` as a value of this setting, range checked; the error is
    /// the reason, to follow the value in a message.
    pub fn parse(&self, text: &str) -> Result<i64, String> {
        let v = text.trim();
        match self.kind {
            ValueKind::Switch => match v.to_ascii_lowercase().as_str() {
                "1" | "true" | "on" | "yes" => Ok(1),
                "0" | "false" | "off" | "no" => Ok(0),
                _ => Err("is not a switch value (0/1, true/false, on/off, yes/no)".to_string()),
            },
            ValueKind::Int => {
                // Whole numbers, also written as `64.0` or `1e3`.
                let x = v.parse::<i64>().ok().or_else(|| {
                    v.parse::<f64>()
                        .ok()
                        .filter(|x| x.is_finite() && x.fract() == 0.0 && x.abs() < 9e15)
                        .map(|x| x as i64)
                });
                match x {
                    None => Err("is not a whole number".to_string()),
                    Some(x) if x < self.min || x > self.max => {
                        Err(format!("is out of range ({})", self.range_text()))
                    }
                    Some(x) => Ok(x),
                }
            }
        }
    }

    /// Checks a value given by number (a tuner's).
    pub fn check(&self, v: i64) -> Result<i64, String> {
        if v < self.min || v > self.max {
            return Err(format!("{v} is out of range ({})", self.range_text()));
        }
        Ok(v)
    }
}

/// Why a setting was not changed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum SettingError {
    #[error("unknown setting `{0}` (`aamir params` lists them)")]
    Unknown(String),
    #[error("`{name}`: `{value}` {reason}")]
    BadValue {
        name: String,
        value: String,
        reason: String,
    },
    #[error("`{0}` is not name=value")]
    NotNameValue(String),
    #[error("setting index {0} is out of range")]
    BadIndex(usize),
}

/// A value type a table can hold: its elements read and written as `i64`
/// (the table's ranges keep them within the type).
pub trait Field {
    const LEN: usize;
    const KIND: ValueKind;
    fn get(&self, k: usize) -> i64;
    fn put(&mut self, k: usize, v: i64);
}

impl Field for bool {
    const LEN: usize = 1;
    const KIND: ValueKind = ValueKind::Switch;
    fn get(&self, _: usize) -> i64 {
        *self as i64
    }
    fn put(&mut self, _: usize, v: i64) {
        *self = v != 0;
    }
}

macro_rules! int_field {
    ($($t:ty),*) => {$(
        impl Field for $t {
            const LEN: usize = 1;
            const KIND: ValueKind = ValueKind::Int;
            fn get(&self, _: usize) -> i64 {
                *self as i64
            }
            fn put(&mut self, _: usize, v: i64) {
                *self = v as $t;
            }
        }
    )*};
}
int_field!(i32, u32, usize, u64);

impl<T: Field, const N: usize> Field for [T; N] {
    const LEN: usize = N;
    const KIND: ValueKind = T::KIND;
    fn get(&self, k: usize) -> i64 {
        self[k].get(0)
    }
    fn put(&mut self, k: usize, v: i64) {
        self[k].put(0, v)
    }
}

/// What every generated table offers; all but the two accessors are
/// derived from [`Table::SPECS`].
pub trait Table: Clone + Default + PartialEq {
    /// The table's lines in order.
    const SPECS: &'static [Spec];
    /// Element `k` of setting `spec` (by position in [`Table::SPECS`]).
    fn field(&self, spec: usize, k: usize) -> i64;
    /// Writes element `k` of setting `spec`; the value is already checked.
    fn put_field(&mut self, spec: usize, k: usize, v: i64);

    /// Number of elements (flat indices) in the table.
    fn len() -> usize {
        Self::SPECS.iter().map(|s| s.len).sum()
    }

    /// The setting and element of flat index `i`.
    fn locate(i: usize) -> Option<(usize, usize)> {
        let mut i = i;
        for (n, s) in Self::SPECS.iter().enumerate() {
            if i < s.len {
                return Some((n, i));
            }
            i -= s.len;
        }
        None
    }

    /// The name of flat index `i`: the setting's, with `_k` for an array's
    /// element `k`.
    fn name(i: usize) -> Option<String> {
        let (n, k) = Self::locate(i)?;
        let s = &Self::SPECS[n];
        Some(if s.len == 1 && !s.ty.starts_with('[') {
            s.name.to_string()
        } else {
            format!("{}_{k}", s.name)
        })
    }

    /// The flat index of a name ([`Table::name`]'s inverse).
    fn index_of(name: &str) -> Option<usize> {
        (0..Self::len()).find(|&i| Self::name(i).as_deref() == Some(name))
    }

    /// The spec behind a flat index.
    fn spec(i: usize) -> Option<&'static Spec> {
        Self::locate(i).map(|(n, _)| &Self::SPECS[n])
    }

    /// Value of flat index `i`.
    fn get(&self, i: usize) -> Option<i64> {
        let (n, k) = Self::locate(i)?;
        Some(self.field(n, k))
    }

    /// Sets flat index `i` to `v`, range checked.
    fn set(&mut self, i: usize, v: i64) -> Result<(), SettingError> {
        let (n, k) = Self::locate(i).ok_or(SettingError::BadIndex(i))?;
        let spec = &Self::SPECS[n];
        let v = spec.check(v).map_err(|reason| SettingError::BadValue {
            name: Self::name(i).unwrap_or_default(),
            value: v.to_string(),
            reason,
        })?;
        self.put_field(n, k, v);
        Ok(())
    }

    /// Sets a setting by name from text, range checked.
    fn set_named(&mut self, name: &str, text: &str) -> Result<(), SettingError> {
        let i = Self::index_of(name).ok_or_else(|| SettingError::Unknown(name.to_string()))?;
        let spec = Self::spec(i).expect("index from index_of");
        let v = spec.parse(text).map_err(|reason| SettingError::BadValue {
            name: name.to_string(),
            value: text.trim().to_string(),
            reason,
        })?;
        let (n, k) = Self::locate(i).expect("index from index_of");
        self.put_field(n, k, v);
        Ok(())
    }

    /// Every element as `name=value`, comma-separated: what
    /// [`apply`] reads back.
    fn to_spec_string(&self) -> String {
        let mut out = String::new();
        for i in 0..Self::len() {
            if i > 0 {
                out.push(',');
            }
            let _ = write!(
                out,
                "{}={}",
                Self::name(i).unwrap_or_default(),
                self.get(i).unwrap_or_default()
            );
        }
        out
    }
}

/// Splits `name=value,name=value` and hands each pair to `set`.
pub fn apply(
    spec: &str,
    mut set: impl FnMut(&str, &str) -> Result<(), SettingError>,
) -> Result<(), SettingError> {
    for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let (n, v) = part
            .split_once('=')
            .ok_or_else(|| SettingError::NotNameValue(part.to_string()))?;
        set(n.trim(), v.trim())?;
    }
    Ok(())
}

/// A check of setting `name` of `T` for a command-line flag of its own
/// (`--hash 64`): the text back if `T` takes it, else the reason, the same
/// as `setoption` and `--params` give (a clap value parser).
pub fn flag_check<T: Table>(name: &'static str) -> impl Fn(&str) -> Result<String, String> + Clone {
    move |v: &str| {
        T::default()
            .set_named(name, v)
            .map(|()| v.to_string())
            .map_err(|e| e.to_string())
    }
}

/// The help of a flag that sets `name` of `T`: the setting's doc, default
/// and range. `name` is the code's own: a name `T` lacks is a bug.
pub fn flag_help<T: Table>(name: &str) -> String {
    let i = T::index_of(name).expect("a setting of the table");
    let spec = T::spec(i).expect("index in range");
    let default = T::default().get(i).unwrap_or_default();
    format!(
        "{} [default {default}; {}]",
        spec.doc_line(),
        spec.range_text()
    )
}

/// One listing row per setting of `T`: name (with `prefix`), default,
/// range, doc. Arrays show their default as a list.
pub fn listing<T: Table>(prefix: &str) -> Vec<[String; 4]> {
    let d = T::default();
    T::SPECS
        .iter()
        .enumerate()
        .map(|(n, s)| {
            let name = if s.ty.starts_with('[') {
                format!("{prefix}{}_0..{}", s.name, s.len - 1)
            } else {
                format!("{prefix}{}", s.name)
            };
            let values: Vec<String> = (0..s.len).map(|k| d.field(n, k).to_string()).collect();
            let default = if s.ty.starts_with('[') {
                format!("[{}]", values.join(","))
            } else {
                values.concat()
            };
            [name, default, s.range_text(), s.doc_line()]
        })
        .collect()
}

/// Declares a settings table: a struct with one public field per line, its
/// `Default`, and its [`Table`] implementation. See the module docs.
#[macro_export]
macro_rules! settings_table {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $(
                $(#[doc = $doc:literal])*
                $field:ident : $ty:ty = $default:expr , $range:expr ;
            )*
        }
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq)]
        $vis struct $name {
            $(
                $(#[doc = $doc])*
                pub $field: $ty,
            )*
        }

        impl Default for $name {
            fn default() -> Self {
                $name { $($field: $default,)* }
            }
        }

        impl $crate::settings::Table for $name {
            const SPECS: &'static [$crate::settings::Spec] = &[
                $($crate::settings::Spec {
                    name: stringify!($field),
                    ty: stringify!($ty),
                    kind: <$ty as $crate::settings::Field>::KIND,
                    len: <$ty as $crate::settings::Field>::LEN,
                    min: *($range).start() as i64,
                    max: *($range).end() as i64,
                    doc: &[$($doc),*],
                },)*
            ];

            fn field(&self, spec: usize, k: usize) -> i64 {
                const GET: &[fn(&$name, usize) -> i64] = &[
                    $(|s, k| $crate::settings::Field::get(&s.$field, k),)*
                ];
                GET[spec](self, k)
            }

            fn put_field(&mut self, spec: usize, k: usize, v: i64) {
                const PUT: &[fn(&mut $name, usize, i64)] = &[
                    $(|s, k, v| $crate::settings::Field::put(&mut s.$field, k, v),)*
                ];
                PUT[spec](self, k, v)
            }
        }
    };
}

pub use crate::settings_table as table;

#[cfg(test)]
mod tests {
    use super::*;

    table! {
        /// A table for the tests.
        pub struct Demo {
            /// A switch.
            on: bool = true, 0..=1;
            /// A count
            /// over two lines.
            count: usize = 4, 1..=8;
            /// Signed elements.
            w: [i32; 3] = [1, -2, 3], -10..=10;
        }
    }

    #[test]
    fn names_indices_and_values() {
        assert_eq!(Demo::len(), 5);
        let names: Vec<_> = (0..Demo::len()).map(|i| Demo::name(i).unwrap()).collect();
        assert_eq!(names, ["on", "count", "w_0", "w_1", "w_2"]);
        let d = Demo::default();
        let values: Vec<_> = (0..5).map(|i| d.get(i).unwrap()).collect();
        assert_eq!(values, [1, 4, 1, -2, 3]);
        assert_eq!(Demo::index_of("w_1"), Some(3));
        assert_eq!(Demo::SPECS[1].doc_line(), "A count over two lines.");
        assert!(Demo::name(5).is_none());
    }

    #[test]
    fn setters_check_ranges_and_kinds() {
        let mut d = Demo::default();
        d.set_named("count", "8").unwrap();
        d.set_named("w_2", "-10").unwrap();
        d.set_named("on", "off").unwrap();
        assert_eq!((d.count, d.w, d.on), (8, [1, -2, -10], false));
        d.set(1, 2).unwrap();
        assert_eq!(d.count, 2);
        for (name, value) in [
            ("count", "0"),
            ("count", "9"),
            ("count", "2.5"),
            ("on", "2"),
        ] {
            let e = d.set_named(name, value).unwrap_err();
            let text = e.to_string();
            assert!(text.contains(name) && text.contains(value), "{text}");
        }
        assert!(matches!(d.set(1, 99), Err(SettingError::BadValue { .. })));
        assert!(matches!(d.set(5, 0), Err(SettingError::BadIndex(5))));
        assert!(matches!(
            d.set_named("w", "1"),
            Err(SettingError::Unknown(_))
        ));
        assert_eq!(d.count, 2, "a refused value changes nothing");
    }

    #[test]
    fn spec_string_round_trips_and_listing_shows_defaults() {
        let mut d = Demo::default();
        apply("count=3, w_0=7,on=0", |n, v| d.set_named(n, v)).unwrap();
        let text = d.to_spec_string();
        assert_eq!(text, "on=0,count=3,w_0=7,w_1=-2,w_2=3");
        let mut e = Demo::default();
        apply(&text, |n, v| e.set_named(n, v)).unwrap();
        assert_eq!(d, e);
        assert!(matches!(
            apply("count", |n, v| e.set_named(n, v)),
            Err(SettingError::NotNameValue(_))
        ));
        let rows = listing::<Demo>("x_");
        assert_eq!(
            rows[1],
            ["x_count", "4", "1 to 8", "A count over two lines."].map(String::from)
        );
        assert_eq!(rows[2][0], "x_w_0..2");
        assert_eq!(rows[2][1], "[1,-2,3]");
        assert_eq!(rows[0][2], "0 or 1");
    }
}
