//! `report.html`: a match summary to look at, written next to
//! `summary.json` from the same figures. One self-contained file (inline
//! CSS and SVG drawn here, no script, no network) so it can be mailed,
//! archived or opened offline: score and Elo with its 95% interval after
//! each game, the SPRT log-likelihood ratio against its bounds, game
//! lengths, terminations per engine, time used per move against the time
//! the clock allowed, and each game's final position with its record.
//!
//! Plain SVG rather than a charting crate: the charts are a handful of
//! lines, bands and bars, and drawing them here keeps the file free of
//! JavaScript and the build free of a plotting stack.
//!
//! The headline figures carry `data-figure` attributes (`p0.score`,
//! `p0.elo`, `p0.elo_low`, `p0.elo_high`, `p0.wins`, `p0.losses`, and per
//! engine `e0.material_lost`, `e0.material_taken`, `e0.rabbits_lost`,
//! `e0.rabbits_taken`, and per paired
//! comparison `q0.pairs`, `q0.first_only`, `q0.second_only`, `q0.elo`,
//! `q0.z`, `q0.llr`) so tests and scripts can read them back.

use super::result::{MatchGame, Side, Termination};
use super::stats::PairCounts;
use super::stats::{estimate, fmt_elo};
use super::summary::{EngineNote, Summary, pair_outcomes};
use crate::board::notation::board_string;
use crate::timeman::TimeControl;
use std::fmt::Write as _;
use std::time::Duration;

/// Elo beyond this is drawn at the chart's edge (an unbounded interval end,
/// or a 100% score, has no place on a finite axis).
const ELO_CLIP: f64 = 800.0;

const GOLD: &str = "#c8960c";
const SILVER: &str = "#6f7c91";
const ACCENT: &str = "#2b6cb0";
const BAND: &str = "#bcd4ee";

/// The paired comparisons: a table of every row, then for each pair of
/// candidates a chart of the difference as the pairs came in, over every
/// reference together.
fn paired_html(h: &mut String, s: &Summary) {
    if s.paired.is_empty() {
        return;
    }
    h.push_str(
        "<h2>Paired comparison</h2>\n<p>Candidates set side by side on the games they played against the same reference on the same opening with the same colours. The Elo difference comes from the pairs one won and the other lost (the others say nothing about it); z is McNemar's.</p>\n<table><tr><th>first</th><th>second</th><th>against</th><th>pairs</th><th>both won</th><th>only first</th><th>only second</th><th>both lost</th><th>scores</th><th>difference a pair</th><th>Elo difference [95%]</th><th>z</th><th>p</th><th>LOS</th><th>SPRT</th></tr>\n",
    );
    let pct = |x: Option<f64>| x.map_or("?".into(), |v| format!("{:.1}%", 100.0 * v));
    let sign = |x: Option<f64>| x.map_or("?".into(), |v| format!("{v:+.3}"));
    for (k, p) in s.paired.iter().enumerate() {
        let c = p.counts;
        let sprt = p.sprt.map_or(String::new(), |t| {
            format!(
                "LLR <span data-figure=\"q{k}.llr\">{:.3}</span> [{:.2}, {:.2}] {}",
                t.llr,
                t.lower,
                t.upper,
                t.decision.text()
            )
        });
        let _ = writeln!(
            h,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td data-figure=\"q{k}.pairs\">{}</td><td>{}</td><td data-figure=\"q{k}.first_only\">{}</td><td data-figure=\"q{k}.second_only\">{}</td><td>{}</td><td>{} / {}</td><td>{} [{}, {}]</td><td data-figure=\"q{k}.elo\">{}</td><td data-figure=\"q{k}.z\">{:.2}</td><td>{:.3}</td><td>{:.1}%</td><td>{sprt}</td></tr>",
            esc(&p.first),
            esc(&p.second),
            esc(&p.reference),
            p.pairs,
            c.both_won,
            c.first_only,
            c.second_only,
            c.both_lost,
            pct(p.first_score),
            pct(p.second_score),
            sign(p.score_diff),
            sign(p.score_diff_low),
            sign(p.score_diff_high),
            esc(&p.elo_text),
            p.z,
            p.p_value,
            100.0 * p.los
        );
    }
    h.push_str("</table>\n<div class=\"charts\">");
    let cands = s.config.candidates();
    for i in cands.clone() {
        for j in cands.clone().filter(|&j| j > i) {
            let mut outcomes = Vec::new();
            for r in 0..s.config.references as usize {
                outcomes.extend(pair_outcomes(&s.config, &s.games, r, i, j));
            }
            outcomes.sort_by_key(|o| o.0);
            let (mut c, mut elo, mut band) = (PairCounts::default(), Vec::new(), Vec::new());
            for (n, &(_, x, y)) in outcomes.iter().enumerate() {
                c.add(x, y);
                let e = c.estimate().elo;
                let at = n as f64 + 1.0;
                elo.push((at, clip_elo(e.elo)));
                band.push((at, clip_elo(e.elo_low), clip_elo(e.elo_high)));
            }
            let title = format!(
                "{} minus {}, Elo from the pairs",
                s.config.engines[i].name, s.config.engines[j].name
            );
            h.push_str(&elo_chart(
                &title,
                "pairs played",
                "Elo difference",
                elo,
                band,
            ));
        }
    }
    h.push_str("</div>\n");
}

/// An Elo estimate as it came in, with its 95% band and the zero line.
fn elo_chart(
    title: &str,
    x_label: &str,
    label: &str,
    points: Vec<(f64, f64)>,
    band: Vec<(f64, f64, f64)>,
) -> String {
    let mut c = Chart::new(title, x_label, "Elo (clipped at \u{b1}800)");
    c.band = band;
    c.band_label = "95% interval";
    c.hlines.push((0.0, "0".into(), "#9aa3ad"));
    c.series.push(Series {
        label,
        colour: ACCENT,
        points,
        dashed: false,
    });
    c.svg()
}

/// Escapes text for HTML and SVG.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// A line of points on a chart.
struct Series<'a> {
    label: &'a str,
    colour: &'a str,
    points: Vec<(f64, f64)>,
    dashed: bool,
}

/// A chart: lines, an optional shaded band (low, high per x), horizontal
/// reference lines and an optional set of bars.
struct Chart<'a> {
    title: &'a str,
    x_label: &'a str,
    y_label: &'a str,
    width: f64,
    height: f64,
    series: Vec<Series<'a>>,
    band: Vec<(f64, f64, f64)>,
    band_label: &'a str,
    hlines: Vec<(f64, String, &'a str)>,
    /// (x, height, colour, tooltip)
    bars: Vec<(f64, f64, &'a str, String)>,
    y_min: Option<f64>,
    y_max: Option<f64>,
}

impl<'a> Chart<'a> {
    fn new(title: &'a str, x_label: &'a str, y_label: &'a str) -> Chart<'a> {
        Chart {
            title,
            x_label,
            y_label,
            width: 560.0,
            height: 260.0,
            series: Vec::new(),
            band: Vec::new(),
            band_label: "",
            hlines: Vec::new(),
            bars: Vec::new(),
            y_min: None,
            y_max: None,
        }
    }

    fn svg(&self) -> String {
        let (l, r, t, b) = (58.0, 16.0, 42.0, 44.0);
        let (w, h) = (self.width - l - r, self.height - t - b);
        let xs = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.0))
            .chain(self.band.iter().map(|p| p.0))
            .chain(self.bars.iter().map(|p| p.0));
        let (mut x0, mut x1) = bounds(xs);
        if !self.bars.is_empty() {
            x0 -= 0.5;
            x1 += 0.5;
        }
        if x1 <= x0 {
            x1 = x0 + 1.0;
        }
        let ys = self
            .series
            .iter()
            .flat_map(|s| s.points.iter().map(|p| p.1))
            .chain(self.band.iter().flat_map(|p| [p.1, p.2]))
            .chain(self.hlines.iter().map(|h| h.0))
            .chain(self.bars.iter().map(|p| p.1))
            .chain(self.bars.first().map(|_| 0.0));
        let (mut y0, mut y1) = bounds(ys);
        if let Some(v) = self.y_min {
            y0 = v;
        }
        if let Some(v) = self.y_max {
            y1 = v;
        }
        if y1 <= y0 {
            y1 = y0 + 1.0;
        }
        let ticks = nice_ticks(y0, y1, 5);
        y0 = y0.min(ticks[0]);
        y1 = y1.max(*ticks.last().unwrap_or(&y1));
        let px = |x: f64| l + (x - x0) / (x1 - x0) * w;
        let py = |y: f64| t + (1.0 - (y - y0) / (y1 - y0)) * h;
        let mut s = String::new();
        let _ = write!(
            s,
            r#"<svg class="chart" width="{W}" height="{H}" viewBox="0 0 {W} {H}" role="img" aria-label="{title}">"#,
            W = self.width,
            H = self.height,
            title = esc(self.title)
        );
        let _ = write!(
            s,
            r#"<text x="{l}" y="16" class="ct">{}</text>"#,
            esc(self.title)
        );
        for v in &ticks {
            let y = py(*v);
            let _ = write!(
                s,
                r##"<line x1="{l}" x2="{x2}" y1="{y:.1}" y2="{y:.1}" stroke="#e3e6ea"/><text x="{tx}" y="{ty:.1}" class="tk" text-anchor="end">{}</text>"##,
                tick_text(*v),
                x2 = l + w,
                tx = l - 5.0,
                ty = y + 4.0
            );
        }
        for v in nice_ticks(x0.max(0.0), x1, 8) {
            if v < x0 || v > x1 || v.fract() != 0.0 {
                continue;
            }
            let _ = write!(
                s,
                r#"<text x="{x:.1}" y="{y}" class="tk" text-anchor="middle">{}</text>"#,
                tick_text(v),
                x = px(v),
                y = t + h + 15.0
            );
        }
        let _ = write!(
            s,
            r##"<rect x="{l}" y="{t}" width="{w}" height="{h}" fill="none" stroke="#9aa3ad"/>"##
        );
        let _ = write!(
            s,
            r#"<text x="{x}" y="{y}" class="al" text-anchor="middle">{}</text>"#,
            esc(self.x_label),
            x = l + w / 2.0,
            y = self.height - 8.0
        );
        let _ = write!(
            s,
            r#"<text transform="translate(14 {y}) rotate(-90)" class="al" text-anchor="middle">{}</text>"#,
            esc(self.y_label),
            y = t + h / 2.0
        );
        if !self.band.is_empty() {
            let mut d = String::new();
            for (i, (x, _, hi)) in self.band.iter().enumerate() {
                let _ = write!(
                    d,
                    "{}{:.1},{:.1} ",
                    if i == 0 { "M" } else { "L" },
                    px(*x),
                    py(*hi)
                );
            }
            for (x, lo, _) in self.band.iter().rev() {
                let _ = write!(d, "L{:.1},{:.1} ", px(*x), py(*lo));
            }
            let _ = write!(s, r#"<path d="{d}Z" fill="{BAND}" opacity="0.8"/>"#);
        }
        for (bx, bh, colour, tip) in &self.bars {
            let bw = (w / (x1 - x0) * 0.8).clamp(1.0, 40.0);
            let top = py(bh.max(0.0));
            let _ = write!(
                s,
                r#"<rect x="{:.1}" y="{top:.1}" width="{bw:.1}" height="{:.1}" fill="{colour}"><title>{}</title></rect>"#,
                px(*bx) - bw / 2.0,
                (py(0.0) - top).max(0.5),
                esc(tip)
            );
        }
        for (v, label, colour) in &self.hlines {
            let y = py(*v);
            let _ = write!(
                s,
                r#"<line x1="{l}" x2="{x2}" y1="{y:.1}" y2="{y:.1}" stroke="{colour}" stroke-dasharray="5 4"/><text x="{tx}" y="{ty:.1}" class="tk" text-anchor="end" fill="{colour}">{}</text>"#,
                esc(label),
                x2 = l + w,
                tx = l + w - 4.0,
                ty = y - 4.0
            );
        }
        for se in &self.series {
            let pts: Vec<String> = se
                .points
                .iter()
                .map(|(x, y)| format!("{:.1},{:.1}", px(*x), py(*y)))
                .collect();
            let dash = if se.dashed {
                r#" stroke-dasharray="3 3""#
            } else {
                ""
            };
            let _ = write!(
                s,
                r#"<polyline points="{}" fill="none" stroke="{}" stroke-width="2"{dash}/>"#,
                pts.join(" "),
                se.colour
            );
            if se.points.len() <= 60 {
                for p in &pts {
                    let (cx, cy) = p.split_once(',').unwrap_or(("0", "0"));
                    let _ = write!(
                        s,
                        r#"<circle cx="{cx}" cy="{cy}" r="2.5" fill="{}"/>"#,
                        se.colour
                    );
                }
            }
        }
        // Legend under the title, one entry per series (and the band),
        // drawn as the line or area it names.
        // Entries that would run past the right edge go on a line of
        // their own under the title.
        let mut lx = l;
        let mut ly = 0.0;
        let entries: Vec<(&str, &str, bool, bool)> = self
            .series
            .iter()
            .map(|se| (se.label, se.colour, se.dashed, false))
            .chain((!self.band.is_empty()).then_some((self.band_label, BAND, false, true)))
            .collect();
        for (label, colour, dashed, area) in entries {
            let step = 6.2 * label.chars().count() as f64 + 32.0;
            if lx + step > self.width && lx > l {
                lx = l;
                ly += 12.0;
            }
            if area {
                let _ = write!(
                    s,
                    r#"<rect x="{lx:.1}" y="{y:.1}" width="16" height="9" fill="{colour}"/>"#,
                    y = 24.0 + ly
                );
            } else {
                let _ = write!(
                    s,
                    r#"<line x1="{lx:.1}" x2="{x2:.1}" y1="{y:.1}" y2="{y:.1}" stroke="{colour}" stroke-width="2"{}/>"#,
                    if dashed {
                        r#" stroke-dasharray="3 3""#
                    } else {
                        ""
                    },
                    x2 = lx + 16.0,
                    y = 29.0 + ly
                );
            }
            let _ = write!(
                s,
                r#"<text x="{tx:.1}" y="{ty:.1}" class="tk">{}</text>"#,
                esc(label),
                tx = lx + 20.0,
                ty = 33.0 + ly
            );
            lx += step;
        }
        s.push_str("</svg>");
        s
    }
}

fn bounds(it: impl Iterator<Item = f64>) -> (f64, f64) {
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for v in it.filter(|v| v.is_finite()) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if lo > hi { (0.0, 1.0) } else { (lo, hi) }
}

/// Round tick values covering `[lo, hi]`, about `n` of them.
fn nice_ticks(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    let span = (hi - lo).max(1e-9);
    let raw = span / n.max(1) as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 2.5, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let start = (lo / step).floor() * step;
    let mut out = Vec::new();
    let mut v = start;
    while v <= hi + step * 0.999 && out.len() < 50 {
        out.push(v);
        v += step;
    }
    out
}

fn tick_text(v: f64) -> String {
    if (v - v.round()).abs() < 1e-9 {
        format!("{}", v.round() as i64)
    } else {
        format!("{v:.2}")
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string()
    }
}

fn clip_elo(e: f64) -> f64 {
    if e.is_nan() {
        0.0
    } else {
        e.clamp(-ELO_CLIP, ELO_CLIP)
    }
}

fn termination_colour(t: Termination) -> &'static str {
    match t {
        Termination::Goal => "#2f855a",
        Termination::Elimination => "#805ad5",
        Termination::Immobilization => "#d69e2e",
        Termination::Time => "#c53030",
        Termination::Illegal => "#dd6b20",
        Termination::Crash => "#742a2a",
        Termination::Resign => "#4a5568",
        Termination::Score => "#3182ce",
    }
}

/// The final position of a game as an 8x8 diagram: rank 8 at the top,
/// gold pieces upper case on gold, silver lower case on grey, the four
/// trap squares marked.
fn board_svg(g: &MatchGame) -> String {
    let record = g.record();
    let mut walk = record.positions();
    let replayed = walk.by_ref().all(|m| m.is_ok());
    let game = walk.game();
    let cells: Vec<char> = board_string(game.position())
        .trim_matches(['[', ']'])
        .chars()
        .collect();
    let c = 30.0;
    let (ox, oy) = (18.0, 6.0);
    let mut s = String::new();
    let _ = write!(
        s,
        r#"<svg class="board" width="{W}" height="{H}" viewBox="0 0 {W} {H}" role="img" aria-label="final position of game {id}">"#,
        W = ox + 8.0 * c + 6.0,
        H = oy + 8.0 * c + 20.0,
        id = g.id
    );
    for row in 0..8 {
        for col in 0..8 {
            let (x, y) = (ox + col as f64 * c, oy + row as f64 * c);
            let rank = 8 - row;
            let trap = matches!((col, rank), (2, 3) | (5, 3) | (2, 6) | (5, 6));
            let fill = if trap {
                "#e8b4a8"
            } else if (row + col) % 2 == 0 {
                "#f4ecd8"
            } else {
                "#e6dcc3"
            };
            let _ = write!(
                s,
                r##"<rect x="{x}" y="{y}" width="{c}" height="{c}" fill="{fill}" stroke="#b9ad93" stroke-width="0.5"/>"##
            );
            if trap {
                let _ = write!(
                    s,
                    r##"<path d="M{a},{b} L{e},{f} M{e},{b} L{a},{f}" stroke="#b0413e" stroke-width="1.2" class="trap"/>"##,
                    a = x + 6.0,
                    b = y + 6.0,
                    e = x + c - 6.0,
                    f = y + c - 6.0
                );
            }
            let p = cells.get(row * 8 + col).copied().unwrap_or(' ');
            if p != ' ' {
                let (bg, fg) = if p.is_ascii_uppercase() {
                    (GOLD, "#fff")
                } else {
                    (SILVER, "#fff")
                };
                let _ = write!(
                    s,
                    r##"<circle cx="{cx}" cy="{cy}" r="12" fill="{bg}" stroke="#333" stroke-width="0.8"/><text x="{cx}" y="{ty}" class="pc" fill="{fg}" text-anchor="middle">{p}</text>"##,
                    cx = x + c / 2.0,
                    cy = y + c / 2.0,
                    ty = y + c / 2.0 + 5.0
                );
            }
        }
    }
    for i in 0..8 {
        let _ = write!(
            s,
            r#"<text x="{x}" y="{y}" class="tk" text-anchor="middle">{f}</text><text x="8" y="{ry}" class="tk" text-anchor="middle">{r}</text>"#,
            x = ox + i as f64 * c + c / 2.0,
            y = oy + 8.0 * c + 14.0,
            f = (b'a' + i as u8) as char,
            ry = oy + i as f64 * c + c / 2.0 + 4.0,
            r = 8 - i
        );
    }
    if !replayed {
        let _ = write!(
            s,
            r##"<text x="{x}" y="{y}" class="tk" fill="#c53030">record does not replay</text>"##,
            x = ox + 4.0,
            y = oy + 12.0
        );
    }
    s.push_str("</svg>");
    s
}

/// Time used by each move and the time the clock allowed for it (move
/// time plus the reserve before the move, capped by the turn time).
fn time_svg(g: &MatchGame) -> Option<String> {
    let tcs: Vec<TimeControl> = g
        .timecontrol
        .split(';')
        .filter_map(|t| TimeControl::parse(t).ok())
        .collect();
    let tc = |side: usize| tcs.get(side).or(tcs.first()).copied();
    let mut reserve = [tc(0)?.reserve, tc(1)?.reserve];
    let mut used: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    let mut allowed: [Vec<(f64, f64)>; 2] = [Vec::new(), Vec::new()];
    for (i, m) in g.moves.iter().enumerate() {
        let side = usize::from(m.label.ends_with('s'));
        let x = (i + 1) as f64;
        if let (Some(u), Some(r)) = (m.used, m.reserve) {
            let t = tc(side)?;
            let cap = t
                .turn_deadline(reserve[side], Duration::ZERO)
                .map_or(f64::NAN, |d| d.as_secs_f64());
            used[side].push((x, u));
            allowed[side].push((x, cap));
            reserve[side] = Duration::from_secs_f64(r.max(0.0));
        }
    }
    if used.iter().all(Vec::is_empty) {
        return None;
    }
    let mut c = Chart::new("time per move", "move (setups included)", "seconds");
    c.width = 480.0;
    c.height = 220.0;
    c.y_min = Some(0.0);
    let gold_label = "gold used";
    let silver_label = "silver used";
    c.series = vec![
        Series {
            label: "gold allowed",
            colour: GOLD,
            points: allowed[0].clone(),
            dashed: true,
        },
        Series {
            label: gold_label,
            colour: GOLD,
            points: used[0].clone(),
            dashed: false,
        },
        Series {
            label: "silver allowed",
            colour: SILVER,
            points: allowed[1].clone(),
            dashed: true,
        },
        Series {
            label: silver_label,
            colour: SILVER,
            points: used[1].clone(),
            dashed: false,
        },
    ];
    Some(c.svg())
}

fn pct(x: Option<f64>) -> String {
    x.map_or("?".into(), |v| format!("{:.1}%", 100.0 * v))
}

/// The whole report.
pub fn render(s: &Summary) -> String {
    let mut h = String::new();
    let title = format!("{} - match report", s.config.event);
    let _ = write!(
        h,
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{}</title>
<style>
body {{ font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; margin: 24px; color: #1f2933; max-width: 1180px; }}
h1 {{ font-size: 22px; margin: 0 0 4px; }} h2 {{ font-size: 18px; margin: 28px 0 8px; border-bottom: 1px solid #d9dee3; padding-bottom: 4px; }}
h3 {{ font-size: 15px; margin: 16px 0 6px; }}
table {{ border-collapse: collapse; margin: 6px 0 12px; }} th, td {{ border: 1px solid #d9dee3; padding: 3px 8px; text-align: left; }}
th {{ background: #f3f5f7; }} td.n {{ text-align: right; font-variant-numeric: tabular-nums; }}
.big {{ font-size: 20px; font-weight: 600; }} .muted {{ color: #66727f; }}
.charts {{ display: flex; flex-wrap: wrap; gap: 12px; }}
.games {{ display: grid; grid-template-columns: repeat(auto-fill, minmax(760px, 1fr)); gap: 14px; }}
.game {{ border: 1px solid #d9dee3; border-radius: 6px; padding: 8px 10px; }}
.game .row {{ display: flex; flex-wrap: wrap; gap: 10px; align-items: flex-start; }}
.note {{ background: #fff8e1; border-left: 4px solid #d69e2e; padding: 4px 8px; margin: 4px 0; }}
svg text {{ font-family: system-ui, sans-serif; }} .ct {{ font-size: 13px; font-weight: 600; }}
.tk {{ font-size: 11px; fill: #4a5560; }} .al {{ font-size: 12px; fill: #33404d; }} .pc {{ font-size: 14px; font-weight: 700; }}
.sw {{ display: inline-block; width: 10px; height: 10px; margin-right: 4px; }}
pre {{ white-space: pre-wrap; font-size: 12px; max-height: 240px; overflow: auto; background: #f7f8f9; padding: 6px; }}
</style></head><body>
"#,
        esc(&title)
    );
    let engines: Vec<String> = s.config.engines.iter().map(|e| esc(&e.name)).collect();
    let _ = writeln!(
        h,
        "<h1>{}</h1><p class=\"muted\">{} - time control {} - {} of {} games played ({:?}) - {:.0} s wall - engines: {}</p>",
        esc(&s.config.event),
        esc(&format!("{:?}", s.config.mode).to_lowercase()),
        esc(&s.config.tc),
        s.played,
        s.scheduled,
        s.status,
        s.wall_seconds,
        engines.join(", ")
    );
    notes_html(&mut h, &s.notes);

    for (pi, p) in s.pairings.iter().enumerate() {
        let _ = write!(
            h,
            "<h2>{} vs {}</h2>\n<p><span class=\"big\"><span data-figure=\"p{pi}.wins\">{}</span> - <span data-figure=\"p{pi}.losses\">{}</span></span> &nbsp; score <span data-figure=\"p{pi}.score\">{}</span> &nbsp; Elo <span class=\"big\" data-figure=\"p{pi}.elo\">{}</span> 95% interval [<span data-figure=\"p{pi}.elo_low\">{}</span>, <span data-figure=\"p{pi}.elo_high\">{}</span>] &nbsp; LOS {:.1}% &nbsp; gold won {} of {}</p>\n",
            esc(&p.first),
            esc(&p.second),
            p.first_wins,
            p.second_wins,
            pct(p.score),
            fmt_elo(p.elo.unwrap_or(if p.games == 0 {
                f64::NAN
            } else if p.first_wins == p.games {
                f64::INFINITY
            } else {
                f64::NEG_INFINITY
            })),
            fmt_elo(p.elo_low.unwrap_or(f64::NEG_INFINITY)),
            fmt_elo(p.elo_high.unwrap_or(f64::INFINITY)),
            100.0 * p.los,
            p.gold_wins,
            p.games
        );
        let mut games: Vec<&MatchGame> = s.games.iter().filter(|g| g.pairing == pi).collect();
        games.sort_by_key(|g| g.id);
        if games.is_empty() {
            continue;
        }
        let (mut w, mut score, mut elo, mut band, mut llr) =
            (0u32, Vec::new(), Vec::new(), Vec::new(), Vec::new());
        let sprt = s.config.sprt.filter(|_| s.pairings.len() == 1);
        for (k, g) in games.iter().enumerate() {
            if g.winner_name() == p.first {
                w += 1;
            }
            let n = k as u32 + 1;
            let e = estimate(w, n);
            let x = n as f64;
            score.push((x, 100.0 * e.score));
            elo.push((x, clip_elo(e.elo)));
            band.push((x, clip_elo(e.elo_low), clip_elo(e.elo_high)));
            if let Some(t) = sprt {
                llr.push((x, t.llr(w, n - w)));
            }
        }
        h.push_str("<div class=\"charts\">");
        let mut c = Chart::new(
            "score after each game",
            "games played",
            "score of the first engine, %",
        );
        c.y_min = Some(0.0);
        c.y_max = Some(100.0);
        c.hlines.push((50.0, "even".into(), "#9aa3ad"));
        c.series.push(Series {
            label: &p.first,
            colour: ACCENT,
            points: score,
            dashed: false,
        });
        h.push_str(&c.svg());
        h.push_str(&elo_chart(
            "Elo estimate and 95% interval",
            "games played",
            "Elo",
            elo,
            band,
        ));
        if let (Some(t), Some(st)) = (sprt, p.sprt) {
            let (lo, hi) = t.bounds();
            let mut c = Chart::new("SPRT log-likelihood ratio", "games played", "LLR");
            c.hlines
                .push((hi, format!("H1 ({:+}) at {hi:.2}", t.elo1), "#2f855a"));
            c.hlines
                .push((lo, format!("H0 ({:+}) at {lo:.2}", t.elo0), "#c53030"));
            c.series.push(Series {
                label: "LLR",
                colour: ACCENT,
                points: llr,
                dashed: false,
            });
            h.push_str(&c.svg());
            let verdict = st.decision.text();
            h.push_str("</div>");
            let _ = write!(
                h,
                "<p>SPRT elo0 {} elo1 {} alpha {} beta {}: LLR <span data-figure=\"p{pi}.llr\">{:.3}</span> in [{:.3}, {:.3}], {verdict}</p>",
                t.elo0, t.elo1, t.alpha, t.beta, st.llr, st.lower, st.upper
            );
        } else {
            h.push_str("</div>");
        }
    }

    paired_html(&mut h, s);

    if !s.games.is_empty() {
        h.push_str("<h2>Game lengths</h2>\n");
        let mut games: Vec<&MatchGame> = s.games.iter().collect();
        games.sort_by_key(|g| g.id);
        let mut c = Chart::new("turns per game (colour: how it ended)", "game", "turns");
        c.width = (games.len() as f64 * 14.0 + 120.0).clamp(560.0, 1150.0);
        c.y_min = Some(0.0);
        for g in &games {
            c.bars.push((
                g.id as f64,
                super::output::plycount(g) as f64,
                termination_colour(g.termination),
                format!(
                    "game {}: {} turns, {} won by {}",
                    g.id,
                    super::output::plycount(g),
                    g.winner_name(),
                    g.termination.name()
                ),
            ));
        }
        h.push_str(&c.svg());
        h.push_str("<p>");
        for t in Termination::ALL {
            if games.iter().any(|g| g.termination == t) {
                let _ = write!(
                    h,
                    "<span class=\"sw\" style=\"background:{}\"></span>{} &nbsp; ",
                    termination_colour(t),
                    t.name()
                );
            }
        }
        h.push_str("</p>\n");
    }

    h.push_str("<h2>Terminations per engine</h2>\n<table><tr><th>engine</th><th>games</th><th>won</th><th>lost</th>");
    let used: Vec<Termination> = Termination::ALL
        .into_iter()
        .filter(|t| {
            s.engines
                .iter()
                .any(|e| e.wins_by.contains_key(t.name()) || e.losses_by.contains_key(t.name()))
        })
        .collect();
    for t in &used {
        let _ = write!(h, "<th>won by {0}</th><th>lost by {0}</th>", t.name());
    }
    h.push_str(
        "<th>material lost a game</th><th>material taken a game</th><th>rabbits lost a game</th><th>rabbits taken a game</th><th>s a move</th></tr>\n",
    );
    for (ei, e) in s.engines.iter().enumerate() {
        let _ = write!(
            h,
            "<tr><td>{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td>",
            esc(&e.name),
            e.games,
            e.wins,
            e.losses
        );
        for t in &used {
            let get =
                |m: &std::collections::BTreeMap<String, u32>| m.get(t.name()).copied().unwrap_or(0);
            let _ = write!(
                h,
                "<td class=\"n\">{}</td><td class=\"n\">{}</td>",
                get(&e.wins_by),
                get(&e.losses_by)
            );
        }
        // Material in the notes' units (rabbit 1 ... elephant 9).
        let per_game = |x: u32| f64::from(x) / f64::from(e.games.max(1));
        let per_move = if e.timed_moves > 0 {
            format!("{:.2}", e.seconds_used / f64::from(e.timed_moves))
        } else {
            "-".into()
        };
        let _ = writeln!(
            h,
            "<td class=\"n\" data-figure=\"e{ei}.material_lost\">{:.1}</td><td class=\"n\" data-figure=\"e{ei}.material_taken\">{:.1}</td><td class=\"n\" data-figure=\"e{ei}.rabbits_lost\">{:.1}</td><td class=\"n\" data-figure=\"e{ei}.rabbits_taken\">{:.1}</td><td class=\"n\">{per_move}</td></tr>",
            per_game(e.material_lost),
            per_game(e.material_taken),
            per_game(e.rabbits_lost),
            per_game(e.rabbits_taken)
        );
    }
    h.push_str("</table>\n");

    h.push_str("<h2>Games</h2>\n<p class=\"muted\">The final position of each game (traps marked with a cross; gold upper case, silver lower case) and the time each move used against the time its clock allowed. Every game's record is in <a href=\"games.tsv\">games.tsv</a> (arimaa.com archive format, by id) and <a href=\"games.pgn\">games.pgn</a>; forfeits are explained in <a href=\"failures.txt\">failures.txt</a>.</p>\n<div class=\"games\">\n");
    let mut games: Vec<&MatchGame> = s.games.iter().collect();
    games.sort_by_key(|g| g.id);
    for g in games {
        let winner_colour = match g.winner {
            Side::Gold => GOLD,
            Side::Silver => SILVER,
        };
        let _ = writeln!(
            h,
            "<div class=\"game\" id=\"game-{id}\"><h3>Game {id}: {} (gold) vs {} (silver)</h3><p><b style=\"color:{winner_colour}\">{}</b> won by {} after {} turns, {:.1} s. Record: game {id} in <a href=\"games.tsv\">games.tsv</a>, <a href=\"games.pgn\">games.pgn</a>{}</p><div class=\"row\">{}{}</div><details><summary>moves</summary><pre>{}</pre></details></div>",
            esc(&g.gold),
            esc(&g.silver),
            esc(g.winner_name()),
            g.termination.name(),
            super::output::plycount(g),
            g.seconds,
            if g.fault.is_some() {
                ", <a href=\"failures.txt\">failures.txt</a>"
            } else {
                ""
            },
            board_svg(g),
            time_svg(g).unwrap_or_default(),
            esc(&g
                .moves
                .iter()
                .map(|m| format!("{} {}", m.label, m.text))
                .chain(
                    g.attempted
                        .iter()
                        .map(|a| format!("{} {a} (refused)", g.final_label))
                )
                .chain(std::iter::once(g.detail.clone()))
                .collect::<Vec<_>>()
                .join("\n")),
            id = g.id
        );
    }
    h.push_str("</div>\n</body></html>\n");
    h
}

fn notes_html(h: &mut String, notes: &[EngineNote]) {
    if notes.is_empty() {
        return;
    }
    h.push_str("<h2>Engine notes</h2>\n");
    for n in notes {
        let _ = writeln!(
            h,
            "<div class=\"note\"><b>{}</b>: {}</div>",
            esc(&n.engine),
            esc(&n.text)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_markup() {
        assert_eq!(
            esc("<a href=\"x\">&'"),
            "&lt;a href=&quot;x&quot;&gt;&amp;&#39;"
        );
    }

    #[test]
    fn the_diagram_shows_the_final_position_and_the_traps() {
        use crate::arena::result::MoveRecord;
        let mv = |label: &str, text: &str| MoveRecord {
            label: label.into(),
            text: text.into(),
            used: Some(0.5),
            reserve: Some(1.0),
        };
        let g = MatchGame {
            id: 3,
            round: 0,
            pairing: 0,
            opening: None,
            gold: "a".into(),
            silver: "b".into(),
            winner: Side::Gold,
            termination: Termination::Score,
            detail: String::new(),
            moves: vec![
                mv(
                    "1g",
                    "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Da2 Hb2 Cc2 Ed2 Me2 Cf2 Hg2 Dh2",
                ),
                mv(
                    "1s",
                    "ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 da7 hb7 cc7 ed7 me7 cf7 hg7 dh7",
                ),
                mv("2g", "Ed2n Ed3n Ed4n Ed5n"),
            ],
            final_label: "2s".into(),
            attempted: None,
            timecontrol: "2s/30s".into(),
            start_unix: 0,
            end_unix: 0,
            seconds: 1.0,
            fault: None,
        };
        let svg = board_svg(&g);
        assert_eq!(svg.matches("<circle").count(), 32);
        assert_eq!(svg.matches("class=\"trap\"").count(), 4);
        assert!(!svg.contains("does not replay"));
        // The elephant stands on d6: the third row from the top, whose
        // letters sit at y = 6 + 2 * 30 + 15 + 5, x = 18 + 3 * 30 + 15.
        assert!(
            svg.contains(
                r##"x="123" y="86" class="pc" fill="#fff" text-anchor="middle">E</text>"##
            ),
            "{svg}"
        );
        let t = time_svg(&g).expect("a time chart");
        assert!(t.contains("gold used") && t.contains("silver allowed"));
    }

    #[test]
    fn ticks_are_round_and_cover_the_range() {
        let t = nice_ticks(-37.0, 212.0, 5);
        assert_eq!(t, vec![-50.0, 0.0, 50.0, 100.0, 150.0, 200.0, 250.0]);
        let t = nice_ticks(0.0, 1.0, 4);
        assert_eq!(t, vec![0.0, 0.25, 0.5, 0.75, 1.0]);
    }
}
