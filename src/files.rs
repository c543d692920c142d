//! Reading the files a user names: a regular file of bounded size, or a precise error.
//!
//! A FIFO would block the reader until someone writes to it, and a device such as `/dev/zero`
//! never ends: neither is read. A file larger than its kind may be is refused before it is
//! read, and one that grows while it is read is noticed.

use std::io::Read;
use std::path::Path;

/// Why a file was not read; displayed as `PATH: cannot read the file: WHY`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{path}: cannot read the file: {why}")]
pub struct FileError {
    /// The path as given.
    pub path: String,
    /// What is wrong with it: not found, not a regular file, too large...
    pub why: String,
}

/// Reads `path`, a regular file of at most `max` bytes; `what` names the kind of file in
/// errors (`a variant file`, `an opening file`).
pub fn read_regular_file(path: &Path, max: u64, what: &str) -> Result<Vec<u8>, FileError> {
    let fail = |why: String| FileError {
        path: path.display().to_string(),
        why,
    };
    let not_regular = || fail(format!("not a regular file (expected {what})"));
    let meta = std::fs::metadata(path).map_err(|e| fail(e.to_string()))?;
    if !meta.is_file() {
        return Err(not_regular());
    }
    if meta.len() > max {
        return Err(fail(format!(
            "{} bytes, more than the {max} {what} may have",
            meta.len()
        )));
    }
    let file = std::fs::File::open(path).map_err(|e| fail(e.to_string()))?;
    // The path may name another file now: check what was opened.
    if !file.metadata().is_ok_and(|m| m.is_file()) {
        return Err(not_regular());
    }
    let mut bytes = Vec::new();
    // The file may have grown since: read one byte more than allowed to notice.
    file.take(max + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| fail(e.to_string()))?;
    if bytes.len() as u64 > max {
        return Err(fail(format!("more than the {max} bytes {what} may have")));
    }
    Ok(bytes)
}

/// [`read_regular_file`] for a text file in UTF-8.
pub fn read_text_file(path: &Path, max: u64, what: &str) -> Result<String, FileError> {
    let bytes = read_regular_file(path, max, what)?;
    String::from_utf8(bytes).map_err(|_| FileError {
        path: path.display().to_string(),
        why: format!("not UTF-8 text (expected {what})"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_folders_and_large_files_are_refused() {
        let e = read_regular_file(Path::new("/dev/zero"), 10, "a test file").unwrap_err();
        assert_eq!(
            e.to_string(),
            "/dev/zero: cannot read the file: not a regular file (expected a test file)"
        );
        let e = read_regular_file(Path::new("/"), 10, "a test file").unwrap_err();
        assert!(e.why.contains("not a regular file"), "{e}");
        let dir = std::env::temp_dir().join(format!("polymachy-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("eleven.txt");
        std::fs::write(&f, "hello world").unwrap();
        let e = read_regular_file(&f, 10, "a test file").unwrap_err();
        assert!(
            e.why
                .contains("11 bytes, more than the 10 a test file may have"),
            "{e}"
        );
        assert_eq!(
            read_text_file(&f, 11, "a test file").unwrap(),
            "hello world"
        );
        std::fs::write(&f, b"\xff\xfe").unwrap();
        let e = read_text_file(&f, 11, "a test file").unwrap_err();
        assert!(e.why.contains("not UTF-8"), "{e}");
        let e = read_regular_file(&dir.join("none"), 10, "a test file").unwrap_err();
        assert!(e.why.contains("No such file"), "{e}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
