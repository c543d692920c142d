//! The suite's own helpers: a skipped test is named as `cargo test` names it, and its line goes
//! to the target folder of the build that runs it.

use crate::common::{current_test, skipped_tests_file};

#[test]
fn a_skip_names_the_binary_and_the_test() {
    assert_eq!(
        current_test(),
        "lib::harness::a_skip_names_the_binary_and_the_test"
    );
}

#[test]
fn skips_are_listed_in_the_target_folder() {
    let file = skipped_tests_file();
    assert_eq!(file.file_name().unwrap(), "skipped-tests.txt");
    // This binary runs from TARGET/PROFILE/deps/.
    let exe = std::env::current_exe().unwrap();
    let target = exe.ancestors().nth(3).unwrap();
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) => assert_eq!(file.parent().unwrap(), std::path::Path::new(&dir)),
        None => assert_eq!(file.parent().unwrap(), target),
    }
}
