//! Collecting the files a batch command works on, working on them on every core, and showing
//! progress on a terminal.

use std::collections::BTreeMap;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, mpsc};

/// How many threads a batch uses: `jobs` when given (at least 1), else every core.
pub fn threads(jobs: Option<usize>) -> usize {
    jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .max(1)
}

/// Runs `work` on every item on up to `threads` threads and hands each result to `sink` in the
/// items' order, as soon as it and every result before it are done. Output stays in the order a
/// one-thread run gives, whatever thread finishes first; results wait only while an earlier item
/// is still running, so at most a few are held at once.
pub fn for_each_ordered<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    work: impl Fn(&T) -> R + Sync,
    sink: impl FnMut(&T, R),
) {
    for_each_ordered_by_cost(items, threads, |_| 0, work, sink);
}

/// [`for_each_ordered`], with the helper threads starting on the costliest items (by `cost`, a
/// file's size say; equal costs in the items' order) and the calling thread on the cheapest, the
/// two ends meeting on middling items. One large file left for last would keep one thread busy
/// while the others wait; and two large files at once, each the first pass of its thread through
/// fresh memory, fault pages in side by side, which threads of one process contend on (the
/// corpus's two largest files took 12–14 ms each that way, against 7–8 ms one at a time).
/// Results still reach `sink` in the items' order.
pub fn for_each_ordered_by_cost<T: Sync, R: Send>(
    items: &[T],
    threads: usize,
    cost: impl Fn(&T) -> u64,
    work: impl Fn(&T) -> R + Sync,
    mut sink: impl FnMut(&T, R),
) {
    let threads = threads.clamp(1, items.len().max(1));
    if threads == 1 {
        for item in items {
            sink(item, work(item));
        }
        return;
    }
    // Each item's cost once: `cost` may be a system call (a file's size), and a sort that asked
    // for it at every comparison would make thousands of them before any work starts.
    let mut order: Vec<usize> = (0..items.len()).collect();
    order.sort_by_cached_key(|&i| core::cmp::Reverse(items.get(i).map_or(0, &cost)));
    let left = Ends::new(order.len());
    let (tx, rx) = mpsc::channel();
    let costliest = || left.front().and_then(|k| order.get(k)).copied();
    let cheapest = || left.back().and_then(|k| order.get(k)).copied();
    std::thread::scope(|scope| {
        // `threads - 1` helpers; the calling thread is the last worker. It keeps its allocator
        // arena (a helper thread starts an arena of its own, which grows by mprotect and
        // shrinks by madvise) and hands results on between its own items.
        for _ in 1..threads {
            let (tx, work, costliest) = (tx.clone(), &work, &costliest);
            scope.spawn(move || {
                while let Some(i) = costliest() {
                    let Some(item) = items.get(i) else { break };
                    if tx.send((i, work(item))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let mut waiting = BTreeMap::new();
        let mut due = 0;
        let mut hand_on = |waiting: &mut BTreeMap<usize, R>| {
            while let Some(result) = waiting.remove(&due) {
                sink(&items[due], result);
                due += 1;
            }
        };
        while let Some(i) = cheapest() {
            let Some(item) = items.get(i) else { break };
            let result = work(item);
            waiting.insert(i, result);
            waiting.extend(rx.try_iter());
            hand_on(&mut waiting);
        }
        for (i, result) in rx {
            waiting.insert(i, result);
            hand_on(&mut waiting);
        }
    });
}

/// The positions `front..back` of a list not yet taken, taken from either end.
struct Ends(Mutex<(usize, usize)>);

impl Ends {
    fn new(len: usize) -> Self {
        Ends(Mutex::new((0, len)))
    }

    /// The two ends. Nothing panics while holding them, and a poisoned lock still holds valid
    /// ends, so a batch never skips items for it.
    fn lock(&self) -> std::sync::MutexGuard<'_, (usize, usize)> {
        self.0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Takes the first position left.
    fn front(&self) -> Option<usize> {
        let mut ends = self.lock();
        let (front, back) = *ends;
        (front < back).then(|| {
            ends.0 = front + 1;
            front
        })
    }

    /// Takes the last position left.
    fn back(&self) -> Option<usize> {
        let mut ends = self.lock();
        let (front, back) = *ends;
        (front < back).then(|| {
            ends.1 = back - 1;
            back - 1
        })
    }
}

/// Reads the file at `path` into a buffer the calling thread keeps for its next file, and hands
/// the bytes to `work`. A batch thread then reuses one allocation: a fresh file-sized buffer per
/// file costs a map, page faults and an unmap, which the threads of a batch contend on (the
/// unmap stalls the other thread's page faults).
pub fn with_file<R>(path: &Path, work: impl FnOnce(&[u8]) -> R) -> std::io::Result<R> {
    thread_local! {
        static BUFFER: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    BUFFER.with(|buffer| {
        // A `work` that reads another file on this thread gets a buffer of its own.
        let mut owned;
        let mut borrowed = buffer.try_borrow_mut();
        let bytes: &mut Vec<u8> = match borrowed.as_deref_mut() {
            Ok(b) => b,
            Err(_) => {
                owned = Vec::new();
                &mut owned
            }
        };
        bytes.clear();
        std::io::Read::read_to_end(&mut std::fs::File::open(path)?, bytes)?;
        Ok(work(bytes))
    })
}

/// A file's size, the cost [`for_each_ordered_by_cost`] schedules batches of files by (0 when
/// it cannot be read: the work on it will say why).
pub fn file_size(item: &(PathBuf, bool)) -> u64 {
    std::fs::metadata(&item.0).map_or(0, |m| m.len())
}

/// Every file below the given paths: files as given, directories recursed in sorted order.
/// Path components named in `exclude` (folder or file names) are left out.
pub fn files(paths: &[PathBuf], exclude: &[String]) -> Result<Vec<(PathBuf, bool)>, String> {
    let mut out = Vec::new();
    for p in paths {
        let meta = std::fs::metadata(p).map_err(|e| format!("{}: {e}", p.display()))?;
        if meta.is_dir() {
            walk(p, exclude, &mut out);
        } else {
            out.push((p.clone(), true));
        }
    }
    Ok(out)
}

fn walk(dir: &Path, exclude: &[String], out: &mut Vec<(PathBuf, bool)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    // Whether an entry is a folder comes with the listing (no `stat` per file, which a batch
    // over thousands of files paid before its first file was read); a symbolic link is
    // followed to see what it names.
    let mut entries: Vec<_> = entries
        .flatten()
        .map(|e| {
            let path = e.path();
            let dir = match e.file_type() {
                Ok(t) if !t.is_symlink() => t.is_dir(),
                _ => path.is_dir(),
            };
            (path, dir)
        })
        .collect();
    entries.sort();
    for (path, dir) in entries {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        if name.starts_with('.') || exclude.contains(&name) {
            continue;
        }
        if dir {
            walk(&path, exclude, out);
        } else {
            out.push((path, false));
        }
    }
}

/// A one-line progress display on stderr, shown only when stderr is a terminal.
pub struct Progress {
    total: usize,
    done: usize,
    shown: bool,
}

impl Progress {
    /// Progress over `total` items; silent when stderr is not a terminal or the batch is small.
    pub fn new(total: usize) -> Self {
        Progress {
            total,
            done: 0,
            shown: total >= 8 && std::io::stderr().is_terminal(),
        }
    }

    /// Marks one more item done, naming it.
    pub fn step(&mut self, name: &str) {
        self.done += 1;
        if self.shown {
            let width = 30;
            let filled = width * self.done / self.total.max(1);
            let mut name: String = name.chars().rev().take(40).collect();
            name = name.chars().rev().collect();
            let mut err = std::io::stderr().lock();
            let _ = write!(
                err,
                "\r\x1b[2K[{}{}] {}/{} {name}",
                "#".repeat(filled),
                " ".repeat(width - filled),
                self.done,
                self.total
            );
            let _ = err.flush();
        }
    }

    /// Clears the line before ordinary output is printed.
    pub fn clear(&self) {
        if self.shown {
            let _ = write!(std::io::stderr().lock(), "\r\x1b[2K");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_file_reuses_its_buffer_and_reads_a_nested_file_into_its_own() {
        let dir = std::env::temp_dir().join(format!("navkit-with-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b) = (dir.join("a"), dir.join("b"));
        std::fs::write(&a, b"longer first file").unwrap();
        std::fs::write(&b, b"short").unwrap();
        let outer = with_file(&a, |bytes| {
            // The thread's buffer is lent out: the nested read must not see or clobber it.
            let inner = with_file(&b, <[u8]>::to_vec).unwrap();
            (bytes.to_vec(), inner)
        })
        .unwrap();
        assert_eq!(outer, (b"longer first file".to_vec(), b"short".to_vec()));
        // The reused buffer holds only the second file's bytes, not the first's tail.
        assert_eq!(with_file(&b, <[u8]>::to_vec).unwrap(), b"short");
        let missing = with_file(&dir.join("missing"), |_| ()).unwrap_err();
        assert_eq!(missing.kind(), std::io::ErrorKind::NotFound);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// Folders are recursed in sorted order, dot files and excluded names left out, and a
    /// symbolic link followed: to a folder, recursed; to a file, listed.
    #[test]
    fn files_lists_folders_in_order_and_follows_links() {
        let dir = std::env::temp_dir().join(format!("navkit-files-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("b/inner")).unwrap();
        std::fs::create_dir_all(dir.join("skip")).unwrap();
        for f in ["a.nav", "b/inner/c.nav", "b/d.nav", ".hidden", "skip/e.nav"] {
            std::fs::write(dir.join(f), b"x").unwrap();
        }
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink(dir.join("b/inner"), dir.join("link-dir")).unwrap();
            std::os::unix::fs::symlink(dir.join("a.nav"), dir.join("link-file")).unwrap();
        }
        let got: Vec<PathBuf> = files(std::slice::from_ref(&dir), &["skip".into()])
            .unwrap()
            .into_iter()
            .map(|(p, named)| {
                assert!(!named);
                p.strip_prefix(&dir).unwrap().to_path_buf()
            })
            .collect();
        let mut want = vec!["a.nav", "b/d.nav", "b/inner/c.nav"];
        if cfg!(unix) {
            want.extend(["link-dir/c.nav", "link-file"]);
        }
        let want: Vec<PathBuf> = want.into_iter().map(PathBuf::from).collect();
        assert_eq!(got, want);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn ends_give_every_position_once_from_either_end() {
        let ends = Ends::new(5);
        let got = [
            ends.front(),
            ends.back(),
            ends.back(),
            ends.front(),
            ends.back(),
            ends.front(),
            ends.back(),
        ];
        assert_eq!(
            got,
            [Some(0), Some(4), Some(3), Some(1), Some(2), None, None]
        );
        assert_eq!(Ends::new(0).front(), None);
        assert_eq!(Ends::new(0).back(), None);
    }

    #[test]
    fn helpers_take_the_costliest_items_and_the_caller_the_cheapest() {
        let items: Vec<u64> = (0..50).collect();
        let caller = std::thread::current().id();
        let taken = std::sync::Mutex::new(Vec::new());
        let mut seen = Vec::new();
        for_each_ordered_by_cost(
            &items,
            2,
            |&i| i % 10,
            |&i| {
                let mine = std::thread::current().id() == caller;
                taken.lock().unwrap().push((mine, i));
                // Long enough for the helper to start before the caller has taken everything.
                std::thread::sleep(std::time::Duration::from_micros(200));
                i + 1
            },
            |&i, r| seen.push((i, r)),
        );
        assert_eq!(seen, items.iter().map(|&i| (i, i + 1)).collect::<Vec<_>>());
        let taken = taken.into_inner().unwrap();
        let costs = |mine: bool| -> Vec<u64> {
            taken
                .iter()
                .filter(|t| t.0 == mine)
                .map(|t| t.1 % 10)
                .collect()
        };
        let (cheap, costly) = (costs(true), costs(false));
        assert_eq!(cheap.len() + costly.len(), items.len());
        // Each thread takes its items in order of cost from its end: the caller from the cheapest
        // up, the helper from the costliest down, and the two meet.
        assert_eq!(cheap.first(), Some(&0), "{cheap:?}");
        assert!(cheap.is_sorted(), "{cheap:?}");
        assert!(costly.is_sorted_by(|a, b| a >= b), "{costly:?}");
        if let (Some(c), Some(h)) = (cheap.last(), costly.last()) {
            assert!(c <= h, "{cheap:?} {costly:?}");
        }
        // Equal costs go in the items' order: the helper's first items are 9, 19, 29, ...
        let first: Vec<u64> = taken.iter().filter(|t| !t.0).map(|t| t.1).take(3).collect();
        assert!(
            first.is_sorted() && first.iter().all(|i| i % 10 == 9),
            "{first:?}"
        );
    }

    #[test]
    fn results_come_in_item_order_on_any_number_of_threads() {
        let items: Vec<u64> = (0..200).collect();
        for threads in [1, 2, 7, 500] {
            let mut seen = Vec::new();
            for_each_ordered(
                &items,
                threads,
                |&i| {
                    // Uneven work, so threads finish out of order.
                    std::thread::sleep(std::time::Duration::from_micros((i * 37) % 200));
                    i * i
                },
                |&i, sq| seen.push((i, sq)),
            );
            let expected: Vec<(u64, u64)> = items.iter().map(|&i| (i, i * i)).collect();
            assert_eq!(seen, expected, "{threads} threads");
        }
        let mut none = 0;
        for_each_ordered(&[] as &[u8], 4, |_| (), |_, ()| none += 1);
        assert_eq!(none, 0);
        assert_eq!(threads(Some(0)), 1);
        assert!(threads(None) >= 1);
    }
}
