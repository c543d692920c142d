//! Reading lines that may not be valid UTF-8, nor of any bounded length.
//!
//! `BufRead::lines` stops at the first line that is not UTF-8 (it returns an error, and a
//! `map_while(Result::ok)` loop then ends the session). [`LossyLines`] reads bytes up to each
//! newline instead and decodes them lossily: a bad byte becomes U+FFFD, so the caller can
//! report the line ([`is_garbled`]) and go on with the next one. A line longer than
//! [`MAX_LINE_BYTES`] is read to its end but not kept: the caller is given its first bytes
//! only, marked so ([`is_too_long`]), reports it and goes on.

use std::io::BufRead;

/// The longest line kept, in bytes (its end not counted): 1 MiB, far above any command (a
/// `position` command with a thousand moves is under 10 KB).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// How many of a too long line's first bytes are kept, to show in the error.
const SHOWN_BYTES: usize = 40;

/// The lines of a reader, decoded lossily; ends at the end of input or a read error.
pub struct LossyLines<R> {
    reader: R,
    buf: Vec<u8>,
    max: usize,
}

impl<R: BufRead> LossyLines<R> {
    /// The lines of `reader`, each at most [`MAX_LINE_BYTES`].
    pub fn new(reader: R) -> LossyLines<R> {
        LossyLines::with_max(reader, MAX_LINE_BYTES)
    }

    /// The lines of `reader`, each at most `max` bytes.
    pub fn with_max(reader: R, max: usize) -> LossyLines<R> {
        LossyLines {
            reader,
            buf: Vec::new(),
            max,
        }
    }
}

impl<R: BufRead> Iterator for LossyLines<R> {
    type Item = String;

    /// The next line; one over the bound is consumed to its end while only its first bytes
    /// are kept, and comes back as [`is_too_long`] sees it.
    fn next(&mut self) -> Option<String> {
        self.buf.clear();
        let (mut read, mut over) = (false, false);
        loop {
            let chunk = match self.reader.fill_buf() {
                Ok([]) => break,
                Ok(c) => c,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(_) => break,
            };
            read = true;
            let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (i, true),
                None => (chunk.len(), false),
            };
            if !over && self.buf.len() + take > self.max {
                over = true;
                let room = SHOWN_BYTES.saturating_sub(self.buf.len()).min(take);
                self.buf.extend_from_slice(&chunk[..room]);
                self.buf.truncate(SHOWN_BYTES);
            } else if !over {
                self.buf.extend_from_slice(&chunk[..take]);
            }
            self.reader.consume(if done { take + 1 } else { take });
            if done {
                break;
            }
        }
        if !read {
            return None;
        }
        while matches!(self.buf.last(), Some(b'\n' | b'\r')) {
            self.buf.pop();
        }
        let text = String::from_utf8_lossy(&self.buf);
        // No line read holds a newline: one in front marks a line that was too long.
        Some(if over {
            format!("\n{text}")
        } else {
            text.into_owned()
        })
    }
}

/// What [`read_bounded_line`] read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Bounded {
    /// A line (without its end), decoded lossily.
    Line(String),
    /// More than the bound without a newline: the rest is not read.
    TooLong,
    /// The end of the input (or a read error).
    End,
}

/// Reads one line of at most `max` bytes (its end not counted) into `buf`, which is cleared
/// first: memory stays bounded whatever the other side sends (a stream without newlines is
/// cut off at `max`).
pub fn read_bounded_line<R: BufRead>(reader: &mut R, buf: &mut Vec<u8>, max: usize) -> Bounded {
    buf.clear();
    loop {
        let chunk = match reader.fill_buf() {
            Ok([]) if buf.is_empty() => return Bounded::End,
            Ok([]) => break,
            Ok(c) => c,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return Bounded::End,
        };
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i, true),
            None => (chunk.len(), false),
        };
        if buf.len() + take > max {
            return Bounded::TooLong;
        }
        buf.extend_from_slice(&chunk[..take]);
        reader.consume(if done { take + 1 } else { take });
        if done {
            break;
        }
    }
    while matches!(buf.last(), Some(b'\r')) {
        buf.pop();
    }
    Bounded::Line(String::from_utf8_lossy(buf).into_owned())
}

/// Standard input's lines, decoded lossily.
pub fn stdin_lines() -> LossyLines<std::io::StdinLock<'static>> {
    LossyLines::new(std::io::stdin().lock())
}

/// Whether a line read by [`LossyLines`] held bytes that are not UTF-8.
pub fn is_garbled(line: &str) -> bool {
    line.contains('\u{FFFD}')
}

/// Whether a line read by [`LossyLines`] was longer than its bound (only its first bytes were
/// kept).
pub fn is_too_long(line: &str) -> bool {
    line.starts_with('\n')
}

/// The line with its undecodable bytes shown as `?`, for an error message (a line that was
/// too long: its first bytes, then `...`).
pub fn shown(line: &str) -> String {
    match line.strip_prefix('\n') {
        Some(start) => format!("{}...", start.replace('\u{FFFD}', "?")),
        None => line.replace('\u{FFFD}', "?"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bad_byte_is_replaced_and_reading_goes_on() {
        let input: &[u8] = b"uci\n\xff\xfe\r\nisready";
        let lines: Vec<String> = LossyLines::new(input).collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0], "uci");
        assert!(is_garbled(&lines[1]));
        assert_eq!(shown(&lines[1]), "??");
        assert_eq!(lines[2], "isready");
        assert!(!is_garbled(&lines[2]));
    }

    #[test]
    fn a_line_over_the_bound_is_dropped_and_reading_goes_on() {
        let long = format!("go {}\r\nisready\n", "x".repeat(100));
        // Read in pieces of 7 bytes, as a pipe may give them.
        let reader = std::io::BufReader::with_capacity(7, long.as_bytes());
        let lines: Vec<String> = LossyLines::with_max(reader, 50).collect();
        assert_eq!(lines.len(), 2, "{lines:?}");
        assert!(is_too_long(&lines[0]));
        assert_eq!(shown(&lines[0]), format!("go {}...", "x".repeat(37)));
        assert_eq!(lines[1], "isready");
        assert!(!is_too_long(&lines[1]));
        // Exactly at the bound is kept.
        let lines: Vec<String> = LossyLines::with_max(&b"12345\n123456"[..], 5).collect();
        assert_eq!(lines[0], "12345");
        assert!(is_too_long(&lines[1]));
    }

    #[test]
    fn a_line_past_the_bound_is_cut_off() {
        let mut input: &[u8] = b"uciok\r\n12345678\n123456789\nlast";
        let mut buf = Vec::new();
        let mut next = || read_bounded_line(&mut input, &mut buf, 8);
        assert_eq!(next(), Bounded::Line("uciok".into()));
        assert_eq!(next(), Bounded::Line("12345678".into()));
        assert_eq!(next(), Bounded::TooLong);
        // A stream without any newline, read in small pieces, is cut off too.
        let flood = std::io::BufReader::with_capacity(3, std::io::repeat(b'x'));
        let mut flood = flood;
        let mut buf = Vec::new();
        assert_eq!(
            read_bounded_line(&mut flood, &mut buf, 100),
            Bounded::TooLong
        );
        assert!(buf.len() <= 100);
        let mut input: &[u8] = b"last";
        assert_eq!(
            read_bounded_line(&mut input, &mut buf, 8),
            Bounded::Line("last".into())
        );
        assert_eq!(read_bounded_line(&mut input, &mut buf, 8), Bounded::End);
    }
}
