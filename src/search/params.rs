//! Search parameters: every selective technique can be switched off or
//! tuned here, so each one's effect can be measured (bench node counts,
//! self-play matches) and so AEI options can set them.

use std::fmt;

/// All tunable search settings in one place.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// Principal variation search (null windows after the first child).
    pub pvs: bool,
    /// Killer actions kept per ply (0 = none).
    pub killers: usize,
    /// History heuristic by first step.
    pub history: bool,
    /// Null move at turn starts: skip a whole turn, searched this many
    /// steps shallower than a real turn would be (0 = off).
    pub null_reduction: i32,
    /// Late-move reductions inside a turn (steps; 0 = off).
    pub lmr: i32,
    /// Actions searched at full depth before reductions start.
    pub lmr_after: usize,
    /// Late root turns searched this many steps shallower first (0 = off).
    pub root_lmr: i32,
    /// Root turns searched at full depth before root reductions start.
    pub root_lmr_after: usize,
    /// Aspiration window half-width at the root in centi-rabbits (0 = off).
    pub aspiration: i32,
    /// Static goal detection at turn starts.
    pub goal_detection: bool,
    /// Extend the search by a turn when the opponent threatens goal at a
    /// leaf (at most this many times on one path; 0 = off).
    pub goal_extensions: u32,
    /// At turn-start leaves below beta, add this percentage of the best
    /// capture the side to move has this turn (0 = off).
    pub capture_share: i32,
    /// Order first actions of captures (from the capture detector) right
    /// after the hash move at nodes with at least this many steps of depth
    /// left (0 = off).
    pub capture_order: i32,
    /// Evaluation weights, settable as `eval_<name>` (see `eval::Weights`).
    pub weights: crate::eval::Weights,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            pvs: true,
            killers: 0,
            history: true,
            null_reduction: 0,
            lmr: 0,
            lmr_after: 4,
            root_lmr: 0,
            root_lmr_after: 8,
            aspiration: 40,
            goal_detection: true,
            goal_extensions: 1,
            capture_share: 0,
            capture_order: 4,
            weights: crate::eval::Weights::default(),
        }
    }
}

impl Params {
    /// The plain baseline: alpha-beta with a table and nothing selective.
    pub fn baseline() -> Params {
        Params {
            pvs: false,
            killers: 0,
            history: false,
            null_reduction: 0,
            lmr: 0,
            lmr_after: 4,
            root_lmr: 0,
            root_lmr_after: 8,
            aspiration: 0,
            goal_detection: false,
            goal_extensions: 0,
            capture_share: 0,
            capture_order: 0,
            weights: crate::eval::Weights::default(),
        }
    }

    /// Names accepted by [`Params::set`].
    pub const NAMES: &'static [&'static str] = &[
        "pvs",
        "killers",
        "history",
        "null_reduction",
        "lmr",
        "lmr_after",
        "root_lmr",
        "root_lmr_after",
        "aspiration",
        "goal_detection",
        "goal_extensions",
        "capture_share",
        "capture_order",
    ];

    /// Whether `name` is a parameter [`Params::set`] knows.
    pub fn accepts(name: &str) -> bool {
        Self::NAMES.contains(&name)
            || name
                .strip_prefix("eval_")
                .is_some_and(|w| crate::eval::Weights::NAMES.contains(&w))
    }

    /// Sets one parameter from text; numbers for numeric ones, `0`/`1`,
    /// `true`/`false` for switches.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), String> {
        let v = value.trim();
        let flag = || match v {
            "1" | "true" | "on" | "yes" => Ok(true),
            "0" | "false" | "off" | "no" => Ok(false),
            _ => Err("is not a switch value (0/1, true/false)".to_string()),
        };
        let int = || {
            v.parse::<f64>()
                .ok()
                .filter(|x| x.is_finite() && *x >= 0.0 && x.fract() == 0.0 && *x <= 1e6)
                .map(|x| x as i64)
                .ok_or_else(|| "is not a whole number from 0".to_string())
        };
        match name {
            "pvs" => self.pvs = flag()?,
            "killers" => self.killers = (int()? as usize).min(8),
            "history" => self.history = flag()?,
            "null_reduction" => self.null_reduction = int()?.min(8) as i32,
            "lmr" => self.lmr = int()?.min(4) as i32,
            "lmr_after" => self.lmr_after = int()? as usize,
            "root_lmr" => self.root_lmr = int()?.min(8) as i32,
            "root_lmr_after" => self.root_lmr_after = int()? as usize,
            "aspiration" => self.aspiration = int()?.min(10_000) as i32,
            "goal_detection" => self.goal_detection = flag()?,
            "goal_extensions" => self.goal_extensions = int()?.min(8) as u32,
            "capture_share" => self.capture_share = int()?.min(100) as i32,
            "capture_order" => self.capture_order = int()?.min(100) as i32,
            n if n.starts_with("eval_") => self.weights.set(&n[5..], v)?,
            _ => return Err(format!("unknown search parameter `{name}`")),
        }
        Ok(())
    }

    /// Applies `name=value,name=value`.
    pub fn apply(&mut self, spec: &str) -> Result<(), String> {
        for part in spec.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (n, v) = part
                .split_once('=')
                .ok_or_else(|| format!("`{part}` is not name=value"))?;
            self.set(n.trim(), v)
                .map_err(|e| format!("`{}={}`: {e}", n.trim(), v.trim()))?;
        }
        Ok(())
    }
}

impl fmt::Display for Params {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "pvs={},killers={},history={},null_reduction={},lmr={},lmr_after={},root_lmr={},root_lmr_after={},aspiration={},goal_detection={},goal_extensions={},capture_share={},capture_order={}",
            self.pvs as u8,
            self.killers,
            self.history as u8,
            self.null_reduction,
            self.lmr,
            self.lmr_after,
            self.root_lmr,
            self.root_lmr_after,
            self.aspiration,
            self.goal_detection as u8,
            self.goal_extensions,
            self.capture_share,
            self.capture_order
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rejects() {
        let mut p = Params::baseline();
        p.apply("killers=4, lmr=1,goal_detection=1").unwrap();
        assert_eq!(p.killers, 4);
        assert_eq!(p.lmr, 1);
        assert!(p.goal_detection);
        let mut q = Params::default();
        q.apply(&p.to_string()).unwrap();
        assert_eq!(p, q);
        assert!(p.set("killers", "-1").is_err());
        assert!(p.set("pvs", "maybe").is_err());
        assert!(p.set("nope", "1").is_err());
        assert!(p.apply("killers").is_err());
    }
}
