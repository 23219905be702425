//! Everything that configures the engine, in one value handed to the
//! [`Searcher`](super::Searcher) whole: the engine options (table size,
//! threads, depth limit), the time settings (`timeman`'s table), the
//! search parameters and the evaluation weights. Each part is a settings
//! table (`crate::settings`), so the AEI session, the CLI's
//! `--hash`/`--threads`/`--depth`/`--params` and `aamir params` all read
//! the same names, defaults and ranges.

use super::params::Params;
use crate::eval::Weights;
use crate::eval::nnue::Network;
use crate::settings::{SettingError, Table, apply, listing, table};
use crate::timeman::TimeSettings;
use std::sync::Arc;

/// Deepest search, in steps: the depth option's limit and the search's
/// when nothing else limits it.
pub const MAX_DEPTH: u32 = 120;

table! {
    /// Engine options (AEI `setoption` names, CLI flags of the same name).
    pub struct EngineOptions {
        /// Transposition table size in MB (halved until the system grants
        /// it).
        hash: usize = 64, 1..=(1 << 20);
        /// Search threads (lazy SMP, sharing the table).
        threads: usize = 1, 1..=256;
        /// Fixed search depth in steps (0 = none; AEI also reads a negative
        /// depth as none).
        depth: u32 = 0, 0..=MAX_DEPTH;
        /// Static evaluation: 0 = the hand-weighted terms, 1 = the learned
        /// network (the one built in, or `evalfile`'s).
        evalnet: u32 = 0, 0..=1;
    }
}

impl EngineConfig {
    /// The evaluator this configuration asks for.
    pub fn evaluator(&self) -> crate::eval::Evaluator {
        let net = (self.engine.evalnet == 1).then(|| {
            self.net_file
                .as_ref()
                .map_or_else(Network::embedded, |f| f.net.clone())
        });
        crate::eval::Evaluator {
            w: self.eval.clone(),
            net,
        }
    }
}

impl EngineOptions {
    /// The depth limit, `None` when unset.
    pub fn depth_limit(&self) -> Option<u32> {
        (self.depth > 0).then_some(self.depth)
    }
}

/// Prefix of the evaluation weights' names among all settings.
pub const EVAL_PREFIX: &str = "eval_";

/// The whole configuration of a searcher.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct EngineConfig {
    pub engine: EngineOptions,
    pub time: TimeSettings,
    pub search: Params,
    pub eval: Weights,
    /// The net `evalfile` loaded (`None`: the one built in).
    pub net_file: Option<NetFile>,
}

/// A net file loaded by the `evalfile` setting.
#[derive(Clone, Debug, PartialEq)]
pub struct NetFile {
    pub path: String,
    pub net: Arc<Network>,
}

/// The setting that loads a net file (an empty value or `builtin` goes
/// back to the net built in).
pub const EVALFILE: &str = "evalfile";

impl EngineConfig {
    /// Sets any setting by name: an engine option, a time setting, a
    /// search parameter, or an evaluation weight as `eval_<name>`.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), SettingError> {
        if name == EVALFILE {
            let v = value.trim();
            if v.is_empty() || v == "builtin" {
                self.net_file = None;
                return Ok(());
            }
            // A file that does not load leaves the net in use as it was.
            let net = crate::eval::nnue::file::load(v).map_err(|e| SettingError::BadValue {
                name: name.to_string(),
                value: value.to_string(),
                reason: format!("is not a usable net file: {e:#}"),
            })?;
            self.net_file = Some(NetFile {
                path: v.to_string(),
                net: Arc::new(net),
            });
            return Ok(());
        }
        if let Some(w) = name.strip_prefix(EVAL_PREFIX) {
            return self.eval.set_named(w, value).map_err(|e| prefixed(e, name));
        }
        if EngineOptions::index_of(name).is_some() {
            return self.engine.set_named(name, value);
        }
        if TimeSettings::index_of(name).is_some() {
            return self.time.set_named(name, value);
        }
        self.search.set_named(name, value)
    }

    /// Whether `name` is a setting [`EngineConfig::set`] knows.
    pub fn accepts(name: &str) -> bool {
        match name.strip_prefix(EVAL_PREFIX) {
            Some(w) => Weights::index_of(w).is_some(),
            None => {
                name == EVALFILE
                    || EngineOptions::index_of(name).is_some()
                    || TimeSettings::index_of(name).is_some()
                    || Params::index_of(name).is_some()
            }
        }
    }

    /// Applies `name=value,name=value` (the CLI's `--params`).
    pub fn apply(&mut self, spec: &str) -> Result<(), SettingError> {
        apply(spec, |n, v| self.set(n, v))
    }

    /// The defaults with `spec` applied.
    pub fn from_spec(spec: &str) -> Result<EngineConfig, SettingError> {
        let mut c = EngineConfig::default();
        c.apply(spec)?;
        Ok(c)
    }

    /// Every setting as (group title, rows of name, default, range, doc):
    /// what `aamir params` prints.
    pub fn listing() -> Vec<(&'static str, Vec<[String; 4]>)> {
        vec![
            // The time settings are timeman's table, listed with the
            // engine options they were before it had one.
            (
                "engine options",
                [listing::<EngineOptions>(""), listing::<TimeSettings>("")].concat(),
            ),
            ("search parameters", listing::<Params>("")),
            ("evaluation weights", listing::<Weights>(EVAL_PREFIX)),
        ]
    }
}

/// A weight's error named as the caller named it (with its prefix).
fn prefixed(e: SettingError, full: &str) -> SettingError {
    match e {
        SettingError::Unknown(_) => SettingError::Unknown(full.to_string()),
        SettingError::BadValue { value, reason, .. } => SettingError::BadValue {
            name: full.to_string(),
            value,
            reason,
        },
        other => other,
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_bad_evalfile_is_refused_by_name_and_changes_nothing() {
        let mut c = EngineConfig::from_spec("evalnet=1").unwrap();
        let before = c.clone();
        let e = c
            .set(EVALFILE, "/no/such/dir/net.nnue")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("/no/such/dir/net.nnue") && e.contains("net file"),
            "{e}"
        );
        assert_eq!(c, before);
        let dir = std::env::temp_dir().join(format!("aamir-evalfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let bad = dir.join("short.nnue");
        std::fs::write(&bad, b"AAMIRNET\x01\x00").unwrap();
        let e = c
            .set(EVALFILE, bad.to_str().unwrap())
            .unwrap_err()
            .to_string();
        assert!(e.contains("short.nnue") && e.contains("truncated"), "{e}");
        assert_eq!(c, before);
        // A good file loads and is the net the evaluator uses.
        let good = dir.join("good.nnue");
        std::fs::write(&good, crate::eval::nnue::EMBEDDED).unwrap();
        c.set(EVALFILE, good.to_str().unwrap()).unwrap();
        assert!(c.evaluator().net.is_some());
        c.set(EVALFILE, "builtin").unwrap();
        assert_eq!(c, before);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    use super::*;

    #[test]
    fn time_options_default_to_the_time_managers_own_and_override_it() {
        let base = crate::timeman::TimeParams::default();
        assert_eq!(TimeSettings::default().params(), base);
        let mut c = EngineConfig::default();
        c.apply("time_horizon=40,time_hard_div=8").unwrap();
        let p = c.time.params();
        assert_eq!(p.horizon, 40);
        assert_eq!(p.reserve_hard_share, 1.0 / 8.0);
        assert_eq!(p.move_share, base.move_share);
        assert_eq!(p.unstable_extend, base.unstable_extend);
        c.apply("time_move_pct=60,time_extend_pct=150").unwrap();
        let p = c.time.params();
        assert_eq!(p.move_share, 0.6);
        assert_eq!((p.unstable_extend, p.fall_extend), (1.5, 1.5));
        assert!(c.set("time_horizon", "0").is_err());
        assert!(c.set("time_move_pct", "0").is_err());
        assert!(c.set("time_move_pct", "101").is_err());
    }

    #[test]
    fn every_name_is_unique_and_settable_through_the_config() {
        let mut names: Vec<String> = (0..EngineOptions::len())
            .filter_map(EngineOptions::name)
            .chain((0..TimeSettings::len()).filter_map(TimeSettings::name))
            .chain((0..Params::len()).filter_map(Params::name))
            .chain(
                (0..Weights::len())
                    .filter_map(|i| Some(format!("{EVAL_PREFIX}{}", Weights::name(i)?))),
            )
            .collect();
        let n = names.len();
        for name in &names {
            assert!(EngineConfig::accepts(name), "{name}");
            let mut c = EngineConfig::default();
            c.set(name, "1").unwrap();
        }
        names.sort();
        names.dedup();
        assert_eq!(names.len(), n, "a name is used twice");
    }

    #[test]
    fn one_spec_sets_all_three_parts_and_errors_name_the_setting() {
        let c = EngineConfig::from_spec("hash=8,threads=2,depth=6,pvs=0,eval_tempo=5").unwrap();
        assert_eq!((c.engine.hash, c.engine.threads), (8, 2));
        assert_eq!(c.engine.depth_limit(), Some(6));
        assert!(!c.search.pvs);
        assert_eq!(c.eval.tempo, 5);
        assert_eq!(EngineConfig::default().engine.depth_limit(), None);
        for (spec, named) in [
            ("hash=0", "`hash`"),
            ("threads=257", "`threads`"),
            ("depth=121", "`depth`"),
            ("eval_tempo=x", "`eval_tempo`"),
            ("eval_nope=1", "`eval_nope`"),
            ("nope=1", "`nope`"),
        ] {
            let e = EngineConfig::from_spec(spec).unwrap_err().to_string();
            assert!(e.contains(named), "{spec}: {e}");
        }
        assert!(!EngineConfig::accepts("eval_hash"));
        assert!(!EngineConfig::accepts("tcmove"));
    }
}
