//! Prints the dump of each `.nav` file named on the command line.
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
