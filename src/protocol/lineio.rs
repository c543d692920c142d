//! Reading lines that may not be valid UTF-8.
//!
//! `BufRead::lines` stops at the first line that is not UTF-8 (it returns an error, and a
//! `map_while(Result::ok)` loop then ends the session). [`LossyLines`] reads bytes up to each
//! newline instead and decodes them lossily: a bad byte becomes U+FFFD, so the caller can
//! report the line ([`is_garbled`]) and go on with the next one.

use std::io::BufRead;

/// The lines of a reader, decoded lossily; ends at the end of input or a read error.
pub struct LossyLines<R> {
    reader: R,
    buf: Vec<u8>,
}

impl<R: BufRead> LossyLines<R> {
    pub fn new(reader: R) -> LossyLines<R> {
        LossyLines {
            reader,
            buf: Vec::new(),
        }
    }
}

impl<R: BufRead> Iterator for LossyLines<R> {
    type Item = String;

    fn next(&mut self) -> Option<String> {
        self.buf.clear();
        match self.reader.read_until(b'\n', &mut self.buf) {
            Ok(0) | Err(_) => None,
            Ok(_) => {
                while matches!(self.buf.last(), Some(b'\n' | b'\r')) {
                    self.buf.pop();
                }
                Some(String::from_utf8_lossy(&self.buf).into_owned())
            }
        }
    }
}

/// Standard input's lines, decoded lossily.
pub fn stdin_lines() -> LossyLines<std::io::StdinLock<'static>> {
    LossyLines::new(std::io::stdin().lock())
}

/// Whether a line read by [`LossyLines`] held bytes that are not UTF-8.
pub fn is_garbled(line: &str) -> bool {
    line.contains('\u{FFFD}')
}

/// The line with its undecodable bytes shown as `?`, for an error message.
pub fn shown(line: &str) -> String {
    line.replace('\u{FFFD}', "?")
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
}
