//! A small driver for instruction counts (`valgrind --tool=callgrind`): runs one stage of the
//! reader `N` times on a file. `profile <parse|to_model|decode|write> <N> <file.nav>`; `decode`
//! decodes the file's custom-data KV3 blob.
// Test code: a panic is a failed run.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::hint::black_box;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [stage, n, path] = args.as_slice() else {
        eprintln!("usage: profile <parse|to_model|decode|write> <N> <file.nav>");
        std::process::exit(2);
    };
    let n: usize = n.parse().expect("N is a number");
    let bytes = std::fs::read(path).expect("readable");
    let model = nav_source2::read(&bytes).expect("file parses");
    let mut total = 0usize;
    for _ in 0..n {
        total += match stage.as_str() {
            "parse" => nav_source2::Source2View::parse(black_box(&bytes))
                .expect("parses")
                .areas()
                .len(),
            "to_model" => {
                let view = nav_source2::Source2View::parse(black_box(&bytes)).expect("parses");
                nav_source2::Source2Mesh::from_view(&view).areas.len()
            }
            "decode" => {
                let blob = model.custom_data.as_ref().expect("custom data");
                let doc = black_box(blob).decode().expect("decodes");
                usize::from(doc.format[0])
            }
            "write" => nav_source2::write(black_box(&model)).expect("writes").len(),
            other => panic!("unknown stage {other}"),
        };
    }
    println!("{stage} x{n}: {total}");
}
