//! `setoption` values: every standard AEI option (and the pre-2009 names
//! older controllers still send) plus aamir's own, read from text into a
//! typed [`AeiOption`]. Pure: applying an option is the session's job.
//!
//! Numbers may be fractional (`tcmove 7.5`); times are seconds. A negative
//! time (a controller's reserve that ran a little over) reads as zero, with
//! a warning, since counting it as time we have would risk a loss.

use crate::board::Color;
use crate::search::EngineConfig;
use crate::settings::SettingError;
use std::time::Duration;
use thiserror::Error;

/// Longest time accepted, in seconds (about 30 years): keeps all clock
/// arithmetic far from overflow.
pub const MAX_SECONDS: f64 = 1e9;
/// Largest `tcpercent` accepted.
pub const MAX_PERCENT: f64 = 10_000.0;

/// An option with its value read.
#[derive(Clone, Debug, PartialEq)]
pub enum AeiOption {
    /// `tcmove`: time per move.
    TcMove(Duration),
    /// `tcreserve`: starting reserve.
    TcReserve(Duration),
    /// `tcpercent`: share of unused move time added to the reserve.
    TcPercent(u32),
    /// `tcmax`: reserve cap (zero = none).
    TcMax(Duration),
    /// `tctotal`: game time limit (zero = none).
    TcTotal(Duration),
    /// `tcturns`: game turn limit (zero = none).
    TcTurns(u32),
    /// `tcturntime`: longest single turn (zero = none).
    TcTurnTime(Duration),
    /// `greserve` / `sreserve` (old `wreserve` / `breserve`).
    Reserve(Color, Duration),
    /// `gused` / `sused` (old `wused` / `bused`): time of that side's last turn.
    Used(Color, Duration),
    /// `lastmoveused` (old `tclastmoveused`).
    LastMoveUsed(Duration),
    /// `moveused` (old `tcmoveused`): time already gone on the current turn.
    MoveUsed(Duration),
    Opponent(String),
    OpponentRating(f64),
    Rating(f64),
    Rated(bool),
    Event(String),
    /// `seed` (aamir): fixes the setup choice; `None` = vary between games.
    Seed(Option<u64>),
    /// A setting of the engine's configuration (`hash`, `depth`,
    /// `threads`, a search parameter, an `eval_` weight: see
    /// `search::EngineConfig` and `aamir params`), by name and value text,
    /// both checked.
    Setting(String, String),
    /// `debug_panic` (debug builds only): the next search panics, so tests
    /// can check what a controller sees when the engine panics.
    #[cfg(debug_assertions)]
    DebugPanic,
}

/// An option and anything worth warning the controller about.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    pub option: AeiOption,
    pub warning: Option<String>,
}

/// Why an option was not applied.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OptionError {
    /// Not an option aamir knows: the spec asks for a warning only.
    #[error("unrecognised option `{name}` ignored")]
    Unknown { name: String },
    #[error("option `{name}` needs a value (`setoption name {name} value <x>`)")]
    MissingValue { name: String },
    #[error("option `{name}`: `{value}` {reason}")]
    BadValue {
        name: String,
        value: String,
        reason: String,
    },
}

impl OptionError {
    /// Unknown options are a warning; bad values of known ones an error.
    pub fn is_warning(&self) -> bool {
        matches!(self, OptionError::Unknown { .. })
    }
}

/// Reads `setoption name <name> [value <value>]`. Names are matched without
/// regard to case (controllers read them from INI files, which lowercase).
pub fn parse_option(name: &str, value: Option<&str>) -> Result<Parsed, OptionError> {
    let key = name.trim().to_ascii_lowercase();
    let raw = value.map(str::trim);
    let bad = |reason: &str| OptionError::BadValue {
        name: key.clone(),
        value: raw.unwrap_or("").to_string(),
        reason: reason.to_string(),
    };
    let need = || raw.ok_or_else(|| OptionError::MissingValue { name: key.clone() });
    let number = || -> Result<f64, OptionError> {
        let v = need()?;
        match v.parse::<f64>() {
            Ok(x) if x.is_finite() => Ok(x),
            _ => Err(bad("is not a finite number")),
        }
    };
    let mut warning = None;
    let mut seconds = || -> Result<Duration, OptionError> {
        let x = number()?;
        if x < 0.0 {
            warning = Some(format!("option `{key}`: negative time {x} s read as 0 s"));
            return Ok(Duration::ZERO);
        }
        if x > MAX_SECONDS {
            return Err(bad(&format!("is more than {MAX_SECONDS} seconds")));
        }
        Ok(Duration::from_secs_f64(x))
    };
    let whole = |what: &str| -> Result<u64, OptionError> {
        let x = number()?;
        if x < 0.0 || x.fract() != 0.0 || x > u64::MAX as f64 {
            return Err(bad(&format!("is not a whole number {what}")));
        }
        Ok(x as u64)
    };
    use AeiOption as O;
    let option = match key.as_str() {
        "tcmove" => O::TcMove(seconds()?),
        "tcreserve" => O::TcReserve(seconds()?),
        "tcpercent" => {
            let x = number()?;
            if !(0.0..=MAX_PERCENT).contains(&x) {
                return Err(bad(&format!("is not a percentage from 0 to {MAX_PERCENT}")));
            }
            O::TcPercent(x.round() as u32)
        }
        "tcmax" => O::TcMax(seconds()?),
        "tctotal" => O::TcTotal(seconds()?),
        "tcturns" => O::TcTurns(whole("of turns")?.min(u32::MAX as u64) as u32),
        "tcturntime" => O::TcTurnTime(seconds()?),
        "greserve" | "wreserve" => O::Reserve(Color::Gold, seconds()?),
        "sreserve" | "breserve" => O::Reserve(Color::Silver, seconds()?),
        "gused" | "wused" => O::Used(Color::Gold, seconds()?),
        "sused" | "bused" => O::Used(Color::Silver, seconds()?),
        "lastmoveused" | "tclastmoveused" => O::LastMoveUsed(seconds()?),
        "moveused" | "tcmoveused" => O::MoveUsed(seconds()?),
        "opponent" => O::Opponent(raw.unwrap_or("").to_string()),
        "event" => O::Event(raw.unwrap_or("").to_string()),
        "opponent_rating" => O::OpponentRating(number()?),
        "rating" => O::Rating(number()?),
        "rated" => O::Rated(parse_bool(need()?).ok_or_else(|| bad("is not 1/0 or true/false"))?),
        "seed" => match need()? {
            v if v.eq_ignore_ascii_case("none") || v.eq_ignore_ascii_case("random") => {
                O::Seed(None)
            }
            v => O::Seed(Some(v.parse::<u64>().map_err(|_| {
                bad("is not a seed (a whole number from 0 to 2^64-1, or `none`)")
            })?)),
        },
        #[cfg(debug_assertions)]
        "debug_panic" => O::DebugPanic,
        k if EngineConfig::accepts(k) => {
            let mut v = need()?;
            // The AEI spec: a depth of 0 or less means none. Only whole
            // numbers: `-inf` or `-2.5` are refused as any bad depth is.
            if k == "depth"
                && v.trim()
                    .parse::<f64>()
                    .is_ok_and(|x| x.is_finite() && x.fract() == 0.0 && x < 0.0)
            {
                v = "0";
            }
            EngineConfig::default().set(k, v).map_err(|e| match e {
                SettingError::BadValue { reason, .. } => bad(&reason),
                other => bad(&other.to_string()),
            })?;
            O::Setting(k.to_string(), v.to_string())
        }
        _ => {
            return Err(OptionError::Unknown {
                name: name.trim().to_string(),
            });
        }
    };
    Ok(Parsed { option, warning })
}

fn parse_bool(v: &str) -> Option<bool> {
    match v.to_ascii_lowercase().as_str() {
        "true" | "yes" | "on" => Some(true),
        "false" | "no" | "off" => Some(false),
        other => other
            .parse::<f64>()
            .ok()
            .filter(|x| x.is_finite())
            .map(|x| x != 0.0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn get(name: &str, value: &str) -> AeiOption {
        parse_option(name, Some(value))
            .unwrap_or_else(|e| panic!("{name}={value}: {e}"))
            .option
    }

    #[test]
    fn time_options_take_fractional_seconds() {
        assert_eq!(
            get("tcmove", "15"),
            AeiOption::TcMove(Duration::from_secs(15))
        );
        assert_eq!(
            get("tcmove", "7.5"),
            AeiOption::TcMove(Duration::from_millis(7500))
        );
        assert_eq!(
            get("TCReserve", " 90 "),
            AeiOption::TcReserve(Duration::from_secs(90))
        );
        assert_eq!(get("tcpercent", "100"), AeiOption::TcPercent(100));
        assert_eq!(get("tcpercent", "33.4"), AeiOption::TcPercent(33));
        assert_eq!(get("tcturns", "80"), AeiOption::TcTurns(80));
        assert_eq!(
            get("tctotal", "7200"),
            AeiOption::TcTotal(Duration::from_secs(7200))
        );
        assert_eq!(
            get("tcturntime", "0"),
            AeiOption::TcTurnTime(Duration::ZERO)
        );
        assert_eq!(
            get("tcmax", "120"),
            AeiOption::TcMax(Duration::from_secs(120))
        );
    }

    #[test]
    fn clock_state_options_and_old_names() {
        let s = Duration::from_secs;
        assert_eq!(
            get("greserve", "89"),
            AeiOption::Reserve(Color::Gold, s(89))
        );
        assert_eq!(
            get("wreserve", "89"),
            AeiOption::Reserve(Color::Gold, s(89))
        );
        assert_eq!(
            get("sreserve", "92"),
            AeiOption::Reserve(Color::Silver, s(92))
        );
        assert_eq!(
            get("breserve", "92"),
            AeiOption::Reserve(Color::Silver, s(92))
        );
        assert_eq!(get("gused", "3"), AeiOption::Used(Color::Gold, s(3)));
        assert_eq!(get("wused", "3"), AeiOption::Used(Color::Gold, s(3)));
        assert_eq!(get("sused", "13"), AeiOption::Used(Color::Silver, s(13)));
        assert_eq!(get("bused", "13"), AeiOption::Used(Color::Silver, s(13)));
        assert_eq!(get("lastmoveused", "13"), AeiOption::LastMoveUsed(s(13)));
        assert_eq!(get("tclastmoveused", "13"), AeiOption::LastMoveUsed(s(13)));
        assert_eq!(get("moveused", "1"), AeiOption::MoveUsed(s(1)));
        assert_eq!(get("tcmoveused", "1"), AeiOption::MoveUsed(s(1)));
    }

    #[test]
    fn negative_time_reads_as_zero_with_a_warning() {
        let p = parse_option("greserve", Some("-0.4")).unwrap();
        assert_eq!(p.option, AeiOption::Reserve(Color::Gold, Duration::ZERO));
        assert!(p.warning.unwrap().contains("greserve"));
        assert!(
            parse_option("greserve", Some("4"))
                .unwrap()
                .warning
                .is_none()
        );
    }

    #[test]
    fn game_information() {
        assert_eq!(
            get("opponent", "bot_Clueless2009Blitz"),
            AeiOption::Opponent("bot_Clueless2009Blitz".into())
        );
        assert_eq!(
            get("opponent_rating", "1918"),
            AeiOption::OpponentRating(1918.0)
        );
        assert_eq!(get("rating", "1857.5"), AeiOption::Rating(1857.5));
        assert_eq!(get("rated", "1"), AeiOption::Rated(true));
        assert_eq!(get("rated", "0"), AeiOption::Rated(false));
        assert_eq!(get("rated", "False"), AeiOption::Rated(false));
        assert_eq!(get("event", "WC 2010"), AeiOption::Event("WC 2010".into()));
        assert_eq!(
            parse_option("event", None).unwrap().option,
            AeiOption::Event(String::new())
        );
    }

    #[test]
    fn engine_options() {
        let setting = |n: &str, v: &str| AeiOption::Setting(n.into(), v.into());
        assert_eq!(get("hash", "500"), setting("hash", "500"));
        assert_eq!(get("depth", "6"), setting("depth", "6"));
        assert_eq!(get("depth", "0"), setting("depth", "0"));
        assert_eq!(get("depth", "-3"), setting("depth", "0"));
        assert_eq!(get("depth", "-3.0"), setting("depth", "0"));
        assert_eq!(get("seed", "42"), AeiOption::Seed(Some(42)));
        assert_eq!(get("seed", "none"), AeiOption::Seed(None));
        assert_eq!(get("threads", "2"), setting("threads", "2"));
        assert_eq!(get("Aspiration", "4"), setting("aspiration", "4"));
        assert_eq!(get("eval_tempo", "-2"), setting("eval_tempo", "-2"));
        // Every setting of the configuration is an option, by the same name.
        use crate::eval::Weights;
        use crate::search::{EngineOptions, Params};
        use crate::settings::Table;
        use crate::timeman::TimeSettings;
        let names = (0..EngineOptions::len())
            .filter_map(EngineOptions::name)
            .chain((0..TimeSettings::len()).filter_map(TimeSettings::name))
            .chain((0..Params::len()).filter_map(Params::name))
            .chain((0..Weights::len()).filter_map(|i| Some(format!("eval_{}", Weights::name(i)?))));
        let mut n = 0;
        for name in names {
            assert_eq!(get(&name, "1"), setting(&name, "1"));
            n += 1;
        }
        assert!(n > 30, "{n} settings");
    }

    #[test]
    fn bad_values_name_the_option_and_value() {
        for (name, value) in [
            ("tcmove", "fast"),
            ("tcmove", "NaN"),
            ("tcmove", "inf"),
            ("tcturns", "2.5"),
            ("hash", "0"),
            ("hash", "1.9"),
            ("hash", "99999999999"),
            ("threads", "0"),
            ("threads", "257"),
            ("depth", "121"),
            ("depth", "-inf"),
            ("depth", "-2.5"),
            ("eval_tempo", "x"),
            ("seed", "-1"),
            ("rated", "maybe"),
            ("tcpercent", "-5"),
            ("tcpercent", "20000"),
            ("tcmove", "1e10"),
            ("aspiration", "many"),
            ("pvs", "2"),
        ] {
            let e = parse_option(name, Some(value)).expect_err(value);
            assert!(!e.is_warning());
            let text = e.to_string();
            assert!(text.contains(name) && text.contains(value), "{text}");
        }
        let e = parse_option("tcmove", None).unwrap_err();
        assert_eq!(
            e,
            OptionError::MissingValue {
                name: "tcmove".into()
            }
        );
    }

    #[test]
    fn unknown_option_is_a_warning() {
        let e = parse_option("Colour", Some("blue")).unwrap_err();
        assert!(e.is_warning());
        assert!(e.to_string().contains("`Colour`"));
    }
}
