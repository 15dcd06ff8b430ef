//! Every command that writes a file writes it through a temporary file renamed over the target at
//! the end: writing over the command's own input works, and a refused model, a full disk (a
//! file-size limit) or an unwritable folder leave the target exactly as it was.
// Test code: a panic is a failed test, and the values cast are small known ones.
#![allow(
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::cast_possible_truncation
)]

use std::path::{Path, PathBuf};
use std::process::Output;

mod common;
use common::{fresh_dir, navkit, s, stderr, stdout, workspace};

/// A sample with nothing to fix, larger than 1 KiB (so that a one-block file-size limit stops
/// any write of it, whether the shell counts 512 or 1024 bytes a block).
const NAV2: &str = "samples/mgsv/crossing.nav2";
/// A sample plugin: two navmeshes, `00000801` compressed and `00000802` not.
const PLUGIN: &str = "samples/skyrim/navkit_room.esp";
/// A Skyrim mesh in the game's Z-up axes, for `build`.
const MESH: &str = "samples/meshes/skyrim_two_rooms.obj";
/// Bytes no command writes: what a target holds before a run that must not change it.
const OLD: &[u8] = b"the target's old bytes, which a failed run must leave alone\n";

/// One command that writes one file: how to run it with a given input and output, and its input.
struct Writer {
    /// A name for messages.
    name: &'static str,
    /// The input to copy into the test folder (relative to the workspace), and the name to give
    /// the copy (its ending matters to some commands).
    input: (&'static str, &'static str),
    /// The output's file name when it is not the input.
    output: &'static str,
    /// The arguments, given the input and output paths.
    args: fn(&str, &str) -> Vec<String>,
}

fn strings(list: &[&str]) -> Vec<String> {
    list.iter().map(|a| a.to_string()).collect()
}

/// Every command that writes a single file named by `-o`.
fn writers() -> Vec<Writer> {
    vec![
        Writer {
            name: "rewrite",
            input: (NAV2, "in.nav2"),
            output: "out.nav2",
            args: |i, o| strings(&["rewrite", i, "-o", o]),
        },
        Writer {
            name: "rewrite --stream",
            input: (NAV2, "in.nav2"),
            output: "out.nav2",
            args: |i, o| strings(&["rewrite", "--stream", i, "-o", o]),
        },
        Writer {
            name: "to-json",
            input: (NAV2, "in.nav2"),
            output: "out.json",
            args: |i, o| strings(&["to-json", i, "-o", o]),
        },
        Writer {
            name: "fix",
            input: (NAV2, "in.nav2"),
            output: "out.nav2",
            args: |i, o| strings(&["fix", i, "-o", o]),
        },
        Writer {
            name: "build",
            input: (MESH, "in.obj"),
            output: "out.nvnm",
            args: |i, o| strings(&["build", "--format", "nvnm-skyrim", "--up", "z", i, "-o", o]),
        },
        Writer {
            name: "replace",
            input: (PLUGIN, "in.esp"),
            output: "out.esp",
            // The part is the plugin's own navmesh: the plugin comes back unchanged.
            args: |i, o| {
                let part = part_of_sample();
                strings(&["replace", i, "00000802", s(&part), "-o", o])
            },
        },
        Writer {
            name: "export",
            input: (NAV2, "in.obj"),
            output: "out.obj",
            args: |i, o| strings(&["--format", "nav2-mgsv", "export", i, "-o", o]),
        },
        Writer {
            name: "render",
            input: (NAV2, "in.svg"),
            output: "out.svg",
            args: |i, o| strings(&["--format", "nav2-mgsv", "render", i, "-o", o]),
        },
    ]
}

/// The `NVNM` of the sample plugin's navmesh `00000802`, extracted once into a file.
fn part_of_sample() -> PathBuf {
    let dir = fresh_dir(&format!("part-{:?}", std::thread::current().id()));
    let o = navkit(&["extract", PLUGIN, "-o", s(&dir)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let part = dir.join("navkit_room_00000802.nvnm");
    assert!(part.is_file(), "{}", stdout(&o));
    part
}

/// The input of `w` copied into `dir`.
fn copy_input(w: &Writer, dir: &Path) -> PathBuf {
    let input = dir.join(w.input.1);
    std::fs::copy(workspace().join(w.input.0), &input).unwrap();
    input
}

/// Runs `w`, asserting success.
fn run_ok(w: &Writer, input: &Path, output: &Path) -> Output {
    let o = navkit(&(w.args)(s(input), s(output)));
    assert!(o.status.success(), "{}: {}", w.name, stderr(&o));
    o
}

/// Temporary files navkit left in `dir`.
fn leftovers(dir: &Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.contains(".navkit-") && n.ends_with(".tmp"))
        .collect()
}

#[test]
fn every_writer_may_write_over_its_own_input() {
    for w in writers() {
        let dir = fresh_dir(&format!("own-{}", w.name.replace(' ', "_")));
        // What the command writes to another file ...
        let input = copy_input(&w, &dir);
        let elsewhere = dir.join(w.output);
        run_ok(&w, &input, &elsewhere);
        let expected = std::fs::read(&elsewhere).unwrap();
        assert!(!expected.is_empty(), "{}", w.name);
        // ... it writes over its input as well.
        run_ok(&w, &input, &input);
        assert!(
            std::fs::read(&input).unwrap() == expected,
            "{}: the result over the input differs from the result elsewhere",
            w.name
        );
        assert_eq!(leftovers(&dir), Vec::<String>::new(), "{}", w.name);
    }
}

#[test]
fn rewrite_replace_and_json_over_the_input_give_the_same_bytes() {
    let dir = fresh_dir("same-bytes");
    let original = std::fs::read(workspace().join(NAV2)).unwrap();
    let file = dir.join("crossing.nav2");
    std::fs::write(&file, &original).unwrap();
    for stream in [false, true] {
        let mut args = vec!["rewrite", s(&file), "-o", s(&file)];
        if stream {
            args.insert(1, "--stream");
        }
        let o = navkit(&args);
        assert!(o.status.success(), "{}", stderr(&o));
        assert!(std::fs::read(&file).unwrap() == original, "stream {stream}");
    }
    // To JSON over itself and back over itself: the original bytes.
    let o = navkit(&["to-json", s(&file), "-o", s(&file)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read(&file).unwrap().starts_with(b"{"));
    let o = navkit(&["from-json", s(&file), "-o", s(&file)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read(&file).unwrap() == original);
    // A plugin with one of its own navmeshes put back over itself.
    let plugin = dir.join("room.esp");
    let bytes = std::fs::read(workspace().join(PLUGIN)).unwrap();
    std::fs::write(&plugin, &bytes).unwrap();
    let part = part_of_sample();
    let o = navkit(&[
        "replace",
        s(&plugin),
        "0x00000802",
        s(&part),
        "-o",
        s(&plugin),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read(&plugin).unwrap() == bytes);
    assert_eq!(leftovers(&dir), Vec::<String>::new());
}

#[test]
fn a_refused_model_leaves_the_target_alone() {
    let dir = fresh_dir("refused");
    let plugin = std::fs::read(workspace().join(PLUGIN)).unwrap();
    let cut = dir.join("cut.esp");
    std::fs::write(&cut, &plugin[..plugin.len() - 7]).unwrap();
    let target = dir.join("target.esp");
    std::fs::write(&target, OLD).unwrap();
    // A stream that fails part way, into another file and over itself.
    for out in [&target, &cut] {
        let before = std::fs::read(out).unwrap();
        let o = navkit(&["rewrite", "--stream", s(&cut), "-o", s(out)]);
        assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
        assert!(stderr(&o).contains("offset 0x"), "{}", stderr(&o));
        assert!(std::fs::read(out).unwrap() == before, "{}", out.display());
    }
    // A model that does not read from its JSON.
    let json = dir.join("broken.json");
    let o = navkit(&["to-json", NAV2, "-o", s(&json)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let text = std::fs::read_to_string(&json).unwrap();
    std::fs::write(&json, text.replacen('[', "[\"not a number\", ", 1)).unwrap();
    let o = navkit(&["from-json", s(&json), "-o", s(&target)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    // A part that is not a navmesh.
    let junk = dir.join("junk.nvnm");
    std::fs::write(&junk, b"not a navmesh at all").unwrap();
    let o = navkit(&["replace", PLUGIN, "00000802", s(&junk), "-o", s(&target)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("junk.nvnm"), "{}", stderr(&o));
    // An input that does not read, to JSON.
    let o = navkit(&["to-json", s(&cut), "-o", s(&target)]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(std::fs::read(&target).unwrap() == OLD);
    assert_eq!(leftovers(&dir), Vec::<String>::new());
}

/// Runs `args` with a file-size limit of `blocks` blocks (`ulimit -f`). The write past the
/// limit gets SIGXFSZ, which kills the process, or EFBIG where the signal is ignored.
fn navkit_limited(blocks: u32, args: &[String]) -> Output {
    let mut command = format!("ulimit -f {blocks}; exec \"$0\"");
    for i in 1..=args.len() {
        command.push_str(&format!(" \"${i}\""));
    }
    std::process::Command::new("sh")
        .arg("-c")
        .arg(command)
        .arg(env!("CARGO_BIN_EXE_navkit"))
        .args(args)
        .current_dir(workspace())
        .output()
        .expect("sh runs")
}

/// Removes what a run killed by a signal left behind, so that the next check sees only its own.
fn clear_leftovers(dir: &Path) {
    for name in leftovers(dir) {
        std::fs::remove_file(dir.join(name)).unwrap();
    }
}

#[test]
fn a_full_disk_leaves_the_target_alone() {
    for w in writers() {
        let dir = fresh_dir(&format!("full-{}", w.name.replace(' ', "_")));
        let input = copy_input(&w, &dir);
        let input_bytes = std::fs::read(&input).unwrap();
        let target = dir.join(w.output);
        std::fs::write(&target, OLD).unwrap();
        // Not even one byte may be written; then nothing past the first block.
        for blocks in [0, 1] {
            for out in [&target, &input] {
                let before = std::fs::read(out).unwrap();
                let o = navkit_limited(blocks, &(w.args)(s(&input), s(out)));
                assert!(
                    !o.status.success(),
                    "{} with {blocks} blocks: {}",
                    w.name,
                    stderr(&o)
                );
                assert!(
                    std::fs::read(out).unwrap() == before,
                    "{}: {} changed",
                    w.name,
                    out.display()
                );
                clear_leftovers(&dir);
            }
        }
        assert!(std::fs::read(&target).unwrap() == OLD);
        assert!(std::fs::read(&input).unwrap() == input_bytes);
    }
}

#[test]
fn a_stream_cut_short_half_way_leaves_the_target_alone() {
    // 132 KB of output against a limit of 32 or 64 KiB: the first write goes part way.
    let dir = fresh_dir("half-way");
    let input = dir.join("town.nvm");
    std::fs::copy(
        workspace().join("samples/silkroad/nv_61a8_town.nvm"),
        &input,
    )
    .unwrap();
    let original = std::fs::read(&input).unwrap();
    assert!(original.len() > 128 << 10);
    let args = strings(&["rewrite", "--stream", s(&input), "-o", s(&input)]);
    let o = navkit_limited(64, &args);
    assert!(!o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read(&input).unwrap() == original);
    clear_leftovers(&dir);
    // Without the limit, the same command works.
    let o = navkit(&args);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::read(&input).unwrap() == original);
    assert_eq!(leftovers(&dir), Vec::<String>::new());
}

/// Asserts a failed run: exit 1 and one line on standard error that names `path`.
fn assert_one_line_naming(o: &Output, path: &Path, what: &str) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(1), "{what}: {err}");
    assert_eq!(err.lines().count(), 1, "{what}: {err}");
    assert!(
        err.starts_with(&format!("navkit: {}: ", path.display())),
        "{what}: {err}"
    );
}

#[test]
fn an_unwritable_folder_fails_with_one_line_naming_the_path() {
    for w in writers() {
        let dir = fresh_dir(&format!("unwritable-{}", w.name.replace(' ', "_")));
        let input = copy_input(&w, &dir);
        // Root may write anywhere chmod allows nothing, but not into /proc, nor below a file.
        let in_proc = Path::new("/proc").join(w.output);
        let below_file = input.join(w.output);
        for out in [&in_proc, &below_file] {
            let o = navkit(&(w.args)(s(&input), s(out)));
            assert_one_line_naming(&o, out, w.name);
        }
        assert!(
            std::fs::read(&input).unwrap() == std::fs::read(workspace().join(w.input.0)).unwrap()
        );
        assert_eq!(leftovers(&dir), Vec::<String>::new());
    }
}

#[test]
fn folders_of_outputs_fail_with_the_path_too() {
    let dir = fresh_dir("unwritable-folders");
    let file = dir.join("plain-file");
    std::fs::write(&file, OLD).unwrap();
    let below_file = file.join("out");
    // extract: one line naming the folder.
    let o = navkit(&["extract", PLUGIN, "-o", s(&below_file)]);
    assert_one_line_naming(&o, &below_file, "extract");
    // export into a folder: the file's FAIL line names the path that could not be made.
    let o = navkit(&["export", NAV2, "-o", s(&below_file), "--as", "obj"]);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(
        out.lines()
            .any(|l| l.starts_with("FAIL  ") && l.contains(s(&below_file))),
        "{out}"
    );
    assert!(std::fs::read(&file).unwrap() == OLD);
}

#[test]
fn folder_writers_replace_their_files_whole() {
    let dir = fresh_dir("folder-writers");
    // extract over files already there, one of them longer than the part.
    let blob = dir.join("navkit_room_00000802.nvnm");
    std::fs::write(&blob, vec![b'x'; 10_000]).unwrap();
    let o = navkit(&["extract", PLUGIN, "-o", s(&dir)]);
    assert!(o.status.success(), "{}", stderr(&o));
    let part = std::fs::read(&blob).unwrap();
    assert!(
        part.len() < 10_000 && part.starts_with(b"\x0c\x00\x00\x00"),
        "{}",
        part.len()
    );
    // export into a folder, over an earlier export, then with a file-size limit.
    let out = dir.join("exported");
    let args = strings(&["export", NAV2, "-o", s(&out), "--as", "obj"]);
    let o = navkit(&args);
    assert!(o.status.success(), "{}", stdout(&o));
    let obj = out.join("crossing.nav2.obj");
    let first = std::fs::read(&obj).unwrap();
    let o = navkit(&args);
    assert!(o.status.success(), "{}", stdout(&o));
    assert!(std::fs::read(&obj).unwrap() == first);
    std::fs::write(&obj, OLD).unwrap();
    let o = navkit_limited(0, &args);
    assert!(!o.status.success());
    assert!(std::fs::read(&obj).unwrap() == OLD);
    clear_leftovers(&out);
    assert_eq!(leftovers(&dir), Vec::<String>::new());
}

#[test]
fn a_link_stays_a_link_and_permissions_stay() {
    use std::os::unix::fs::PermissionsExt;
    let dir = fresh_dir("link");
    let real = dir.join("real.nav2");
    std::fs::copy(workspace().join(NAV2), &real).unwrap();
    std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o640)).unwrap();
    let link = dir.join("link.nav2");
    std::os::unix::fs::symlink("real.nav2", &link).unwrap();
    let o = navkit(&["to-json", s(&link), "-o", s(&link)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(std::fs::read(&real).unwrap().starts_with(b"{"));
    let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    // A link to a file not there yet: the file is made where the link points.
    let dangling = dir.join("dangling.nav2");
    std::os::unix::fs::symlink("made.nav2", &dangling).unwrap();
    let o = navkit(&["rewrite", NAV2, "-o", s(&dangling)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        std::fs::symlink_metadata(&dangling)
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(
        std::fs::read(dir.join("made.nav2")).unwrap()
            == std::fs::read(workspace().join(NAV2)).unwrap()
    );
    assert_eq!(leftovers(&dir), Vec::<String>::new());
}
