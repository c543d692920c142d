//! Training data: positions from self-play with their search score and the game's result, in
//! a compact binary file. All numbers little-endian.
//!
//! The file starts with a header ([`Header`]): magic `PMDG`, format version, the variant's name
//! and fingerprint, the settings that made the data (seed, games, nodes, opening plies), the
//! shard (`index` of `count`) and what the scores are ([`Label`]: a byte, 0 the search's
//! score, 1 the static evaluation; format 1 files have no such byte and hold search scores).
//! Then come games, in the order of their numbers, each a block:
//!
//! | field | type |
//! |---|---|
//! | game number | u32 |
//! | result for White: 0 loss, 1 draw, 2 win | u8 |
//! | positions | u16 |
//! | each position: side to move (0 White, 1 Black), pieces `n`, `n` × (square, piece code), score for the side to move in centipawns | u8, u8, 2n × u8, i16 |
//!
//! A shard holds the games whose number is its index modulo the shard count, each once, in the
//! order of their numbers; reading refuses a file where a game is out of that order (a game
//! appended twice), a result other than 0, 1 or 2, a side other than 0 or 1, or the score
//! −32768 (a score must be one the other side can take negated), naming the game record (from
//! 1, in file order) and the position in it. Merging the shards of one run ([`merge`]) gives,
//! byte for byte, the file one process writes for all the games. A file cut off in the middle
//! of a game is read up to its last whole game, so that a run can resume.

use std::io::Write;

use crate::geometry::Square;
use crate::moves::Code;

const MAGIC: &[u8; 4] = b"PMDG";
/// The data format version.
pub const VERSION: u16 = 2;

/// What a position's score is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Label {
    /// The score of the search that chose the game's move.
    #[default]
    Search,
    /// The static evaluation (the variant's own, or the network's that datagen was given):
    /// data to distil that evaluation into a network.
    Eval,
}

impl Label {
    fn byte(self) -> u8 {
        match self {
            Label::Search => 0,
            Label::Eval => 1,
        }
    }
}

/// What a data file is for and how it was made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The variant's `id`.
    pub variant: String,
    /// The fingerprint of its board and pieces (`nnue::fingerprint`).
    pub fingerprint: u64,
    /// Seed of the openings.
    pub seed: u64,
    /// Games in the whole run (all shards).
    pub games: u32,
    /// Nodes searched per move.
    pub nodes: u64,
    /// Random plies that open each game.
    pub opening_plies: u16,
    /// This file's shard: `index` of `count` (0 of 1: every game).
    pub shard_index: u32,
    /// Shards in the whole run.
    pub shard_count: u32,
    /// What the scores are.
    pub label: Label,
}

/// One position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    /// 0: White to move, 1: Black.
    pub side: u8,
    /// (square, piece code) of each piece.
    pub pieces: Vec<(Square, Code)>,
    /// The score for the side to move, in centipawns (what it is: the header's [`Label`]).
    pub score: i16,
}

/// One game's positions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameBlock {
    /// The game's number in the whole run.
    pub game: u32,
    /// White's result: 0 loss, 1 draw, 2 win.
    pub result: u8,
    /// Its positions, in the order played.
    pub records: Vec<Record>,
}

/// A problem reading a data file.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// The file cannot be read or written (path, cause).
    #[error("{0}: {1}")]
    Io(String, std::io::Error),
    /// The file does not start with the data files' magic bytes (path).
    #[error("{0}: not a Polymachy training data file")]
    Magic(String),
    /// The file is in another format version (path, version).
    #[error("{0}: data format {1}; this engine reads formats 1 to {VERSION}")]
    Version(String, u16),
    /// The file is damaged (path, what is wrong).
    #[error("{0}: {1}")]
    Bad(String, String),
}

impl Header {
    /// The header's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(MAGIC);
        b.extend_from_slice(&VERSION.to_le_bytes());
        let name = self.variant.as_bytes();
        let name = &name[..name.len().min(255)];
        b.push(name.len() as u8);
        b.extend_from_slice(name);
        b.extend_from_slice(&self.fingerprint.to_le_bytes());
        b.extend_from_slice(&self.seed.to_le_bytes());
        b.extend_from_slice(&self.games.to_le_bytes());
        b.extend_from_slice(&self.nodes.to_le_bytes());
        b.extend_from_slice(&self.opening_plies.to_le_bytes());
        b.extend_from_slice(&self.shard_index.to_le_bytes());
        b.extend_from_slice(&self.shard_count.to_le_bytes());
        b.push(self.label.byte());
        b
    }

    /// Whether `self` and `other` are shards of one run.
    pub fn same_run(&self, other: &Header) -> bool {
        let strip = |h: &Header| Header {
            shard_index: 0,
            shard_count: 1,
            ..h.clone()
        };
        strip(self) == strip(other)
    }
}

impl GameBlock {
    /// Appends the block's bytes to `out`.
    pub fn write_to(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.game.to_le_bytes());
        out.push(self.result);
        out.extend_from_slice(&(self.records.len().min(u16::MAX as usize) as u16).to_le_bytes());
        for r in self.records.iter().take(u16::MAX as usize) {
            out.push(r.side);
            out.push(r.pieces.len() as u8);
            for &(sq, c) in &r.pieces {
                out.push(sq.byte());
                out.push(c.byte());
            }
            out.extend_from_slice(&r.score.to_le_bytes());
        }
    }
}

/// Reads bytes one field at a time; `None` at the end of the data.
struct Cursor<'a> {
    b: &'a [u8],
    at: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let s = self.b.get(self.at..self.at + n)?;
        self.at += n;
        Some(s)
    }
    fn u8(&mut self) -> Option<u8> {
        Some(self.take(1)?[0])
    }
    fn u16(&mut self) -> Option<u16> {
        Some(u16::from_le_bytes(self.take(2)?.try_into().ok()?))
    }
    fn u32(&mut self) -> Option<u32> {
        Some(u32::from_le_bytes(self.take(4)?.try_into().ok()?))
    }
    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.take(8)?.try_into().ok()?))
    }
}

fn read_header(c: &mut Cursor, name: &str) -> Result<Header, DataError> {
    if c.take(4) != Some(&MAGIC[..]) {
        return Err(DataError::Magic(name.into()));
    }
    let short = || DataError::Bad(name.into(), "the header ends early".into());
    let v = c.u16().ok_or_else(short)?;
    if !(1..=VERSION).contains(&v) {
        return Err(DataError::Version(name.into(), v));
    }
    let n = c.u8().ok_or_else(short)? as usize;
    let variant = String::from_utf8(c.take(n).ok_or_else(short)?.to_vec())
        .map_err(|_| DataError::Bad(name.into(), "the variant name is not UTF-8".into()))?;
    let mut h = Header {
        variant,
        fingerprint: c.u64().ok_or_else(short)?,
        seed: c.u64().ok_or_else(short)?,
        games: c.u32().ok_or_else(short)?,
        nodes: c.u64().ok_or_else(short)?,
        opening_plies: c.u16().ok_or_else(short)?,
        shard_index: c.u32().ok_or_else(short)?,
        shard_count: c.u32().ok_or_else(short)?,
        label: Label::Search,
    };
    if v >= 2 {
        h.label = match c.u8().ok_or_else(short)? {
            0 => Label::Search,
            1 => Label::Eval,
            b => {
                let m = format!("the header's label {b}, not 0 (search) or 1 (evaluation)");
                return Err(DataError::Bad(name.into(), m));
            }
        };
    }
    Ok(h)
}

fn read_block(c: &mut Cursor) -> Option<GameBlock> {
    let game = c.u32()?;
    let result = c.u8()?;
    let n = c.u16()? as usize;
    let mut records = Vec::with_capacity(n);
    for _ in 0..n {
        let side = c.u8()?;
        let k = c.u8()? as usize;
        let raw = c.take(2 * k)?;
        let pieces = raw
            .chunks_exact(2)
            .map(|p| (Square::new(p[0]), Code::from_byte(p[1])))
            .collect();
        let score = i16::from_le_bytes(c.take(2)?.try_into().ok()?);
        records.push(Record {
            side,
            pieces,
            score,
        });
    }
    Some(GameBlock {
        game,
        result,
        records,
    })
}

/// What is wrong with `g`, the game record after `before` others in a file with `header`:
/// a game out of the shard's order, a result, side or score out of its range.
fn check_block(header: &Header, before: usize, g: &GameBlock) -> Result<(), String> {
    let n = before + 1;
    let expected = header.shard_index as u64 + before as u64 * header.shard_count as u64;
    let game = g.game as u64;
    if game < expected {
        return Err(format!(
            "record {n}: game {game} a second time (each game is written once, in the order of the numbers)"
        ));
    }
    if game != expected || expected >= header.games as u64 {
        return Err(format!(
            "record {n}: game {game}, where the shard's next game is {expected} (of {} in the run)",
            header.games
        ));
    }
    if g.result > 2 {
        return Err(format!(
            "record {n} (game {game}): result {}, not 0, 1 or 2",
            g.result
        ));
    }
    for (i, r) in g.records.iter().enumerate() {
        let at = format!("record {n} (game {game}), position {}", i + 1);
        if r.side > 1 {
            return Err(format!(
                "{at}: side to move {}, not 0 (White) or 1 (Black)",
                r.side
            ));
        }
        if r.score == i16::MIN {
            return Err(format!(
                "{at}: score {}, out of range (-32767 to 32767)",
                r.score
            ));
        }
    }
    Ok(())
}

/// A data file read: its header, its whole games, and the length of the part that holds them
/// (a file cut off mid-game is longer).
pub struct DataFile {
    /// The header.
    pub header: Header,
    /// The whole games, in file order.
    pub games: Vec<GameBlock>,
    /// Bytes up to the end of the last whole game.
    pub whole_len: usize,
}

/// The most bytes a data file may have (4 GiB).
pub const MAX_DATA_BYTES: u64 = 4 << 30;

/// Reads a data file (a regular file of at most [`MAX_DATA_BYTES`]).
pub fn read_file(path: &str) -> Result<DataFile, DataError> {
    let bytes = crate::files::read_regular_file(
        std::path::Path::new(path),
        MAX_DATA_BYTES,
        "a training data file",
    )
    .map_err(|e| DataError::Bad(path.into(), format!("cannot read the file: {}", e.why)))?;
    read_bytes(&bytes, path)
}

/// Reads a data file's bytes (`name` for messages).
pub fn read_bytes(bytes: &[u8], name: &str) -> Result<DataFile, DataError> {
    let mut c = Cursor { b: bytes, at: 0 };
    let header = read_header(&mut c, name)?;
    if header.shard_count == 0 || header.shard_index >= header.shard_count {
        let m = format!(
            "the header names shard {} of {}",
            header.shard_index, header.shard_count
        );
        return Err(DataError::Bad(name.into(), m));
    }
    let mut games = Vec::new();
    let mut whole_len = c.at;
    while c.at < bytes.len() {
        match read_block(&mut c) {
            Some(g) => {
                check_block(&header, games.len(), &g)
                    .map_err(|m| DataError::Bad(name.into(), m))?;
                whole_len = c.at;
                games.push(g);
            }
            None => break,
        }
    }
    Ok(DataFile {
        header,
        games,
        whole_len,
    })
}

/// Writes the shards of one run as one file: the header of a whole run (shard 0 of 1), then
/// every game in the order of its number. Refuses shards of different runs, a game given
/// twice, and games missing from the run.
pub fn merge(shards: &[DataFile], out: &mut impl Write) -> Result<(usize, usize), String> {
    let Some(first) = shards.first() else {
        return Err("no data files to merge".into());
    };
    if let Some(s) = shards.iter().find(|s| !s.header.same_run(&first.header)) {
        return Err(format!(
            "shard {}/{} was made with other settings than shard {}/{}",
            s.header.shard_index,
            s.header.shard_count,
            first.header.shard_index,
            first.header.shard_count
        ));
    }
    let mut games: Vec<&GameBlock> = shards.iter().flat_map(|s| &s.games).collect();
    games.sort_by_key(|g| g.game);
    if let Some(w) = games.windows(2).find(|w| w[0].game == w[1].game) {
        return Err(format!("game {} is in two shards", w[0].game));
    }
    if games.len() != first.header.games as usize {
        return Err(format!(
            "{} of the run's {} games are there (a shard is missing or unfinished)",
            games.len(),
            first.header.games
        ));
    }
    let header = Header {
        shard_index: 0,
        shard_count: 1,
        ..first.header.clone()
    };
    let mut buf = header.to_bytes();
    let mut positions = 0;
    for g in &games {
        g.write_to(&mut buf);
        positions += g.records.len();
    }
    out.write_all(&buf).map_err(|e| e.to_string())?;
    Ok((games.len(), positions))
}
