//! The network file: a header that says what the network is for, then the weights, then a
//! checksum. All numbers little-endian.
//!
//! | field | type |
//! |---|---|
//! | magic `PMNN` | 4 bytes |
//! | format version ([`VERSION`]) | u16 |
//! | the variant's name: length, then UTF-8 | u16, bytes |
//! | fingerprint of its board and pieces ([`super::fingerprint`]) | u64 |
//! | files, ranks | u8, u8 |
//! | piece kinds | u16 |
//! | hidden units, output buckets, activation (1: squared clipped ReLU) | u16, u8, u8 |
//! | QA, QB, SCALE (must be the engine's: [`super::QA`], [`super::QB`], [`super::SCALE`]) | u16 ×3 |
//! | pieces that map to the last bucket | u16 |
//! | first layer weights, feature-major (`kinds·2·files·ranks × hidden`) | i16 each |
//! | first layer biases (`hidden`) | i16 each |
//! | output weights (`buckets × 2·hidden`, side to move first) | i16 each |
//! | output biases (`buckets`) | i32 each |
//! | FNV-1a 64 of every byte before | u64 |

use super::{Fnv, Layout, MAX_BUCKETS, MAX_HIDDEN, Network, QA, QB, SCALE, simd};

/// The file format version this engine reads and writes.
pub const VERSION: u16 = 1;
const MAGIC: &[u8; 4] = b"PMNN";
/// The largest output weight: with it, `2·hidden` terms of `QA² · w` stay inside 32 bits.
pub fn max_output_weight(hidden: usize) -> i32 {
    (i32::MAX as i64 / (2 * hidden as i64 * (QA * QA) as i64)).min(127) as i32
}

/// Why a network file was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// The file does not start with `PMNN`.
    #[error("not a Polymachy network file (it does not start with `PMNN`)")]
    Magic,
    /// The file is in another format version.
    #[error("network file format {0}; this engine reads format {VERSION}")]
    Version(u16),
    /// The file ends early, at this byte.
    #[error("the network file ends early (truncated at byte {0})")]
    Truncated(usize),
    /// Bytes after the network's end.
    #[error("the network file has {0} bytes after its end")]
    Trailing(usize),
    /// The checksum does not match.
    #[error("the network file is damaged (its checksum does not match)")]
    Checksum,
    /// A field out of range (the rest of the sentence).
    #[error("the network file's {0}")]
    Bad(String),
    /// The network was trained for another board or other pieces.
    #[error(
        "the network was trained for `{net}`, whose board or pieces differ from `{variant}`'s (a network is tied to the board size, holes and every piece's movement)"
    )]
    WrongVariant {
        /// The variant the network names.
        net: String,
        /// The variant it was loaded for.
        variant: String,
    },
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], NetError> {
        let end = self.at.checked_add(n).ok_or(NetError::Truncated(self.at))?;
        if end > self.b.len() {
            return Err(NetError::Truncated(self.b.len()));
        }
        let s = &self.b[self.at..end];
        self.at = end;
        Ok(s)
    }
    fn u8(&mut self) -> Result<u8, NetError> {
        Ok(self.take(1)?[0])
    }
    fn u16(&mut self) -> Result<u16, NetError> {
        let s = self.take(2)?;
        Ok(u16::from_le_bytes([s[0], s[1]]))
    }
    fn u64(&mut self) -> Result<u64, NetError> {
        let s = self.take(8)?;
        Ok(u64::from_le_bytes(s.try_into().expect("8 bytes")))
    }
    fn i16s(&mut self, n: usize) -> Result<Vec<i16>, NetError> {
        let s = self.take(n.checked_mul(2).ok_or(NetError::Truncated(self.at))?)?;
        Ok(s.chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }
    fn i32s(&mut self, n: usize) -> Result<Vec<i32>, NetError> {
        let s = self.take(n * 4)?;
        Ok(s.chunks_exact(4)
            .map(|c| i32::from_le_bytes(c.try_into().expect("4 bytes")))
            .collect())
    }
}

/// Reads a network file, checking everything but its fit to a variant
/// ([`Network::for_variant`] checks that).
pub fn read(bytes: &[u8]) -> Result<Network, NetError> {
    let mut r = Reader { b: bytes, at: 0 };
    if r.take(4).map_err(|_| NetError::Magic)? != MAGIC {
        return Err(NetError::Magic);
    }
    let version = r.u16()?;
    if version != VERSION {
        return Err(NetError::Version(version));
    }
    if bytes.len() < 8 {
        return Err(NetError::Truncated(bytes.len()));
    }
    let body = &bytes[..bytes.len() - 8];
    let mut h = Fnv::default();
    h.bytes(body);
    let stored = u64::from_le_bytes(bytes[bytes.len() - 8..].try_into().expect("8 bytes"));
    let bad = |m: String| NetError::Bad(m);
    let name_len = r.u16()? as usize;
    let name = String::from_utf8(r.take(name_len)?.to_vec())
        .map_err(|_| bad("variant name is not UTF-8".into()))?;
    let fingerprint = r.u64()?;
    let files = r.u8()?;
    let ranks = r.u8()?;
    let kinds = r.u16()? as usize;
    let hidden = r.u16()? as usize;
    let buckets = r.u8()? as usize;
    let activation = r.u8()?;
    let (qa, qb, scale) = (r.u16()?, r.u16()?, r.u16()?);
    let max_pieces = r.u16()?;
    if !(1..=16).contains(&files) || !(1..=16).contains(&ranks) {
        return Err(bad(format!("board {files}×{ranks} is not 1 to 16 a side")));
    }
    if kinds == 0 || kinds > crate::moves::MAX_KINDS {
        return Err(bad(format!("{kinds} piece kinds")));
    }
    if hidden == 0 || hidden > MAX_HIDDEN || !hidden.is_multiple_of(16) {
        return Err(bad(format!(
            "hidden layer of {hidden} units (a multiple of 16 up to {MAX_HIDDEN})"
        )));
    }
    if buckets == 0 || buckets > MAX_BUCKETS {
        return Err(bad(format!(
            "{buckets} output buckets (1 to {MAX_BUCKETS})"
        )));
    }
    if activation != 1 {
        return Err(bad(format!("activation {activation} (only 1 is known)")));
    }
    if (qa as i32, qb as i32, scale as i32) != (QA, QB, SCALE) {
        return Err(bad(format!(
            "quantisation {qa}/{qb}/{scale}; this engine uses {QA}/{QB}/{SCALE}"
        )));
    }
    let layout = Layout {
        files,
        ranks,
        kinds,
    };
    // The header says how long the file is: check before reading (or allocating) weights.
    let need = r.at + 2 * (layout.inputs() * hidden + hidden + buckets * 2 * hidden) + 4 * buckets;
    if need + 8 > bytes.len() {
        return Err(NetError::Truncated(bytes.len()));
    }
    if need + 8 < bytes.len() {
        return Err(NetError::Trailing(bytes.len() - need - 8));
    }
    if h.0 != stored {
        return Err(NetError::Checksum);
    }
    let l1_w = r.i16s(layout.inputs() * hidden)?;
    let l1_b = r.i16s(hidden)?;
    let l2_w = r.i16s(buckets * 2 * hidden)?;
    let l2_b = r.i32s(buckets)?;
    let limit = max_output_weight(hidden);
    if l2_w.iter().any(|&w| (w as i32).abs() > limit) {
        return Err(bad(format!(
            "output weights exceed ±{limit} (the sum could overflow)"
        )));
    }
    if l2_b.iter().any(|&b| b.abs() > i32::MAX / 4) {
        return Err(bad("output bias out of range".into()));
    }
    Ok(Network {
        variant: name,
        fingerprint,
        layout,
        hidden,
        buckets,
        max_pieces,
        l1_w,
        l1_b,
        l2_w,
        l2_b,
        simd: simd::available(),
    })
}

/// The file's bytes for `net`.
pub fn write(net: &Network) -> Vec<u8> {
    let mut b = Vec::with_capacity(64 + 2 * net.l1_w.len());
    b.extend_from_slice(MAGIC);
    b.extend_from_slice(&VERSION.to_le_bytes());
    let name = net.variant.as_bytes();
    let name = &name[..name.len().min(u16::MAX as usize)];
    b.extend_from_slice(&(name.len() as u16).to_le_bytes());
    b.extend_from_slice(name);
    b.extend_from_slice(&net.fingerprint.to_le_bytes());
    b.push(net.layout.files);
    b.push(net.layout.ranks);
    b.extend_from_slice(&(net.layout.kinds as u16).to_le_bytes());
    b.extend_from_slice(&(net.hidden as u16).to_le_bytes());
    b.push(net.buckets as u8);
    b.push(1);
    for q in [QA, QB, SCALE] {
        b.extend_from_slice(&(q as u16).to_le_bytes());
    }
    b.extend_from_slice(&net.max_pieces.to_le_bytes());
    for v in net.l1_w.iter().chain(&net.l1_b).chain(&net.l2_w) {
        b.extend_from_slice(&v.to_le_bytes());
    }
    for v in &net.l2_b {
        b.extend_from_slice(&v.to_le_bytes());
    }
    let mut h = Fnv::default();
    h.bytes(&b);
    b.extend_from_slice(&h.0.to_le_bytes());
    b
}
