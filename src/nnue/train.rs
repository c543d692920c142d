//! Training a network from self-play data ([`super::data`]) on the processor's cores.
//!
//! A specialised loop rather than a tensor library: the inputs are sparse (a position has a
//! few dozen features among thousands), so the first layer's forward pass is a sum of a few
//! weight rows and its gradient touches only those rows; a dense library would multiply
//! thousands of zeros. Each thread takes a share of a batch with gradients of its own; the
//! shares are summed and Adam steps every weight.
//!
//! **Factorised features.** While training, each piece also lights one shared feature of its
//! kind and relative colour, whatever its square. Its weights learn what is common to every
//! square (the piece's worth) from every position that has the piece, which the weights of one
//! (kind, square) feature would learn only from the few positions with a piece there. The shared
//! row is added into every square's row when the network is written, so the network file and
//! the engine know nothing of it.
//!
//! The target of a position is a blend of the game's result and the search's score:
//! `wdl · result + (1 − wdl) · σ(score / SCALE)` for the side to move; the network's output `y`
//! predicts it as `σ(y)`, and its evaluation is `y · SCALE` centipawns. The loss is the mean
//! squared error. Float weights are clipped so that their quantised forms fit
//! ([`super::format`]); the network written is quantised.

use super::data::DataFile;
use super::format::max_output_weight;
use super::{Layout, MAX_BUCKETS, Network, QA, QB, SCALE, fingerprint, simd};
use crate::geometry::{Color, Square};
use crate::variant::Variant;

/// The first layer's float weights stay within this (their quantised forms within ±505).
const L1_CLIP: f32 = 1.98;

/// Training settings.
#[derive(Clone, Debug)]
pub struct Config {
    /// Passes over the training data.
    pub epochs: usize,
    /// Positions per batch.
    pub batch: usize,
    /// The learning rate (Adam).
    pub lr: f32,
    /// The learning rate is multiplied by this after each epoch.
    pub lr_decay: f32,
    /// The weight of the game result in the target (0: the score alone).
    pub wdl: f32,
    /// Threads that share each batch.
    pub threads: usize,
    /// Seed of the initial weights and of the order of the positions.
    pub seed: u64,
}

/// The positions of a data set, as feature lists.
pub struct Positions {
    /// Both views' features of every position, each position `2·n` values: White's view,
    /// then Black's.
    feats: Vec<u16>,
    /// Per position: where its features start, how many pieces, side to move, bucket piece
    /// count, target.
    items: Vec<Item>,
}

#[derive(Clone, Copy)]
struct Item {
    /// An index into `feats`, which outgrows 32 bits past some 25 million positions.
    start: usize,
    /// Features per view.
    n: u16,
    stm: u8,
    pieces: u8,
    target: f32,
}

impl Positions {
    /// The number of positions.
    pub fn len(&self) -> usize {
        self.items.len()
    }
    /// Whether there is no position.
    pub fn is_empty(&self) -> bool {
        self.items.is_empty()
    }
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// Whether game number `game` is held out for validation (19 modulo 20: a game's positions
/// are alike, so the split is by game).
pub fn is_validation(game: u32) -> bool {
    game % 20 == 19
}

/// What the network learns to predict for `r`, a position of a game whose result for White
/// is `result` (0 loss, 1 draw, 2 win): `wdl · result + (1 − wdl) · σ(score / SCALE)`, for the
/// side to move.
pub fn target(result: u8, r: &super::data::Record, wdl: f32) -> f32 {
    let points = match (result, r.side) {
        (1, _) => 0.5,
        (2, 0) | (0, 1) => 1.0,
        _ => 0.0,
    };
    wdl * points + (1.0 - wdl) * sigmoid(r.score as f32 / SCALE as f32)
}

/// Reads data files for `variant`: training positions and validation positions (the games
/// whose number is 19 modulo 20, so that no game is in both). Refuses data of another
/// variant.
pub fn positions(
    variant: &Variant,
    files: &[DataFile],
    wdl: f32,
) -> Result<(Positions, Positions), String> {
    let layout = Layout::of(variant);
    let fp = fingerprint(variant);
    let mut train = Positions {
        feats: Vec::new(),
        items: Vec::new(),
    };
    let mut valid = Positions {
        feats: Vec::new(),
        items: Vec::new(),
    };
    for f in files {
        if f.header.fingerprint != fp {
            return Err(format!(
                "data made for `{}`, whose board or pieces differ from `{}`'s",
                f.header.variant, variant.id
            ));
        }
        for g in &f.games {
            let set = if is_validation(g.game) {
                &mut valid
            } else {
                &mut train
            };
            for r in &g.records {
                if r.pieces.iter().any(|&(sq, c)| {
                    sq.index() >= layout.size()
                        || c.index() < 2
                        || crate::moves::kind_of(c) >= layout.kinds
                }) {
                    return Err(format!(
                        "game {}: a piece outside the board or piece set",
                        g.game
                    ));
                }
                let start = set.feats.len();
                let (inputs, size) = (layout.inputs(), layout.size());
                for v in [Color::White, Color::Black] {
                    for &(sq, c) in &r.pieces {
                        let f = layout.feature(v, c, sq);
                        set.feats.push(f as u16);
                        set.feats.push((inputs + f / size) as u16);
                    }
                }
                let target = target(g.result, r, wdl);
                set.items.push(Item {
                    start,
                    n: 2 * r.pieces.len() as u16,
                    stm: r.side,
                    pieces: r.pieces.len().min(255) as u8,
                    target,
                });
            }
        }
    }
    Ok((train, valid))
}

/// Float weights.
#[derive(Clone)]
pub struct Weights {
    /// Hidden units per side.
    pub hidden: usize,
    /// Output buckets.
    pub buckets: usize,
    /// Input features (without the factorised rows).
    pub inputs: usize,
    /// Squares per (kind, relative colour) block of inputs; the factorised rows follow the
    /// `inputs` real ones, one per block.
    size: usize,
    /// The piece count that maps to the last output bucket.
    pub max_pieces: u16,
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
}

/// A small seeded generator for initial weights and shuffling.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn unit(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0
    }
}

impl Weights {
    /// Random initial weights for `variant`.
    pub fn new(variant: &Variant, hidden: usize, buckets: usize, seed: u64) -> Weights {
        let layout = Layout::of(variant);
        let (inputs, size) = (layout.inputs(), layout.size());
        let rows = inputs + inputs / size;
        let mut r = Rng(seed | 1);
        let a1 = 0.15;
        let a2 = 1.0 / (2.0 * hidden as f32).sqrt();
        let pieces = variant.placement.iter().filter(|p| p.is_some()).count() as u16;
        Weights {
            hidden,
            buckets,
            inputs,
            size,
            max_pieces: pieces.max(1),
            w1: (0..rows * hidden)
                .map(|i| {
                    if i < inputs * hidden {
                        r.unit() * a1
                    } else {
                        0.0
                    }
                })
                .collect(),
            b1: (0..hidden).map(|_| 0.1 + r.unit() * 0.05).collect(),
            w2: (0..buckets * 2 * hidden).map(|_| r.unit() * a2).collect(),
            b2: vec![0.0; buckets],
        }
    }

    fn bucket(&self, pieces: u8) -> usize {
        let max = self.max_pieces.max(1) as usize;
        ((pieces as usize).saturating_sub(1) * self.buckets / max).min(self.buckets - 1)
    }

    /// The quantised network.
    pub fn quantise(&self, variant: &Variant) -> Network {
        let q = |x: f32, s: f32, lim: i32| ((x * s).round() as i32).clamp(-lim, lim);
        let lim2 = max_output_weight(self.hidden);
        Network {
            variant: variant.id.clone(),
            fingerprint: fingerprint(variant),
            layout: Layout::of(variant),
            hidden: self.hidden,
            buckets: self.buckets,
            max_pieces: self.max_pieces,
            l1_w: (0..self.inputs * self.hidden)
                .map(|i| {
                    let (f, k) = (i / self.hidden, i % self.hidden);
                    let shared = self.w1[(self.inputs + f / self.size) * self.hidden + k];
                    q(self.w1[i] + shared, QA as f32, 32767) as i16
                })
                .collect(),
            l1_b: self
                .b1
                .iter()
                .map(|&x| q(x, QA as f32, 32767) as i16)
                .collect(),
            l2_w: self
                .w2
                .iter()
                .map(|&x| q(x, QB as f32, lim2) as i16)
                .collect(),
            l2_b: self
                .b2
                .iter()
                .map(|&x| q(x, (QA * QB) as f32, i32::MAX / 4))
                .collect(),
            simd: simd::available(),
        }
    }

    /// Forward and backward pass over `items`, adding gradients to `g` and returning the
    /// summed loss.
    fn pass(&self, p: &Positions, items: &[Item], g: Option<&mut Grads>) -> f64 {
        let h = self.hidden;
        let mut acc = vec![0f32; 2 * h];
        let mut ga = vec![0f32; 2 * h];
        let mut loss = 0f64;
        let mut g = g;
        for it in items {
            let n = it.n as usize;
            let f = &p.feats[it.start..it.start + 2 * n];
            // Side to move's view first.
            let (us, them) = if it.stm == 0 {
                (&f[..n], &f[n..])
            } else {
                (&f[n..], &f[..n])
            };
            let (au, at) = acc.split_at_mut(h);
            au.copy_from_slice(&self.b1);
            at.copy_from_slice(&self.b1);
            for &x in us {
                let row = &self.w1[x as usize * h..(x as usize + 1) * h];
                au.iter_mut().zip(row).for_each(|(a, w)| *a += w);
            }
            for &x in them {
                let row = &self.w1[x as usize * h..(x as usize + 1) * h];
                at.iter_mut().zip(row).for_each(|(a, w)| *a += w);
            }
            let b = self.bucket(it.pieces);
            let w2 = &self.w2[b * 2 * h..(b + 1) * 2 * h];
            let mut out = self.b2[b];
            for (a, w) in acc.iter().zip(w2) {
                let c = a.clamp(0.0, 1.0);
                out += c * c * w;
            }
            let pred = sigmoid(out);
            let err = pred - it.target;
            loss += (err * err) as f64;
            let Some(g) = g.as_deref_mut() else { continue };
            let go = 2.0 * err * pred * (1.0 - pred);
            g.b2[b] += go;
            let gw2 = &mut g.w2[b * 2 * h..(b + 1) * 2 * h];
            for i in 0..2 * h {
                let a = acc[i];
                let c = a.clamp(0.0, 1.0);
                gw2[i] += go * c * c;
                ga[i] = if a > 0.0 && a < 1.0 {
                    go * w2[i] * 2.0 * a
                } else {
                    0.0
                };
            }
            let (gu, gt) = ga.split_at(h);
            for i in 0..h {
                g.b1[i] += gu[i] + gt[i];
            }
            for &x in us {
                let row = &mut g.w1[x as usize * h..(x as usize + 1) * h];
                row.iter_mut().zip(gu).for_each(|(r, d)| *r += d);
                g.touched[x as usize] = true;
            }
            for &x in them {
                let row = &mut g.w1[x as usize * h..(x as usize + 1) * h];
                row.iter_mut().zip(gt).for_each(|(r, d)| *r += d);
                g.touched[x as usize] = true;
            }
        }
        loss
    }

    /// Writes a float checkpoint (to continue training from with [`Weights::read`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = b"PMCK".to_vec();
        for v in [
            self.hidden,
            self.buckets,
            self.inputs,
            self.max_pieces as usize,
        ] {
            b.extend_from_slice(&(v as u32).to_le_bytes());
        }
        for x in self
            .w1
            .iter()
            .chain(&self.b1)
            .chain(&self.w2)
            .chain(&self.b2)
        {
            b.extend_from_slice(&x.to_le_bytes());
        }
        b
    }

    /// Reads a float checkpoint for `variant`.
    pub fn read(bytes: &[u8], variant: &Variant) -> Result<Weights, String> {
        if bytes.len() < 20 || &bytes[..4] != b"PMCK" {
            return Err("not a Polymachy training checkpoint".into());
        }
        let u =
            |i: usize| u32::from_le_bytes(bytes[4 + 4 * i..8 + 4 * i].try_into().unwrap()) as usize;
        let (hidden, buckets, inputs, max_pieces) = (u(0), u(1), u(2), u(3));
        if inputs != Layout::of(variant).inputs()
            || hidden == 0
            || hidden > super::MAX_HIDDEN
            || buckets == 0
            || buckets > MAX_BUCKETS
        {
            return Err("the checkpoint does not fit this variant".into());
        }
        let size = Layout::of(variant).size();
        let rows = inputs + inputs / size;
        let n = rows * hidden + hidden + buckets * 2 * hidden + buckets;
        if bytes.len() != 20 + 4 * n {
            return Err("the checkpoint's size does not match its header".into());
        }
        let f: Vec<f32> = bytes[20..]
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        let (w1, rest) = f.split_at(rows * hidden);
        let (b1, rest) = rest.split_at(hidden);
        let (w2, b2) = rest.split_at(buckets * 2 * hidden);
        Ok(Weights {
            hidden,
            buckets,
            inputs,
            size,
            max_pieces: max_pieces as u16,
            w1: w1.to_vec(),
            b1: b1.to_vec(),
            w2: w2.to_vec(),
            b2: b2.to_vec(),
        })
    }
}

/// Gradients (one set per thread).
struct Grads {
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: Vec<f32>,
    /// First-layer rows with a gradient in this batch.
    touched: Vec<bool>,
}

impl Grads {
    fn new(w: &Weights) -> Grads {
        Grads {
            w1: vec![0.0; w.w1.len()],
            b1: vec![0.0; w.b1.len()],
            w2: vec![0.0; w.w2.len()],
            b2: vec![0.0; w.b2.len()],
            touched: vec![false; w.w1.len() / w.hidden],
        }
    }
}

/// Adam's moments.
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn new(n: usize) -> Adam {
        Adam {
            m: vec![0.0; n],
            v: vec![0.0; n],
            t: 0,
        }
    }
}

const BETA1: f32 = 0.9;
const BETA2: f32 = 0.999;
const EPS: f32 = 1e-8;

#[inline]
fn adam_step(w: &mut f32, m: &mut f32, v: &mut f32, g: f32, lr: f32, clip: f32) {
    *m = BETA1 * *m + (1.0 - BETA1) * g;
    *v = BETA2 * *v + (1.0 - BETA2) * g * g;
    *w = (*w - lr * *m / (v.sqrt() + EPS)).clamp(-clip, clip);
}

/// One epoch's figures.
#[derive(Clone, Copy, Debug)]
pub struct EpochReport {
    /// The epoch, from 1.
    pub epoch: usize,
    /// Mean loss over the training positions.
    pub train_loss: f64,
    /// Mean loss over the held-out positions.
    pub valid_loss: f64,
    /// Training speed.
    pub positions_per_second: f64,
    /// The learning rate the epoch used.
    pub lr: f32,
}

/// The mean loss of `w` over `p` (all threads).
pub fn mean_loss(w: &Weights, p: &Positions, threads: usize) -> f64 {
    if p.is_empty() {
        return f64::NAN;
    }
    let chunk = p.items.len().div_ceil(threads.max(1));
    let total: f64 = std::thread::scope(|s| {
        let hs: Vec<_> = p
            .items
            .chunks(chunk)
            .map(|c| s.spawn(move || w.pass(p, c, None)))
            .collect();
        hs.into_iter().map(|h| h.join().unwrap_or(f64::NAN)).sum()
    });
    total / p.items.len() as f64
}

/// Trains `w` on `train` for `cfg.epochs` epochs; `on_epoch` sees each epoch's figures and
/// the weights (to keep a checkpoint).
#[expect(
    clippy::too_many_lines,
    reason = "the training loop: epochs, shuffled batches, the threads' gradients and Adam"
)]
pub fn train(
    w: &mut Weights,
    train: &Positions,
    valid: &Positions,
    cfg: &Config,
    stop: &std::sync::atomic::AtomicBool,
    mut on_epoch: impl FnMut(&EpochReport, &Weights),
    mut on_batch: impl FnMut(usize, usize),
) {
    let threads = cfg.threads.max(1);
    let mut grads: Vec<Grads> = (0..threads).map(|_| Grads::new(w)).collect();
    let mut a1 = Adam::new(w.w1.len());
    let mut ab1 = Adam::new(w.b1.len());
    let mut a2 = Adam::new(w.w2.len());
    let mut ab2 = Adam::new(w.b2.len());
    let mut order: Vec<u32> = (0..train.items.len() as u32).collect();
    let mut rng = Rng(cfg.seed | 1);
    let mut lr = cfg.lr;
    let clip2 = max_output_weight(w.hidden) as f32 / QB as f32 - 0.01;
    let mut items: Vec<Item> = Vec::with_capacity(cfg.batch);
    for epoch in 1..=cfg.epochs {
        let started = std::time::Instant::now();
        for i in (1..order.len()).rev() {
            let j = (rng.next() % (i as u64 + 1)) as usize;
            order.swap(i, j);
        }
        let mut total = 0f64;
        let batches = order.len().div_ceil(cfg.batch);
        for (bi, batch) in order.chunks(cfg.batch).enumerate() {
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                return;
            }
            items.clear();
            items.extend(batch.iter().map(|&i| train.items[i as usize]));
            let chunk = items.len().div_ceil(threads);
            let ww = &*w;
            total += std::thread::scope(|s| {
                let hs: Vec<_> = items
                    .chunks(chunk)
                    .zip(grads.iter_mut())
                    .map(|(c, g)| s.spawn(move || ww.pass(train, c, Some(g))))
                    .collect();
                hs.into_iter().map(|h| h.join().unwrap_or(0.0)).sum::<f64>()
            });
            // Sum the threads' gradients into the first, then step.
            let (first, rest) = grads.split_at_mut(1);
            let g0 = &mut first[0];
            let scale = 1.0 / items.len() as f32;
            for g in rest.iter_mut() {
                for (i, t) in g.touched.iter_mut().enumerate() {
                    if *t {
                        let h = w.hidden;
                        for k in i * h..(i + 1) * h {
                            g0.w1[k] += g.w1[k];
                            g.w1[k] = 0.0;
                        }
                        g0.touched[i] = true;
                        *t = false;
                    }
                }
                for (a, b) in g0.b1.iter_mut().zip(g.b1.iter_mut()) {
                    *a += *b;
                    *b = 0.0;
                }
                for (a, b) in g0.w2.iter_mut().zip(g.w2.iter_mut()) {
                    *a += *b;
                    *b = 0.0;
                }
                for (a, b) in g0.b2.iter_mut().zip(g.b2.iter_mut()) {
                    *a += *b;
                    *b = 0.0;
                }
            }
            a1.t += 1;
            let t = a1.t;
            let bc = (1.0 - BETA2.powi(t)).sqrt() / (1.0 - BETA1.powi(t));
            let step = lr * bc;
            // Rows without a gradient this batch keep their moments (a lazy Adam): the
            // sparse rows of rare pieces would otherwise drift on stale momentum.
            let h = w.hidden;
            for (i, t) in g0.touched.iter_mut().enumerate() {
                if *t {
                    for k in i * h..(i + 1) * h {
                        let g = g0.w1[k] * scale;
                        adam_step(&mut w.w1[k], &mut a1.m[k], &mut a1.v[k], g, step, L1_CLIP);
                        g0.w1[k] = 0.0;
                    }
                    *t = false;
                }
            }
            for k in 0..w.b1.len() {
                let g = g0.b1[k] * scale;
                adam_step(&mut w.b1[k], &mut ab1.m[k], &mut ab1.v[k], g, step, L1_CLIP);
                g0.b1[k] = 0.0;
            }
            for k in 0..w.w2.len() {
                let g = g0.w2[k] * scale;
                adam_step(&mut w.w2[k], &mut a2.m[k], &mut a2.v[k], g, step, clip2);
                g0.w2[k] = 0.0;
            }
            for k in 0..w.b2.len() {
                let g = g0.b2[k] * scale;
                adam_step(&mut w.b2[k], &mut ab2.m[k], &mut ab2.v[k], g, step, 1e6);
                g0.b2[k] = 0.0;
            }
            on_batch(bi + 1, batches);
        }
        let secs = started.elapsed().as_secs_f64().max(1e-9);
        let report = EpochReport {
            epoch,
            train_loss: total / train.items.len().max(1) as f64,
            valid_loss: mean_loss(w, valid, threads),
            positions_per_second: train.items.len() as f64 / secs,
            lr,
        };
        on_epoch(&report, w);
        lr *= cfg.lr_decay;
    }
}

impl Weights {
    /// Moves every weight by up to `amount` (seeded): weights that look trained, for tests of
    /// the quantisation.
    pub fn jitter(&mut self, seed: u64, amount: f32) {
        let mut r = Rng(seed | 1);
        for x in self.w1.iter_mut().chain(&mut self.b2) {
            *x += r.unit() * amount;
        }
    }

    /// The float network's evaluation in centipawns of a board (codes, rank 1 first) for
    /// `side` to move: what the quantised network approximates.
    pub fn evaluate_float(
        &self,
        variant: &Variant,
        board: &[crate::moves::Code],
        side: Color,
    ) -> f32 {
        let layout = Layout::of(variant);
        let h = self.hidden;
        let mut acc = [self.b1.clone(), self.b1.clone()];
        let mut pieces = 0u8;
        for (sq, &c) in board.iter().enumerate().take(layout.size()) {
            if c == crate::moves::EMPTY {
                continue;
            }
            pieces = pieces.saturating_add(1);
            for v in [Color::White, Color::Black] {
                let f = layout.feature(v, c, Square::from_index(sq));
                let shared = self.inputs + f / self.size;
                for (k, a) in acc[v.index()].iter_mut().enumerate() {
                    *a += self.w1[f * h + k] + self.w1[shared * h + k];
                }
            }
        }
        let b = self.bucket(pieces);
        let w2 = &self.w2[b * 2 * h..(b + 1) * 2 * h];
        let (us, them) = (&acc[side.index()], &acc[side.flip().index()]);
        let mut out = self.b2[b];
        for (a, w) in us.iter().chain(them.iter()).zip(w2) {
            let c = a.clamp(0.0, 1.0);
            out += c * c * w;
        }
        out * SCALE as f32
    }
}
