//! Arimaa time controls: the arimaa.com string form
//! `move/reserve/percent/max/total/turntime` and the clock arithmetic the
//! controllers enforce. Shared by the engine's time manager and the match
//! runner so that both count time the same way. All arithmetic is on
//! `Duration` with saturating operations: no underflow, no negative time.

use std::fmt;
use std::time::Duration;
use thiserror::Error;

/// A time control. A zero `Duration` in `max_reserve`, `total` and
/// `turn_time` means "no limit", as in AEI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    /// Time per move (`tcmove`).
    pub per_move: Duration,
    /// Starting reserve (`tcreserve`).
    pub reserve: Duration,
    /// Share of unused move time added to the reserve (`tcpercent`).
    pub percent: u32,
    /// Reserve cap (`tcmax`), zero for none.
    pub max_reserve: Duration,
    /// Game time limit (`tctotal`), zero for none.
    pub total: Duration,
    /// Turn limit (`tcturns`), zero for none.
    pub turns: u32,
    /// Longest single turn (`tcturntime`), zero for none.
    pub turn_time: Duration,
}

#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum TimeControlError {
    #[error("time control `{0}`: needs at least `move/reserve`")]
    TooFewFields(String),
    #[error(
        "time control `{tc}`: field `{field}` is not a time like 30s, 2m30s, 1:30 or 2 (minutes)"
    )]
    BadField { tc: String, field: String },
    #[error("time control `{tc}`: percent `{field}` is not a whole number")]
    BadPercent { tc: String, field: String },
    #[error("time control `{0}`: more than six fields")]
    TooManyFields(String),
}

/// Parses one time field. A bare number counts in `unit` seconds (minutes
/// for most fields, hours for the game total); `1h2m3s` and `1:30` forms are
/// accepted as arimaa.com writes them.
fn parse_field(field: &str, unit: u64) -> Option<Duration> {
    let f = field.trim();
    if f.is_empty() {
        return Some(Duration::ZERO);
    }
    if f.contains(':') {
        // h:m:s, m:s or :s, most significant part first, anchored at `unit`.
        let parts: Vec<&str> = f.split(':').collect();
        let units: &[u64] = match unit {
            3600 => &[3600, 60, 1],
            _ => &[60, 1],
        };
        if parts.len() > units.len() {
            return None;
        }
        let mut secs = 0u64;
        for (p, u) in parts.iter().zip(units) {
            let n: u64 = if p.is_empty() { 0 } else { p.parse().ok()? };
            secs = secs.checked_add(n.checked_mul(*u)?)?;
        }
        return Some(Duration::from_secs(secs));
    }
    let mut secs = 0f64;
    let mut num = String::new();
    for c in f.chars() {
        if c.is_ascii_digit() || c == '.' {
            num.push(c);
            continue;
        }
        let mult = match c {
            'd' => 86400.0,
            'h' => 3600.0,
            'm' => 60.0,
            's' => 1.0,
            _ => return None,
        };
        secs += num.parse::<f64>().ok()? * mult;
        num.clear();
    }
    if !num.is_empty() {
        secs += num.parse::<f64>().ok()? * unit as f64;
    }
    (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs))
}

fn format_field(d: Duration) -> String {
    let mut s = d.as_secs();
    let frac = d.subsec_millis();
    let mut out = String::new();
    for (tag, len) in [("d", 86400), ("h", 3600), ("m", 60)] {
        if s >= len {
            out.push_str(&format!("{}{tag}", s / len));
            s %= len;
        }
    }
    if s != 0 || frac != 0 {
        if frac != 0 {
            out.push_str(&format!("{s}.{frac:03}s"));
        } else {
            out.push_str(&format!("{s}s"));
        }
    }
    if out.is_empty() {
        out.push('0');
    }
    out
}

impl TimeControl {
    /// No limits at all.
    pub const UNLIMITED: TimeControl = TimeControl {
        per_move: Duration::ZERO,
        reserve: Duration::ZERO,
        percent: 100,
        max_reserve: Duration::ZERO,
        total: Duration::ZERO,
        turns: 0,
        turn_time: Duration::ZERO,
    };

    /// Parses `move/reserve/percent/max/total/turntime` (the last four
    /// optional; `total` may be a turn count like `80t`).
    pub fn parse(tc: &str) -> Result<TimeControl, TimeControlError> {
        let fields: Vec<&str> = tc.trim().split('/').collect();
        if fields.len() < 2 {
            return Err(TimeControlError::TooFewFields(tc.into()));
        }
        if fields.len() > 6 {
            return Err(TimeControlError::TooManyFields(tc.into()));
        }
        let bad = |f: &str| TimeControlError::BadField {
            tc: tc.into(),
            field: f.into(),
        };
        let get = |i: usize, unit: u64| -> Result<Duration, TimeControlError> {
            let f = fields.get(i).copied().unwrap_or("");
            parse_field(f, unit).ok_or_else(|| bad(f))
        };
        let mut out = TimeControl {
            per_move: get(0, 60)?,
            reserve: get(1, 60)?,
            ..TimeControl::UNLIMITED
        };
        if let Some(p) = fields.get(2).filter(|p| !p.trim().is_empty()) {
            out.percent = p.trim().parse().map_err(|_| TimeControlError::BadPercent {
                tc: tc.into(),
                field: p.to_string(),
            })?;
        }
        out.max_reserve = get(3, 60)?;
        match fields.get(4).map(|f| f.trim()) {
            Some(f) if f.ends_with('t') => {
                out.turns = f[..f.len() - 1].parse().map_err(|_| bad(f))?;
            }
            _ => out.total = get(4, 3600)?,
        }
        out.turn_time = get(5, 60)?;
        Ok(out)
    }

    /// The deadline for a turn, counted from the moment it started: the
    /// move time plus the reserve, capped by the turn-time limit and by
    /// what is left of the game total. `None` when nothing limits it.
    pub fn turn_deadline(&self, reserve: Duration, game_elapsed: Duration) -> Option<Duration> {
        let mut limit: Option<Duration> = None;
        let cap = |l: Option<Duration>, d: Duration| Some(l.map_or(d, |x| x.min(d)));
        if !self.per_move.is_zero() || !reserve.is_zero() {
            limit = Some(self.per_move.saturating_add(reserve));
        }
        if !self.turn_time.is_zero() {
            limit = cap(limit, self.turn_time);
        }
        if !self.total.is_zero() {
            limit = cap(limit, self.total.saturating_sub(game_elapsed));
        }
        limit
    }

    /// The reserve after a turn that took `used`: it shrinks by what went
    /// past the move time, grows by `percent` of what was left unused, and
    /// is capped at `max_reserve`.
    pub fn reserve_after(&self, reserve: Duration, used: Duration) -> Duration {
        let r = if used >= self.per_move {
            reserve.saturating_sub(used - self.per_move)
        } else {
            let gain = (self.per_move - used).mul_f64(self.percent as f64 / 100.0);
            reserve.saturating_add(gain)
        };
        if self.max_reserve.is_zero() {
            r
        } else {
            r.min(self.max_reserve)
        }
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let total = if self.turns > 0 {
            format!("{}t", self.turns)
        } else {
            format_field(self.total)
        };
        let mut parts = vec![
            format_field(self.per_move),
            format_field(self.reserve),
            self.percent.to_string(),
            format_field(self.max_reserve),
            total,
            format_field(self.turn_time),
        ];
        // Drop trailing fields at their defaults, as arimaa.com does.
        let defaults = ["", "", "100", "0", "0", "0"];
        while parts.len() > 2 && parts.last().map(String::as_str) == Some(defaults[parts.len() - 1])
        {
            parts.pop();
        }
        write!(f, "{}", parts.join("/"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn secs(s: u64) -> Duration {
        Duration::from_secs(s)
    }

    #[test]
    fn parses_arimaa_com_forms() {
        let tc = TimeControl::parse("15s/2m30s/100").unwrap();
        assert_eq!(tc.per_move, secs(15));
        assert_eq!(tc.reserve, secs(150));
        assert_eq!(tc.percent, 100);
        let tc = TimeControl::parse("2/2/100/10/8").unwrap();
        assert_eq!(tc.per_move, secs(120));
        assert_eq!(tc.max_reserve, secs(600));
        assert_eq!(tc.total, secs(8 * 3600));
        let tc = TimeControl::parse("8s/0/0").unwrap();
        assert_eq!((tc.per_move, tc.reserve, tc.percent), (secs(8), secs(0), 0));
        let tc = TimeControl::parse("2s/30s/100/60s/10m").unwrap();
        assert_eq!(tc.total, secs(600));
        let tc = TimeControl::parse("1:30/5/100/0/80t/2m").unwrap();
        assert_eq!(tc.per_move, secs(90));
        assert_eq!(tc.turns, 80);
        assert_eq!(tc.turn_time, secs(120));
    }

    #[test]
    fn rejects_bad_fields() {
        assert!(matches!(
            TimeControl::parse("15s"),
            Err(TimeControlError::TooFewFields(_))
        ));
        assert!(matches!(
            TimeControl::parse("15q/1m"),
            Err(TimeControlError::BadField { .. })
        ));
        assert!(matches!(
            TimeControl::parse("15s/1m/x"),
            Err(TimeControlError::BadPercent { .. })
        ));
    }

    #[test]
    fn round_trips_through_display() {
        for s in [
            "15s/2m30s",
            "2m/2m/100/10m/8h",
            "8s/0/0",
            "2s/30s/100/1m/10m",
            "1m30s/5m/100/0/80t/2m",
        ] {
            let tc = TimeControl::parse(s).unwrap();
            assert_eq!(
                TimeControl::parse(&tc.to_string()).unwrap(),
                tc,
                "{s} -> {tc}"
            );
        }
    }

    #[test]
    fn deadline_caps() {
        let tc = TimeControl::parse("15s/2m/100/0/0/30s").unwrap();
        assert_eq!(tc.turn_deadline(secs(120), secs(0)), Some(secs(30)));
        let tc = TimeControl::parse("15s/2m/100/0/10m").unwrap();
        assert_eq!(tc.turn_deadline(secs(120), secs(590)), Some(secs(10)));
        assert_eq!(tc.turn_deadline(secs(120), secs(900)), Some(secs(0)));
        assert_eq!(TimeControl::UNLIMITED.turn_deadline(secs(0), secs(5)), None);
    }

    #[test]
    fn reserve_update() {
        let tc = TimeControl::parse("10s/1m/50/70s").unwrap();
        // 4 s unused, half of it kept.
        assert_eq!(tc.reserve_after(secs(60), secs(6)), secs(62));
        // Capped at the maximum.
        assert_eq!(tc.reserve_after(secs(69), secs(0)), secs(70));
        // Overrun eats the reserve, never below zero.
        assert_eq!(tc.reserve_after(secs(60), secs(25)), secs(45));
        assert_eq!(tc.reserve_after(secs(3), secs(25)), secs(0));
    }
}
