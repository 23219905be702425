//! The network in floating point, as the trainer fits it, and its
//! rounding into the integer [`Network`] the engine runs.

use super::{INPUTS, L1, L2, L3, Network, QA, QB, active_features};
use crate::board::Position;

/// Largest first-layer weight or bias while training. The trainer adds a
/// shared row (as limited) into each square row, so a written row is
/// within twice this: with [`super::MAX_ACTIVE`] inputs active no
/// accumulator can leave 16 bits (`(3 + 32 * 6) * 127 < 32767`).
pub const W1_LIMIT: f32 = 3.0;
/// Largest weight of the later layers (their 16 bits hold 64 * 512).
pub const W_LIMIT: f32 = 60.0;

/// A network with `f32` weights, laid out as [`Network`].
#[derive(Clone, Debug, PartialEq)]
pub struct FloatNet {
    pub w1: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: Vec<f32>,
    pub w3: Vec<f32>,
    pub b3: Vec<f32>,
    pub w4: Vec<f32>,
    pub b4: f32,
    /// Centi-rabbits per unit of logit.
    pub scale: f32,
    /// What the score is added to.
    pub base: super::Base,
}

impl FloatNet {
    /// Random weights from `rand01` (uniform on 0..1), scaled for each
    /// layer's fan-in.
    pub fn random(scale: f32, mut rand01: impl FnMut() -> f32) -> FloatNet {
        let mut layer = |n: usize, fan_in: usize| -> Vec<f32> {
            let r = (1.0 / fan_in as f32).sqrt();
            (0..n).map(|_| (2.0 * rand01() - 1.0) * r).collect()
        };
        FloatNet {
            // About 32 inputs are active at once.
            w1: layer(INPUTS * L1, 32),
            b1: vec![0.0; L1],
            w2: layer(L2 * 2 * L1, 2 * L1),
            b2: vec![0.0; L2],
            w3: layer(L3 * L2, L2),
            b3: vec![0.0; L3],
            w4: layer(L3, L3),
            b4: 0.0,
            scale,
            base: super::Base::None,
        }
    }

    /// The side to move's logit for `pos`.
    pub fn logit(&self, pos: &Position) -> f32 {
        let side = pos.side();
        let mut a1 = vec![0f32; 2 * L1];
        for (half, view) in [side, side.opp()].into_iter().enumerate() {
            let mut acc = self.b1.clone();
            let (f, n) = active_features(pos, view);
            for &i in &f[..n] {
                let row = &self.w1[i as usize * L1..(i as usize + 1) * L1];
                acc.iter_mut().zip(row).for_each(|(a, w)| *a += w);
            }
            for (o, a) in a1[half * L1..(half + 1) * L1].iter_mut().zip(&acc) {
                *o = a.clamp(0.0, 1.0);
            }
        }
        let a2: Vec<f32> = (0..L2)
            .map(|k| {
                let row = &self.w2[k * 2 * L1..(k + 1) * 2 * L1];
                (self.b2[k] + row.iter().zip(&a1).map(|(w, a)| w * a).sum::<f32>()).clamp(0.0, 1.0)
            })
            .collect();
        let mut out = self.b4;
        for k in 0..L3 {
            let row = &self.w3[k * L2..(k + 1) * L2];
            let z = self.b3[k] + row.iter().zip(&a2).map(|(w, a)| w * a).sum::<f32>();
            out += self.w4[k] * z.clamp(0.0, 1.0);
        }
        out
    }

    /// The side to move's score in centi-rabbits.
    pub fn evaluate(&self, pos: &Position) -> f32 {
        self.logit(pos) * self.scale
    }

    /// Keeps every weight within what the integer network holds.
    pub fn clamp_weights(&mut self) {
        for w in self.w1.iter_mut().chain(self.b1.iter_mut()) {
            *w = w.clamp(-W1_LIMIT, W1_LIMIT);
        }
        for w in self
            .w2
            .iter_mut()
            .chain(self.w3.iter_mut())
            .chain(self.w4.iter_mut())
        {
            *w = w.clamp(-W_LIMIT, W_LIMIT);
        }
    }

    /// The integer network: weights rounded to their scales.
    pub fn quantize(&self, about: &str) -> Network {
        let q16 = |v: &[f32], s: i32| -> Vec<i16> {
            v.iter()
                .map(|w| (w * s as f32).round().clamp(-32767.0, 32767.0) as i16)
                .collect()
        };
        let q32 = |v: &[f32], s: i32| -> Vec<i32> {
            v.iter()
                .map(|w| (f64::from(*w) * f64::from(s)).round() as i32)
                .collect()
        };
        Network {
            w1: q16(&self.w1, QA),
            b1: q16(&self.b1, QA),
            w2: q16(&self.w2, QB),
            b2: q32(&self.b2, QA * QB),
            w3: q16(&self.w3, QB),
            b3: q32(&self.b3, QA * QB),
            w4: q16(&self.w4, QB),
            b4: (f64::from(self.b4) * f64::from(QA * QB)).round() as i32,
            scale: self.scale.round().max(1.0) as i32,
            base: self.base,
            about: about.to_string(),
        }
    }
}
