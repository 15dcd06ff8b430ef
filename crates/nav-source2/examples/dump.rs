//! Prints the dump of each `.nav` file named on the command line.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]
fn main() {
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).expect("readable");
        match nav_source2::read(&bytes) {
            Ok(m) => {
                let mut s = String::new();
                let _ = nav_source2::dump::dump(&m, &mut s);
                print!("{s}");
            }
            Err(e) => println!("{path}: {e}"),
        }
    }
}
